// Every context of an app reads: each list's first rows, the list on from its first row by key,
// and each detail by that row's id (composite keys, rowid, ctid and views included).
import assert from 'node:assert/strict';
import type { Ast } from '../../src/ast/schema.ts';
import { exampleQuery } from '../../src/ast/view.ts';
import type { Backend } from '../../src/backend/backend.ts';

export async function readEveryContext(backend: Backend, ast: Ast): Promise<void> {
  for (const [name, context] of Object.entries(ast.contexts)) {
    if (context.kind !== 'list') continue;
    const first = await backend.api.run({ query: `{ ${name}(limit: 2, order_by: [{ id: asc }]) { id _cursor } }` });
    assert.equal(first.errors, undefined, `${name}: ${JSON.stringify(first.errors)}`);
    const rows = (first.data as Record<string, Array<{ id: string; _cursor: string }>>)[name];
    if (rows.length === 0) continue;
    const on = await backend.api.run({ query: `query ($after: String) { ${name}(limit: 1, order_by: [{ id: asc }], after: $after) { id } }`, variables: { after: rows[0]._cursor } });
    assert.equal(on.errors, undefined, `${name} by key: ${JSON.stringify(on.errors)}`);
    if (rows[1]) assert.deepEqual(JSON.parse(JSON.stringify((on.data as Record<string, unknown>)[name])), [{ id: rows[1].id }], `${name} by key`);
    const detail = Object.entries(ast.contexts).find(([, c]) => c.kind === 'detail' && c.entity === context.entity)?.[0];
    if (!detail) continue;
    const query = exampleQuery(ast, detail).replace('(id: "1")', '(id: $id)').replace(/^\{/, 'query ($id: ID!) {');
    const read = await backend.api.run({ query, variables: { id: rows[0].id } });
    assert.equal(read.errors, undefined, `${detail}: ${JSON.stringify(read.errors)}`);
    assert.equal((read.data as Record<string, { id: string }>)[detail].id, rows[0].id, detail);
  }
}
