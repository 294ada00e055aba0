// Who a request comes from, as the server can prove it: a person's own token (xos-server's users),
// or, in the embedded backend, the person the front end names (the extension's own process).
// The GraphQL layer records the name in the audit trail and applies the person's role (the AST's
// `roles`); a request without a person is the app's administrator or an older client: all rights.
export interface Person {
  /** The person's name as the team knows it ("anna"), shown in the History and on the Board. */
  readonly name: string;
  /** The AST role the person has; absent: every right the app gives (no `roles` in the AST). */
  readonly role?: string;
}
