// Nothing in the backend is specific to the demo CRM: an unrelated app (a
// lending library, locales en/fr) goes through every generated operation.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadAstFile } from '../../src/ast/load.ts';
import { exampleQuery } from '../../src/ast/view.ts';
import type { Ast } from '../../src/ast/schema.ts';
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import { generateRecords } from '../../src/backend/seed/generate.ts';
import { tempDir } from '../support/tmp.ts';

const LIBRARY = new URL('../fixtures/ast/library.json', import.meta.url).pathname;
const dir = await tempDir('xos-generic');
after(() => dir.remove());

async function run(backend: Backend, query: string, variables?: Record<string, unknown>) {
  const result = await backend.api.run({ query, variables });
  assert.equal(result.errors, undefined, JSON.stringify(result.errors));
  return result.data as Record<string, any>;
}

describe('a second, unrelated app: the library', () => {
  let ast: Ast;
  let fromData: Backend;
  let generated: Backend;

  before(async () => {
    ast = await loadAstFile(LIBRARY);
    fromData = await startBackend({ ast, dsn: `sqlite:${join(dir.path, 'data.db')}`, seed: true });
    generated = await startBackend({ ast, dsn: `sqlite:${join(dir.path, 'generated.db')}`, seed: 50 });
  });
  after(async () => { await fromData?.close(); await generated?.close(); });

  test('its data section is seeded exactly', () => {
    assert.deepEqual(fromData.seeded, Object.fromEntries(Object.entries(ast.data!).map(([e, rows]) => [e, rows.length])));
  });

  test('--seed=50 generates 50 records per entity', () => {
    assert.deepEqual(generated.seeded, Object.fromEntries(Object.keys(ast.entities).map((e) => [e, 50])));
  });

  test('every context answers its example query with exactly its list_fields', async () => {
    for (const [name, context] of Object.entries(ast.contexts)) {
      const data = await run(generated, exampleQuery(ast, name));
      const value = data[name];
      const first = context.kind === 'list' ? value[0] : value;
      assert.ok(first, `${name} returned a record`);
      assert.deepEqual(Object.keys(first), context.list_fields, name);
      if (context.kind === 'list') assert.equal(value.length, 50, name);
    }
  });

  test('every entity can be inserted, updated and deleted with generated values', async () => {
    const sample = generateRecords(ast, 1, 99);
    for (const [entity, def] of Object.entries(ast.entities)) {
      const object: Record<string, unknown> = {};
      for (const [field, value] of Object.entries(sample[entity][0])) {
        const fieldDef = def.fields[field];
        if (!fieldDef || fieldDef.type === 'id') continue;
        object[fieldDef.type === 'ref' ? `${field}_id` : field] = value;
      }
      const inserted = (await run(generated, `mutation($o: ${entity}_insert_input!) { insert_${entity}(object: $o) { id version } }`, { o: object }))[`insert_${entity}`];
      assert.equal(inserted.version, 1, entity);
      const firstString = Object.entries(def.fields).find(([, f]) => f.type === 'string' && !f.min)?.[0];
      if (firstString) {
        const updated = (await run(generated, `mutation($id: ID!) { update_${entity}(id: $id, version: 1, set: { ${firstString}: "Changed" }) { ${firstString} version } }`, { id: inserted.id }))[`update_${entity}`];
        assert.deepEqual({ ...updated }, { [firstString]: 'Changed', version: 2 }, entity);
      }
      const version = firstString ? 2 : 1;
      assert.equal((await run(generated, `mutation($id: ID!) { delete_${entity}(id: $id, version: ${version}) }`, { id: inserted.id }))[`delete_${entity}`], true, entity);
    }
  });

  test('refs and inverse lists work on its relations', async () => {
    for (const [entity, def] of Object.entries(ast.entities)) {
      for (const [field, fieldDef] of Object.entries(def.fields)) {
        if (fieldDef.type !== 'ref' || !fieldDef.inverse) continue;
        const list = Object.entries(ast.contexts).find(([, c]) => c.kind === 'list' && c.entity === fieldDef.entity)?.[0];
        if (!list) continue;
        const data = await run(fromData, `{ ${list} { id ${fieldDef.inverse} { id ${field}_id } } }`);
        const rows = ast.data![entity];
        for (const parent of data[list]) {
          const want = rows.filter((r) => String(r[field]) === parent.id).map((r) => String(r.id)).sort();
          assert.deepEqual(parent[fieldDef.inverse].map((c: any) => c.id).sort(), want, `${list}.${fieldDef.inverse}`);
          for (const child of parent[fieldDef.inverse]) assert.equal(child[`${field}_id`], parent.id);
        }
      }
    }
  });
});
