// `xos-server users add|list|revoke|role`: the administrator's side of the team's people. It works
// on the app's database directly (the same --dsn and --ast as serving); nothing else is migrated.
import type { Ast } from '../../ast/schema.ts';
import { buildModel } from '../model.ts';
import { openStorage } from '../storage/open.ts';
import { usersOf, PERSON_CACHE_MS } from './tokens.ts';
import { UsersError, type UserRow } from './users.ts';

export type UsersAction =
  | { readonly kind: 'add'; readonly name: string; readonly role?: string; readonly oidc?: boolean }
  | { readonly kind: 'list' }
  | { readonly kind: 'revoke'; readonly name: string }
  | { readonly kind: 'role'; readonly name: string; readonly role: string };

/** Why `role` cannot be given in this app, or undefined. */
export function roleProblem(ast: Ast, role: string): string | undefined {
  const roles = Object.keys(ast.roles ?? {});
  if (roles.length === 0) {
    return `the app "${ast.app}" has no roles, so "${role}" cannot be given: add a "roles" section to the AST first (docs/security.md), or add the user without --role (every right the app gives)`;
  }
  if (!roles.includes(role)) return `the app "${ast.app}" has no role "${role}"; its roles are: ${roles.join(', ')}`;
  return undefined;
}

/** Runs one users action on the app's database; `print` gets the lines for stdout. */
export async function runUsers(ast: Ast, dsn: string, action: UsersAction, print: (line: string) => void): Promise<void> {
  const role = action.kind === 'add' || action.kind === 'role' ? action.role : undefined;
  if (role !== undefined) {
    const problem = roleProblem(ast, role);
    if (problem) throw new UsersError(problem);
  }
  const model = buildModel(ast);
  const mustExist = Object.values(ast.entities).some((entity) => entity.table !== undefined);
  const storage = await openStorage(dsn, { mustExist });
  try {
    const users = usersOf(storage, model);
    if (!users) throw new UsersError(`the store of ${storage.description} keeps no users`);
    switch (action.kind) {
      case 'add': {
        const token = await users.add(action.name, action.role, { oidc: action.oidc === true });
        if (token === undefined) {
          print(`Added ${action.name}: they sign in with OpenID Connect (a token of the identity provider that "xos-server --oidc-issuer" names, whose name claim is ${action.name}); no XOS token is made.`);
          return;
        }
        print(token);
        print(`Give this token to ${action.name} once (it is not shown again): in VS Code, run "XOS: Set Server Token"; other clients send "Authorization: Bearer <token>".`);
        return;
      }
      case 'list': {
        const rows = await users.list();
        if (rows.length === 0) {
          print('No users yet; add one with: xos-server users add <name> [--role R] [--oidc]');
          return;
        }
        for (const line of listLines(rows)) print(line);
        return;
      }
      case 'revoke': {
        await users.revoke(action.name);
        print(`Revoked ${action.name}: every xos-server instance on this database refuses their token within ${PERSON_CACHE_MS / 1000} s.`);
        return;
      }
      case 'role': {
        await users.setRole(action.name, action.role);
        print(`${action.name} has the role ${action.role} now (every instance within ${PERSON_CACHE_MS / 1000} s).`);
        return;
      }
    }
  } finally {
    await storage.close();
  }
}

/** The users as a table: name, role, since, and whether they are revoked. */
function listLines(rows: readonly UserRow[]): string[] {
  const cells = [['NAME', 'ROLE', 'ADDED', 'STATE'], ...rows.map((u) => [u.name, u.role ?? '-', u.createdAt, u.revokedAt ? `revoked ${u.revokedAt}` : u.signIn === 'oidc' ? 'active (OpenID Connect)' : 'active'])];
  const widths = cells[0].map((_, i) => Math.max(...cells.map((row) => row[i].length)));
  return cells.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]))).join('  '));
}
