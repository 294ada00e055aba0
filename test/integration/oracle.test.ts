// A differential oracle test of xos_query: two XOS setups whose databases differ ONLY in the
// values the agent may not know (hidden and masked fields, the targets of a hidden ref) get the
// same generated GraphQL documents, and every agent-visible part of every reply (text content,
// structuredContent, the card in _meta, isError) must be identical. Any difference means a reply
// depends on a withheld value: an oracle. The documents are attacks: variables with defaults,
// fragments, aliases, directives, `<ref>_id` columns, nested _and/_or/_not, order_by arrays,
// inverse lists with their own arguments, counts, limit/offset, detail ids, typos of hidden names.
//
//   XOS_ORACLE_RUNS=50000 XOS_ORACLE_SEED=7 node --test test/integration/oracle.test.ts   (default 10,000 documents, fixed seed)
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Backend } from '../../src/backend/backend.ts';
import { embeddedClient } from '../../src/graphql/client.ts';
import { BoardState } from '../../src/board/state.ts';
import { listFieldSelections } from '../../src/ast/view.ts';
import { agentListFields, agentPolicy } from '../../src/ast/agentPolicy.ts';
import { agentServerText, serverMessage } from '../../src/mcp/agentText.ts';
import type { XosDeps } from '../../src/mcp/ports.ts';
import { SayingSave } from '../support/sayingSave.ts';
import { connectInMemory, type InMemoryMcp } from '../support/mcpClient.ts';
import { oracleApp, withheldBackend } from '../support/withheld.ts';

const RUNS = Number(process.env.XOS_ORACLE_RUNS ?? 10_000);
const SEED = Number(process.env.XOS_ORACLE_SEED ?? 20261204);

const ast = oracleApp();

interface Setup {
  readonly backend: Backend;
  readonly board: BoardState;
  readonly mcp: InMemoryMcp;
}

/** One setup: the demo data with the withheld values drawn from `seed`, and an MCP client that loaded the schema. */
async function setup(seed: number, word: string): Promise<Setup> {
  const backend = await withheldBackend(ast, seed, word);
  const board = new BoardState();
  const deps: XosDeps = { client: embeddedClient(backend), board, confirmer: new SayingSave() };
  const mcp = await connectInMemory(deps, `oracle-${word}`);
  const schema = await mcp.call('xos_schema');
  assert.equal(schema.isError, false);
  return { backend, board, mcp };
}

// ---- the generated documents -------------------------------------------------------------

const LIST_CONTEXTS = ['person_list', 'company_list', 'deal_list'] as const;
const DETAIL_CONTEXTS = ['person_detail', 'company_detail'] as const;
const entityOf = (context: string) => ast.contexts[context].entity;

/** The entity a ref or inverse list leads to, whatever the agent may know of it. */
function relationOf(entity: string, key: string): string | undefined {
  const def = ast.entities[entity].fields[key];
  if (def) return def.type === 'ref' ? def.entity : undefined;
  for (const [from, e] of Object.entries(ast.entities)) {
    for (const f of Object.values(e.fields)) if (f.type === 'ref' && f.entity === entity && f.inverse === key) return from;
  }
  return undefined;
}

/** Every name an attack may try on an entity: its fields, columns, inverse lists, kept ones, and typos of the kept ones. */
function namesOf(entity: string): string[] {
  const fields = Object.keys(ast.entities[entity].fields);
  const refs = fields.filter((f) => ast.entities[entity].fields[f].type === 'ref');
  const inverses = Object.values(ast.entities).flatMap((e) => Object.values(e.fields))
    .filter((f) => f.type === 'ref' && f.entity === entity && f.inverse).map((f) => f.inverse!);
  const kept = [...fields, ...inverses].filter((f) => agentPolicy(ast, entity, f) !== 'visible');
  const typos = kept.flatMap((k) => [`${k}s`, k.slice(0, -1), `${k[0].toUpperCase()}${k.slice(1)}`]);
  return [...fields, ...refs.map((r) => `${r}_id`), ...inverses, 'version', 'id', ...kept, ...kept, ...typos, 'nonexistent_field'];
}
const NAMES = Object.fromEntries(Object.keys(ast.entities).map((e) => [e, namesOf(e)]));
/** The names the agent may use, so that many documents reach the data. */
const VISIBLE = Object.fromEntries(Object.keys(ast.entities).map((e) => [e, namesOf(e).filter((name) => {
  const ref = name.endsWith('_id') ? name.slice(0, -3) : name;
  return name === 'id' || name === 'version' || ((ast.entities[e].fields[ref] || relationOf(e, ref)) && agentPolicy(ast, e, ref) === 'visible');
})]));
const nameOf = (entity: string) => fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...VISIBLE[entity]) }, { weight: 2, arbitrary: fc.constantFrom(...NAMES[entity]) });

const OPERATORS = ['_eq', '_neq', '_gt', '_gte', '_lt', '_lte', '_in', '_nin', '_is_null', '_like', '_ilike', '_regex'];
/** Literals that split the withheld values of the two setups (alpha/beta notes, money around the middle). */
const scalar: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: -1, max: 1_000_000 }).map(String),
  fc.constantFrom('"%alpha%"', '"%beta%"', '"alpha-1%"', '"%Berlin%"', '"Berlin"', '"1"', '"7"', '"500000.00"', '"2020-01-01"', '"+49%"'),
  fc.constantFrom('true', 'false', 'null', 'customer', 'lead', 'asc', '500000.5'),
);
const comparison: fc.Arbitrary<string> = fc.tuple(fc.constantFrom(...OPERATORS), scalar, fc.array(scalar, { maxLength: 3 }))
  .map(([op, value, list]) => (op === '_in' || op === '_nin' ? `{ ${op}: [${[value, ...list].join(', ')}] }` : `{ ${op}: ${value} }`));

/** A printed `<entity>_bool_exp` of at most `depth` levels. */
function whereOf(entity: string, depth: number): fc.Arbitrary<string> {
  const entry: fc.Arbitrary<string> = nameOf(entity).chain((key) => {
    const related = relationOf(entity, key);
    if (related && depth > 0) return whereOf(related, depth - 1).map((w) => `${key}: ${w}`);
    return comparison.map((c) => `${key}: ${c}`);
  });
  const logical: fc.Arbitrary<string> = depth > 0
    ? fc.oneof(
      fc.array(whereOf(entity, depth - 1), { minLength: 1, maxLength: 2 }).map((ws) => `_and: [${ws.join(', ')}]`),
      fc.array(whereOf(entity, depth - 1), { minLength: 1, maxLength: 2 }).map((ws) => `_or: [${ws.join(', ')}]`),
      whereOf(entity, depth - 1).map((w) => `_not: ${w}`),
    )
    : entry;
  return fc.array(fc.oneof({ weight: 3, arbitrary: entry }, { weight: 1, arbitrary: logical }), { minLength: 1, maxLength: 2 }).map((es) => `{ ${es.join(', ')} }`);
}

function orderOf(entity: string): fc.Arbitrary<string> {
  const item = fc.array(fc.tuple(nameOf(entity), fc.constantFrom('asc', 'desc', 'asc', 'desc', '"desc"')), { minLength: 1, maxLength: 2 })
    .map((pairs) => `{ ${pairs.map(([k, d]) => `${k}: ${d}`).join(', ')} }`);
  return fc.oneof(item, fc.array(item, { minLength: 1, maxLength: 3 }).map((items) => `[${items.join(', ')}]`));
}

interface ListArgs { where?: string; order?: string; limit?: number; offset?: number }

function listArgsOf(entity: string): fc.Arbitrary<ListArgs> {
  return fc.record({
    where: whereOf(entity, 2), order: orderOf(entity), limit: fc.integer({ min: 0, max: 25 }), offset: fc.integer({ min: 0, max: 300 }),
  }, { requiredKeys: [] });
}

function printArgs(args: ListArgs, whereText = args.where): string {
  const parts = [
    ...(whereText ? [`where: ${whereText}`] : []), ...(args.order ? [`order_by: ${args.order}`] : []),
    ...(args.limit !== undefined ? [`limit: ${args.limit}`] : []), ...(args.offset !== undefined ? [`offset: ${args.offset}`] : []),
  ];
  return parts.length ? `(${parts.join(', ')})` : '';
}

/** The selection the list_fields rule wants, with room for attacks on it. */
function selectionOf(context: string): fc.Arbitrary<string> {
  const base = listFieldSelections(ast, context, agentListFields(ast, context));
  const entity = entityOf(context);
  const extra = fc.constantFrom(...NAMES[entity], 'x: id', '__typename', 'version', 'id @include(if: true)', '...F');
  const relations = base.map((piece, index) => ({ piece, index, name: piece.split(' ')[0] })).filter((p) => p.piece.includes('{'));
  const nested: fc.Arbitrary<string[]> = relations.length === 0 ? fc.constant(base) : fc.constantFrom(...relations).chain(({ index, name }) => {
    const related = relationOf(entity, name)!;
    const inner = nameOf(related).chain((key) => {
      const deeper = relationOf(related, key);
      if (!deeper) return fc.constant(key);
      return listArgsOf(deeper).map((a) => `${key}${printArgs(a)} { id }`);
    });
    return fc.array(inner, { minLength: 1, maxLength: 3 }).map((keys) => base.map((p, i) => (i === index ? `${name} { id ${keys.join(' ')} }` : p)));
  });
  return fc.oneof(
    { weight: 6, arbitrary: fc.constant(base) },
    { weight: 2, arbitrary: nested },
    { weight: 2, arbitrary: extra.map((e) => [...base, e]) },
    { weight: 1, arbitrary: fc.constant(base.slice(1)) },
  ).map((pieces) => pieces.join(' '));
}

/** One attack: the context and the document sent to it. */
const documents: fc.Arbitrary<{ context: string; query: string }> = fc.oneof(
  // Lists with arguments, plain or wrapped in the ways the rules refuse.
  fc.constantFrom(...LIST_CONTEXTS).chain((context) => {
    const entity = entityOf(context);
    const shapes = fc.oneof({ weight: 8, arbitrary: fc.constant(0) }, { weight: 5, arbitrary: fc.integer({ min: 1, max: 5 }) });
    return fc.tuple(selectionOf(context), listArgsOf(entity), shapes, whereOf(entity, 1)).map(([selection, args, shape, second]) => {
      const fragment = selection.includes('...F') ? ` fragment F on ${entity} { id }` : '';
      switch (shape) {
        case 1: // the filter in a variable's default value
          return { context, query: `query Q($w: ${entity}_bool_exp = ${args.where ?? second}) { ${context}${printArgs({ ...args, where: '$w' })} { ${selection} } }${fragment}` };
        case 2: // a variable without a default
          return { context, query: `query Q($w: ${entity}_bool_exp) { ${context}${printArgs({ ...args, where: '$w' })} { ${selection} } }${fragment}` };
        case 3: // the whole selection in a fragment
          return { context, query: `{ ${context}${printArgs(args)} { ...G } } fragment G on ${entity} { ${selection} }` };
        case 4: // a count as a second root field
          return { context, query: `{ ${context}${printArgs(args)} { ${selection} } ${context}_count(where: ${second}) }${fragment}` };
        case 5: // an aliased root
          return { context, query: `{ r: ${context}${printArgs(args)} { ${selection} } }${fragment}` };
        default:
          return { context, query: `query { ${context}${printArgs(args)} { ${selection} } }${fragment}` };
      }
    });
  }),
  // Details by id, by a variable's default, or with list arguments.
  fc.constantFrom(...DETAIL_CONTEXTS).chain((context) => fc.tuple(selectionOf(context), fc.integer({ min: 0, max: 45 }),
    fc.oneof({ weight: 6, arbitrary: fc.constantFrom(2, 3) }, { weight: 1, arbitrary: fc.constantFrom(0, 1) }), listArgsOf(entityOf(context)))
    .map(([selection, id, shape, args]) => {
      const fragment = selection.includes('...F') ? ` fragment F on ${entityOf(context)} { id }` : '';
      const query = shape === 0 ? `query Q($id: ID! = "${id}") { ${context}(id: $id) { ${selection} } }`
        : shape === 1 ? `{ ${context}${printArgs(args)} { ${selection} } }`
          : `{ ${context}(id: ${shape === 2 ? `"${id}"` : id}) { ${selection} } }`;
      return { context, query: `${query}${fragment}` };
    })),
);

// ---- the suite ---------------------------------------------------------------------------

describe('xos_query is no oracle for withheld values', () => {
  let a: Setup;
  let b: Setup;

  /** The whole reply as the agent's client receives it: content, structuredContent, _meta (the card), isError. */
  async function replies(context: string, query: string): Promise<[string, string]> {
    const call = (s: Setup) => s.mcp.client.callTool({ name: 'xos_query', arguments: { context, query } }).then((r) => JSON.stringify(r));
    return Promise.all([call(a), call(b)]);
  }

  async function same(context: string, query: string): Promise<Record<string, any>> {
    const [left, right] = await replies(context, query);
    assert.equal(left, right, `the replies to ${query} differ between the setups`);
    return JSON.parse(left);
  }

  const text = (reply: Record<string, any>) => (reply.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('');

  before(async () => {
    [a, b] = await Promise.all([setup(1, 'alpha'), setup(2, 'beta')]);
    // The setups do differ where the agent may not look.
    const secret = '{ person_list(where: { _and: [{ notes: { _ilike: "%alpha%" } }, { net_worth: { _gt: "500000" } }] }) { id } }';
    const read = async (s: Setup) => ((await s.backend.api.run({ query: secret })).data as { person_list: unknown[] }).person_list.length;
    assert.notEqual(await read(a), await read(b));
  });
  after(async () => {
    await a?.backend.close();
    await b?.backend.close();
  });

  test('finding 1: a filter in a variable\'s default value is refused, not run', async () => {
    const fields = listFieldSelections(ast, 'person_list', agentListFields(ast, 'person_list')).join(' ');
    // A filter that splits the two setups: run, its count differed between them.
    const split = await same('person_list', `query Q($w: person_bool_exp = {_and: [{net_worth: {_gt: "500000"}}, {notes: {_ilike: "%alpha%"}}]}) { person_list(where: $w, limit: 1000) { ${fields} } }`);
    assert.equal(split.isError, true);
    const reply = await same('person_list', `query Q($w: person_bool_exp = {id: {_eq: 1}, net_worth: {_gt: 125000}}) { person_list(where: $w, limit: 1000) { ${fields} } }`);
    assert.equal(reply.isError, true);
    assert.match(text(reply), /^xos_query takes no variables \(\$w\): write each value inline in the query/);
    assert.match(text(reply), /Then call xos_query again\.$/);
    const byDefault = await same('person_detail', `query Q($id: ID! = "1") { person_detail(id: $id) { ${listFieldSelections(ast, 'person_detail', agentListFields(ast, 'person_detail')).join(' ')} } }`);
    assert.equal(byDefault.isError, true);
  });

  test('finding 2: a hidden ref is neither filtered nor sorted by its column, and reads like an unknown name', async () => {
    const fields = listFieldSelections(ast, 'person_list', agentListFields(ast, 'person_list')).join(' ');
    const refusals: string[] = [];
    for (const name of ['company_id', 'compamy_id', 'company', 'notes', 'notez', 'net_worth']) {
      for (const args of [`where: {${name}: {_eq: 1}}`, `order_by: {${name}: desc}`, `where: {_or: [{id: {_eq: 2}}, {_not: {${name}: {_is_null: true}}}]}`]) {
        const reply = await same('person_list', `{ person_list(${args}) { ${fields} } }`);
        assert.equal(reply.isError, true, `${args} was run`);
        refusals.push(text(reply).replace(name, 'NAME'));
      }
    }
    // Hidden, masked and unknown names: the same words (but for the name itself).
    assert.equal(new Set(refusals.filter((_, i) => i % 3 === 0)).size, 1, refusals.join('\n'));
    assert.equal(new Set(refusals.filter((_, i) => i % 3 === 1)).size, 1, refusals.join('\n'));
    assert.match(refusals[0], /^NAME is not a field of person you can filter or sort by; use the fields xos_schema lists .* Then call xos_query again\.$/);
    // A visible ref's column still filters and sorts.
    const deals = listFieldSelections(ast, 'deal_list', agentListFields(ast, 'deal_list')).join(' ');
    const visible = await same('deal_list', `{ deal_list(where: {company_id: {_eq: 1}}, order_by: [{contact_id: desc}]) { ${deals} } }`);
    assert.equal(visible.isError, undefined, text(visible));
  });

  test('finding 3: no "Did you mean" and no hidden name comes back, and a hidden name is refused like an unknown one', async () => {
    const deals = listFieldSelections(ast, 'deal_list', agentListFields(ast, 'deal_list'));
    const withContact = (inner: string) => `{ deal_list { ${deals.map((p) => (p.startsWith('contact ') ? `contact { id ${inner} }` : p)).join(' ')} } }`;
    const typo = await same('deal_list', withContact('notez'));
    const hidden = await same('deal_list', withContact('notes'));
    assert.equal(typo.isError, true);
    assert.doesNotMatch(JSON.stringify(typo), /Did you mean|"notes"|\bnotes\b/);
    assert.equal(text(hidden).replace('notes', 'X'), text(typo).replace('notez', 'X'));
    const hiddenRef = await same('deal_list', withContact('company { id }'));
    const unknownRef = await same('deal_list', withContact('compani { id }'));
    assert.equal(text(hiddenRef).replace('company', 'X'), text(unknownRef).replace('compani', 'X'));
    // Server texts are worded for the agent in one place: no suggestions, nothing naming a hidden column.
    assert.equal(agentServerText(ast, 'Cannot query field "notez" on type "person". Did you mean "notes"?'), 'Cannot query field "notez" on type "person".');
    assert.doesNotMatch(agentServerText(ast, 'person.company_id: company 99 does not exist; pick an existing company id'), /company_id/);
    assert.doesNotMatch(serverMessage(ast, 'person', { message: 'a referenced record does not exist (company_id)', extensions: { field: 'company_id' } }), /company/);
    assert.equal(serverMessage(ast, 'deal', { message: 'deal.company_id: company 99 does not exist', extensions: { field: 'company_id' } }), 'deal.company_id: company 99 does not exist');
  });

  test(`${RUNS} generated documents get the same reply from both setups`, async () => {
    let accepted = 0;
    const started = Date.now();
    await fc.assert(fc.asyncProperty(documents, async ({ context, query }) => {
      const [left, right] = await replies(context, query);
      if (left !== right) {
        assert.fail(`the replies differ for ${context}: ${query}\nA: ${left.slice(0, 600)}\nB: ${right.slice(0, 600)}`);
      }
      if (!left.includes('"isError":true')) accepted++;
      assert.doesNotMatch(left, /Did you mean/, query);
    }), { numRuns: RUNS, seed: SEED, endOnFailure: true });
    // The generator reaches the data often enough for the comparison to mean something.
    assert.ok(accepted > RUNS / 10, `only ${accepted} of ${RUNS} documents were run`);
    console.log(`oracle: ${RUNS} documents, ${accepted} run against the data, ${Date.now() - started} ms`);
  });

  test('a save that fails on a hidden ref\'s foreign key is worded without the column', async () => {
    const fields = listFieldSelections(ast, 'person_detail', agentListFields(ast, 'person_detail')).join(' ');
    const loaded = await a.mcp.call('xos_query', { context: 'person_detail', query: `{ person_detail(id: "3") { ${fields} } }` });
    assert.equal(loaded.isError, false, loaded.text);
    a.board.edit('company', { id: '9999' });
    const saved = await a.mcp.call('xos_ui_save');
    assert.equal(saved.isError, true, saved.text);
    assert.doesNotMatch(saved.text, /company|Did you mean/);
    assert.match(saved.text, /Nothing was written\./);
    a.board.discard();
  });
});
