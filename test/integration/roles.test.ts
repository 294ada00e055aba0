// The AST's roles enforced by the backend for every request, on both stores: a matrix generated
// from the role definitions (every role × context × field × action), own records wherever a
// table is read or written, the audit trail through a role, the AST served for a role, and the
// agent acting for a person through the MCP tools.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { astFromObject } from '../../src/ast/load.ts';
import type { Ast, RoleDef } from '../../src/ast/schema.ts';
import type { Backend } from '../../src/backend/backend.ts';
import type { Person } from '../../src/backend/people/person.ts';
import { embeddedClient } from '../../src/graphql/client.ts';
import { BoardState } from '../../src/board/state.ts';
import type { Confirmer } from '../../src/core/domain.ts';
import { onBothStores } from '../support/bothStores.ts';
import { connectInMemory } from '../support/mcpClient.ts';

const ast: Ast = astFromObject({
  xos: '1',
  app: 'team',
  locales: ['en', 'de'],
  entities: {
    company: { fields: { id: { type: 'id' }, name: { type: 'string', required: true }, owner: { type: 'string' } } },
    deal: {
      fields: {
        id: { type: 'id' },
        title: { type: 'string', required: true },
        amount: { type: 'int' },
        secret: { type: 'string' },
        owner: { type: 'string' },
        company: { type: 'ref', entity: 'company', inverse: 'deals' },
      },
    },
    note: { fields: { id: { type: 'id' }, text: { type: 'string' } } },
  },
  contexts: {
    company_list: { kind: 'list', entity: 'company', list_fields: ['id', 'name'] },
    company_detail: { kind: 'detail', entity: 'company', list_fields: ['id', 'name', 'owner', 'deals'], editable: ['name', 'owner'], create: true, delete: true },
    deal_list: { kind: 'list', entity: 'deal', list_fields: ['id', 'title', 'amount', 'owner'] },
    deal_detail: { kind: 'detail', entity: 'deal', list_fields: ['id', 'title', 'amount', 'secret', 'owner', 'company'], editable: ['title', 'amount', 'secret', 'owner', 'company'], create: true, delete: true },
    note_list: { kind: 'list', entity: 'note', list_fields: ['id', 'text'] },
    note_detail: { kind: 'detail', entity: 'note', list_fields: ['id', 'text'], editable: ['text'], create: true, delete: true },
  },
  roles: {
    Viewer: { contexts: { '*': ['read'] }, fields: { 'deal.secret': [] } },
    Sales: {
      contexts: { company_list: ['read'], company_detail: ['read'], deal_list: ['read'], deal_detail: ['read', 'edit', 'create'] },
      fields: { 'deal.amount': ['read'], 'deal.secret': [] },
      rows: { deal: { field: 'owner', is: '$person' } },
    },
    Manager: {
      contexts: { company_detail: ['read', 'edit', 'create', 'delete'], deal_list: ['read'], deal_detail: ['read', 'edit', 'delete'], note_list: ['read', 'edit'] },
      rows: { company: { field: 'owner', is: '$person' } },
    },
  },
});

type Json = Record<string, any>;
type Action = 'read' | 'edit' | 'create' | 'delete';

async function run(backend: Backend, query: string, variables: Json = {}, person?: Person): Promise<{ data?: Json | null; errors?: Json[] }> {
  // graphql-js builds null-prototype objects; compare plain JSON.
  return JSON.parse(JSON.stringify(await backend.api.run({ query, variables, ...(person ? { person } : {}) }))) as { data?: Json | null; errors?: Json[] };
}

async function admin(backend: Backend, query: string, variables: Json = {}): Promise<Json> {
  const result = await run(backend, query, variables);
  assert.equal(result.errors, undefined, JSON.stringify(result.errors));
  return result.data!;
}

// The expectations, derived from the role definition alone.
const rightsOn = (role: RoleDef, context: string) => {
  const rights = role.contexts[context] ?? role.contexts['*'] ?? [];
  return rights.includes('read') ? rights : [];
};
const fieldRight = (role: RoleDef, entity: string, field: string) => role.fields?.[`${entity}.${field}`] ?? ['read', 'edit'];
const onEntity = (role: RoleDef, entity: string, right: Action) =>
  Object.entries(ast.contexts).some(([name, c]) => c.entity === entity && rightsOn(role, name).includes(right));
const required = (entity: string) => Object.entries(ast.entities[entity].fields).filter(([, d]) => d.required && d.type !== 'id').map(([f]) => f);
const mayCreate = (role: RoleDef, entity: string) => onEntity(role, entity, 'create')
  && required(entity).every((f) => fieldRight(role, entity, f).includes('edit') || role.rows?.[entity]?.field === f);

function valueFor(entity: string, field: string, person: Person, companyId: string): unknown {
  const def = ast.entities[entity].fields[field];
  if (field === 'owner') return person.name;
  if (def.type === 'int') return 7;
  if (def.type === 'ref') return companyId;
  return `${field} by ${person.name}`;
}

function inputName(entity: string, field: string): string {
  return ast.entities[entity].fields[field].type === 'ref' ? `${field}_id` : field;
}

function selectionOf(entity: string, field: string): string {
  return ast.entities[entity].fields[field].type === 'ref' ? `${field} { id }` : field;
}

async function counts(backend: Backend): Promise<string> {
  const data = await admin(backend, '{ company_list_count deal_list_count note_list_count xos_audit_count }');
  return JSON.stringify(data);
}

/** A write that must be refused: FORBIDDEN, and not one row or audit entry more or less. */
async function refused(backend: Backend, query: string, variables: Json, person: Person, what: string): Promise<Json> {
  const before = await counts(backend);
  const result = await run(backend, query, variables, person);
  assert.equal(result.errors?.[0]?.extensions?.code, 'FORBIDDEN', `${what}: ${JSON.stringify(result)}`);
  assert.match(String(result.errors![0].message), new RegExp(`Your role "${person.role}"`), what);
  assert.equal(await counts(backend), before, `${what} wrote something`);
  return result.errors![0];
}

async function matrix(backend: Backend): Promise<number> {
  let checks = 0;
  for (const [roleName, role] of Object.entries(ast.roles!)) {
    const person: Person = { name: `${roleName.toLowerCase()}1`, role: roleName };
    // Records the person owns, made by the administrator, so own-records filters let them through.
    const company = (await admin(backend, 'mutation($o: company_insert_input!) { insert_company(object: $o) { id } }', { o: { name: 'Acme', owner: person.name } })).insert_company;
    const records: Record<string, Json> = {
      company: (await admin(backend, 'mutation($o: company_insert_input!) { insert_company(object: $o) { id version } }', { o: { name: 'Mine', owner: person.name } })).insert_company,
      deal: (await admin(backend, 'mutation($o: deal_insert_input!) { insert_deal(object: $o) { id version } }', { o: { title: 'Mine', owner: person.name, company_id: company.id } })).insert_deal,
      note: (await admin(backend, 'mutation($o: note_insert_input!) { insert_note(object: $o) { id version } }', { o: { text: 'Mine' } })).insert_note,
    };
    for (const [contextName, context] of Object.entries(ast.contexts)) {
      const entity = context.entity;
      const record = records[entity];
      for (const field of Object.keys(ast.entities[entity].fields).filter((f) => f !== 'id')) {
        // read
        const readable = rightsOn(role, contextName).includes('read') && fieldRight(role, entity, field).includes('read');
        const query = context.kind === 'list'
          ? `query($id: ID!) { ${contextName}(where: { id: { _eq: $id } }) { id ${selectionOf(entity, field)} } }`
          : `query($id: ID!) { ${contextName}(id: $id) { id ${selectionOf(entity, field)} } }`;
        const read = await run(backend, query, { id: record.id }, person);
        if (readable) {
          assert.equal(read.errors, undefined, `${roleName} reads ${contextName}.${field}: ${JSON.stringify(read.errors)}`);
          const row = context.kind === 'list' ? read.data![contextName][0] : read.data![contextName];
          assert.equal(row.id, record.id, `${roleName} reads ${contextName}.${field}`);
        } else {
          assert.equal(read.errors?.[0]?.extensions?.code, 'FORBIDDEN', `${roleName} may not read ${contextName}.${field}: ${JSON.stringify(read)}`);
        }
        checks++;
        if (context.kind !== 'detail') continue;
        // edit: through the entity's update, allowed where any context of the entity gives "edit"
        const editable = onEntity(role, entity, 'edit') && fieldRight(role, entity, field).includes('edit');
        const current = (await admin(backend, `query($id: ID!) { ${contextName}(id: $id) { version } }`, { id: record.id }))[contextName];
        const update = `mutation($id: ID!, $v: Int!, $set: ${entity}_set_input!) { update_${entity}(id: $id, version: $v, set: $set) { id version } }`;
        const set = { [inputName(entity, field)]: valueFor(entity, field, person, company.id) };
        if (editable) {
          const done = await run(backend, update, { id: record.id, v: current.version, set }, person);
          assert.equal(done.errors, undefined, `${roleName} edits ${entity}.${field}: ${JSON.stringify(done.errors)}`);
          assert.equal(done.data![`update_${entity}`].version, current.version + 1);
        } else {
          await refused(backend, update, { id: record.id, v: current.version, set }, person, `${roleName} edits ${entity}.${field}`);
        }
        checks++;
      }
      if (context.kind !== 'detail') continue;
      // create
      const object = Object.fromEntries(required(entity).map((f) => [inputName(entity, f), valueFor(entity, f, person, company.id)]));
      const insert = `mutation($o: ${entity}_insert_input!) { insert_${entity}(object: $o) { id version } }`;
      if (mayCreate(role, entity)) {
        const done = await run(backend, insert, { o: object }, person);
        assert.equal(done.errors, undefined, `${roleName} creates ${entity}: ${JSON.stringify(done.errors)}`);
      } else {
        await refused(backend, insert, { o: object }, person, `${roleName} creates ${entity}`);
      }
      checks++;
      // delete: a fresh record of the person's, so the matrix' other records stay
      const victim = (await admin(backend, insert, { o: { ...object, ...(entity === 'note' ? {} : { owner: person.name }) } }))[`insert_${entity}`];
      const remove = `mutation($id: ID!, $v: Int!) { delete_${entity}(id: $id, version: $v) }`;
      if (onEntity(role, entity, 'delete')) {
        const done = await run(backend, remove, { id: victim.id, v: victim.version }, person);
        assert.equal(done.errors, undefined, `${roleName} deletes ${entity}: ${JSON.stringify(done.errors)}`);
      } else {
        const error = await refused(backend, remove, { id: victim.id, v: victim.version }, person, `${roleName} deletes ${entity}`);
        assert.match(String(error.message), new RegExp(`may not delete ${entity} records: it needs "delete" on ${entity}_detail`));
      }
      checks++;
    }
  }
  return checks;
}

async function ownRecords(backend: Backend): Promise<void> {
  const anna: Person = { name: 'anna', role: 'Sales' };
  const company = (await admin(backend, 'mutation { insert_company(object: { name: "Own Co", owner: "x" }) { id } }')).insert_company.id;
  const ids: Record<string, string[]> = { anna: [], ben: [] };
  for (const [owner, n] of [['anna', 5], ['ben', 4]] as const) {
    for (let i = 0; i < n; i++) {
      const made = await admin(backend, 'mutation($o: deal_insert_input!) { insert_deal(object: $o) { id } }', { o: { title: `own ${owner} ${i}`, owner, amount: i, company_id: company } });
      ids[owner].push(made.insert_deal.id);
    }
  }
  const where = { title: { _like: 'own %' } };
  // reads and counts
  const list = await run(backend, 'query($w: deal_bool_exp) { deal_list(where: $w, order_by: { title: asc }, limit: 100) { id owner } deal_list_count(where: $w) }', { w: where }, anna);
  assert.equal(list.errors, undefined, JSON.stringify(list.errors));
  assert.deepEqual(list.data!.deal_list.map((d: Json) => d.id), ids.anna);
  assert.equal(list.data!.deal_list_count, 5);
  // what a sort would read: the rows the role sees, not the table's
  const ownHint = await run(backend, '{ deal_list_count xos_sort_hint(context: "deal_list", field: "title") { rows } }', {}, anna);
  assert.equal(ownHint.errors, undefined, JSON.stringify(ownHint.errors));
  assert.ok((await admin(backend, '{ deal_list_count }')).deal_list_count > ownHint.data!.deal_list_count, 'the table holds more than anna\'s');
  assert.equal(ownHint.data!.xos_sort_hint.rows, ownHint.data!.deal_list_count);
  // the CSV export's shape: every list field, many rows
  const csv = await run(backend, 'query($w: deal_bool_exp) { deal_list(where: $w, limit: 1000, offset: 0) { id title amount owner } }', { w: where }, anna);
  assert.ok(csv.data!.deal_list.every((d: Json) => d.owner === 'anna') && csv.data!.deal_list.length === 5);
  // keyset paging
  const first = await run(backend, 'query($w: deal_bool_exp) { deal_list(where: $w, order_by: { title: asc }, limit: 3) { id _cursor } }', { w: where }, anna);
  const cursor = first.data!.deal_list.at(-1)._cursor;
  const next = await run(backend, 'query($w: deal_bool_exp, $c: String) { deal_list(where: $w, order_by: { title: asc }, limit: 3, after: $c) { id } }', { w: where, c: cursor }, anna);
  assert.deepEqual([...first.data!.deal_list, ...next.data!.deal_list].map((d: Json) => d.id), ids.anna);
  // details, refs and inverse lists, and filters through them
  const other = await run(backend, 'query($id: ID!) { deal_detail(id: $id) { id } }', { id: ids.ben[0] }, anna);
  assert.equal(other.data!.deal_detail, null);
  const inverse = await run(backend, 'query($id: ID!) { company_detail(id: $id) { deals { id } } }', { id: company }, anna);
  assert.deepEqual(inverse.data!.company_detail.deals.map((d: Json) => d.id).sort(), [...ids.anna].sort());
  const through = await run(backend, 'query($id: ID!) { company_list(where: { id: { _eq: $id }, deals: { owner: { _eq: "ben" } } }) { id } }', { id: company }, anna);
  assert.deepEqual(through.data!.company_list, [], 'a filter through the inverse list sees only own deals');
  // updates: one own row works; another's is refused; a batch with one of another's writes nothing
  const versions = async (list: string[]) => (await admin(backend, 'query($w: deal_bool_exp) { deal_list(where: $w, order_by: { id: asc }) { id version title } }', { w: { id: { _in: list } } })).deal_list;
  const [mine] = await versions([ids.anna[0]]);
  const ok = await run(backend, 'mutation($id: ID!, $v: Int!) { update_deal(id: $id, version: $v, set: { title: "own anna 0" }) { version } }', { id: mine.id, v: mine.version }, anna);
  assert.equal(ok.errors, undefined, JSON.stringify(ok.errors));
  const [bens] = await versions([ids.ben[0]]);
  await refused(backend, 'mutation($id: ID!, $v: Int!) { update_deal(id: $id, version: $v, set: { title: "taken" }) { version } }', { id: bens.id, v: bens.version }, anna, 'update of another\'s deal');
  const [mine2] = await versions([ids.anna[1]]);
  await refused(backend, 'mutation($id: ID!, $v: Int!) { update_deal(id: $id, version: $v, set: { owner: "ben" }) { version } }', { id: mine2.id, v: mine2.version }, anna, 'giving a deal away');
  const batch = await versions([ids.anna[2], ids.ben[1]]);
  await refused(backend, 'mutation($u: [deal_many_update_input!]!) { update_deal_many(updates: $u) { id } }',
    { u: batch.map((d: Json) => ({ id: d.id, version: d.version, set: { title: 'batch' } })) }, anna, 'a batch with another\'s deal');
  assert.deepEqual(await versions([ids.anna[2], ids.ben[1]]), batch, 'nothing of the batch was written');
  const ownBatch = await versions([ids.anna[2], ids.anna[3]]);
  const batchOk = await run(backend, 'mutation($u: [deal_many_update_input!]!) { update_deal_many(updates: $u) { id version } }',
    { u: ownBatch.map((d: Json) => ({ id: d.id, version: d.version, set: { title: 'own anna batch' } })) }, anna);
  assert.equal(batchOk.errors, undefined, JSON.stringify(batchOk.errors));
  // inserts: the owner is the person, given or not; someone else's name is refused
  const made = await run(backend, 'mutation { insert_deal(object: { title: "own anna new" }) { id owner } }', {}, anna);
  assert.equal(made.data!.insert_deal.owner, 'anna');
  await refused(backend, 'mutation { insert_deal(object: { title: "own forged", owner: "ben" }) { id } }', {}, anna, 'an insert for another');
  // deletes: the Manager's own companies only
  const carl: Person = { name: 'carl', role: 'Manager' };
  const theirs = (await admin(backend, 'mutation { insert_company(object: { name: "Not carl\'s", owner: "dora" }) { id version } }')).insert_company;
  await refused(backend, 'mutation($id: ID!, $v: Int!) { delete_company(id: $id, v: $v) }'.replace('v: $v)', 'version: $v)'), { id: theirs.id, v: theirs.version }, carl, 'delete of another\'s company');
  const own = (await admin(backend, 'mutation { insert_company(object: { name: "carl\'s", owner: "carl" }) { id version } }')).insert_company;
  const deleted = await run(backend, 'mutation($id: ID!, $v: Int!) { delete_company(id: $id, version: $v) }', { id: own.id, v: own.version }, carl);
  assert.equal(deleted.data!.delete_company, true, JSON.stringify(deleted.errors));
  // a ref to a company outside carl's own records reads as nothing
  const deal = await run(backend, 'query($id: ID!) { deal_detail(id: $id) { company { id } } }', { id: ids.anna[0] }, carl);
  assert.equal(deal.data!.deal_detail.company, null);

  // the audit trail through the role: only readable entities, only own records, no hidden values
  await admin(backend, 'mutation { insert_note(object: { text: "for managers" }) { id } }');
  const audit = await run(backend, '{ xos_audit(limit: 500) { entity record_id changes { field } } xos_audit_count }', {}, anna);
  assert.equal(audit.errors, undefined, JSON.stringify(audit.errors));
  const entries: Json[] = audit.data!.xos_audit;
  assert.ok(entries.length > 0);
  assert.equal(audit.data!.xos_audit_count, entries.length);
  assert.ok(entries.every((e) => e.entity !== 'note'), 'no entries of an entity the role cannot read');
  assert.ok(!entries.some((e) => e.entity === 'deal' && ids.ben.includes(e.record_id)), 'no entries of another\'s deals');
  assert.ok(entries.some((e) => e.entity === 'deal' && e.record_id === ids.anna[0]));
  assert.ok(entries.every((e) => e.changes.every((c: Json) => c.field !== 'secret')), 'no values of hidden fields');
  const noNotes = await run(backend, '{ xos_audit(entity: "note") { id } xos_audit_count(entity: "note") }', {}, anna);
  assert.deepEqual(noNotes.data, { xos_audit: [], xos_audit_count: 0 });
  const paged = await run(backend, '{ xos_audit(entity: "deal", limit: 2, offset: 1) { record_id } }', {}, anna);
  assert.deepEqual(paged.data!.xos_audit, entries.filter((e) => e.entity === 'deal').slice(1, 3).map((e) => ({ record_id: e.record_id })));
}

async function servedAst(backend: Backend): Promise<void> {
  const anna: Person = { name: 'anna', role: 'Sales' };
  const served = backend.api.astFor(anna);
  assert.deepEqual(Object.keys(served.contexts).sort(), ['company_detail', 'company_list', 'deal_detail', 'deal_list']);
  assert.equal(served.entities.deal.fields.secret, undefined);
  assert.equal(served.entities.deal.fields.amount.read_only, true);
  assert.equal(served.roles, undefined);
  assert.equal(served.entities.company.read_only, 'Your role "Sales" may only read company.');
  assert.deepEqual(embeddedClient(backend, anna).ast(), served);
  assert.equal(backend.api.astFor(), backend.api.ast);
  // no role, an unknown role: nothing at all, and why
  for (const person of [{ name: 'zoe' }, { name: 'zoe', role: 'Boss' }]) {
    const result = await run(backend, '{ company_list { id } }', {}, person);
    assert.equal(result.errors?.[0]?.extensions?.code, 'FORBIDDEN');
    assert.match(String(result.errors![0].message), /zoe.*(no role|not one of this app's roles).*ask the app's administrator/);
  }
  // a hidden field is named as such, not as unknown
  const hidden = await run(backend, '{ deal_list { id secret } }', {}, anna);
  assert.deepEqual(hidden.errors?.map((e) => [e.extensions?.code, e.message]), [['FORBIDDEN', 'Your role "Sales" may not see deal.secret.']]);
  const refusals: Array<[string, Json, string]> = [
    ['{ note_list { id } }', {}, 'Your role "Sales" may not read note_list: it needs "read" on note_list.'],
    ['{ deal_list(where: { secret: { _eq: "x" } }) { id } }', {}, 'Your role "Sales" may not see deal.secret.'],
    ['mutation($s: deal_set_input!) { update_deal(id: 1, version: 1, set: $s) { id } }', { s: { amount: 1 } }, 'Your role "Sales" may only read deal.amount: it needs "edit" on the field.'],
    ['mutation { delete_deal(id: 1, version: 1) }', {}, 'Your role "Sales" may not delete deal records: it needs "delete" on deal_detail.'],
    ['mutation { update_company(id: 1, version: 1, set: { name: "x" }) { id } }', {}, 'Your role "Sales" may not change company records: it needs "edit" on company_list or company_detail.'],
  ];
  for (const [query, variables, message] of refusals) {
    const result = await run(backend, query, variables, anna);
    assert.deepEqual(result.errors?.map((e) => [e.extensions?.code, e.message]), [['FORBIDDEN', message]], query);
  }
  const typo = await run(backend, '{ deal_list { id secrett } }', {}, anna);
  assert.equal(typo.errors?.[0]?.extensions?.code, 'GRAPHQL_VALIDATION_FAILED');
}

async function agentForPerson(backend: Backend): Promise<void> {
  const anna: Person = { name: 'anna', role: 'Sales' };
  const neverAsked: Confirmer = { confirmSave: async () => 'discard', confirmSend: async () => 'cancel' };
  const mcp = await connectInMemory({ client: embeddedClient(backend, anna), board: new BoardState(), confirmer: neverAsked });
  const schema = await mcp.call('xos_schema');
  assert.doesNotMatch(schema.text, /secret/);
  assert.doesNotMatch(schema.text, /note_list/);
  const hidden = await mcp.call('xos_query', { context: 'deal_list', query: '{ deal_list { id secret } }' });
  assert.ok(hidden.isError, hidden.text);
  // The agent's AST is the role's: the hidden field is not one of the context's fields at all.
  assert.match(hidden.text, /list_fields of deal_list \(id, title, amount, owner\).*not in list_fields: secret/);
  const mine = await mcp.call('xos_query', { context: 'deal_list', query: '{ deal_list(limit: 100) { id title amount owner } }' });
  assert.ok(!mine.isError, mine.text);
  assert.match(mine.text, /\(6 records of deal_list\.\)/, 'only the 6 of anna\'s own deals reach the Board');
  const id = (await run(backend, '{ deal_list(limit: 1) { id } }', {}, anna)).data!.deal_list[0].id as string;
  await mcp.call('xos_query', { context: 'deal_detail', query: `{ deal_detail(id: "${id}") { id title amount owner company { id } } }` });
  const change = await mcp.call('xos_ui_change_required', { context: 'deal_detail', changes: { amount: 99 } });
  assert.ok(change.isError, `the agent may not change a field the role may only read: ${change.text}`);
  assert.match(change.text, /Not editable in deal_detail: amount..*Editable fields: title, owner, company/);
  await mcp.client.close();
}

onBothStores('roles', ast, 0, async (backend) => {
  const checks = await matrix(backend);
  assert.ok(checks > 80, `the matrix checked ${checks} cases`);
  await ownRecords(backend);
  await servedAst(backend);
  await agentForPerson(backend);
});

test('the roles AST is valid and its roles differ', () => {
  assert.deepEqual(Object.keys(ast.roles!), ['Viewer', 'Sales', 'Manager']);
});
