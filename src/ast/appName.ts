// The app's name as people read it, the one rule every front end uses (the Board's start page
// and breadcrumb, xos-mcp's and xos-server's start lines, init's summary, xos_schema, the status
// bar): the AST's `label` in the locale, else its `app` identifier. `xos-server init` writes
// `app: "chinook"` and `label: "Chinook"`, so everyone says "Chinook".
import type { Ast } from './schema.ts';
import { resolveText } from './locale.ts';

export function appName(ast: Pick<Ast, 'app' | 'label' | 'locales'>, locale: string = ast.locales[0]): string {
  const label = resolveText(ast.label, locale, ast.locales)?.trim();
  return label || ast.app;
}
