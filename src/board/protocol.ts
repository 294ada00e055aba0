// The typed messages between the host and the Board webview, one file per part of the Board in
// protocol/ (as GitLens keeps one protocol per webview): each part's messages sit beside the host
// part that answers them. Both sides import them from here; only src/host/boardTransport.ts and
// webview/transport.ts touch the actual transport (postMessage). Every message the host receives
// is checked by its descriptor's guard; malformed and unknown ones are dropped.
//
// The Board is sent in parts: the locale and texts, the list (its columns, total and
// first rows), the detail form, the mail draft and a status line, each when it changes.
// List rows travel in windows the webview asks for as the person scrolls.
export * from './protocol/messages.ts';
export * from './protocol/board.ts';
export * from './protocol/navigation.ts';
export * from './protocol/list.ts';
export * from './protocol/records.ts';
export * from './protocol/mail.ts';
export * from './protocol/review.ts';
export * from './protocol/approvals.ts';
export * from './protocol/questions.ts';
export * from './protocol/live.ts';
