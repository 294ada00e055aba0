// Fuzzing with fast-check: every GraphQL operation of the generated API (valid-shaped from the
// AST — filters, ordering, paging, inserts, updates, deletes with values of every type and of the
// wrong type — and junk documents) on SQLite and PostgreSQL, and every MCP tool's input
// (valid-shaped from the tools' parameters, and arbitrary JSON). Whatever arrives: no crash, no
// internal error, no unhandled rejection; every reply is data, a GraphQL error with a code, a
// tool result or an isError result; and the server still answers afterwards.
//   XOS_FUZZ_RUNS=5000 node --test test/integration/fuzz.test.ts   (default 300 per property)
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ProtocolError } from '@modelcontextprotocol/client';
import type { Client } from '@modelcontextprotocol/client';
import fc from 'fast-check';
import type { Ast, FieldDef } from '../../src/ast/schema.ts';
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { BoardState } from '../../src/board/state.ts';
import { embeddedClient } from '../../src/graphql/client.ts';
import { XOS_TOOL_NAMES } from '../../src/mcp/registry.ts';
import type { Confirmer, Contact, Contacts, MailDraft, Mailer, SaveAnswer, SendAnswer } from '../../src/core/domain.ts';
import { connectInMemory } from '../support/mcpClient.ts';
import { startPostgres, type PostgresServer } from '../support/postgres.ts';

const RUNS = Number(process.env.XOS_FUZZ_RUNS ?? 300);
const ast: Ast = demoApp();

const unhandled: unknown[] = [];
process.on('unhandledRejection', (reason) => { unhandled.push(reason); });

/** A failed property, told in a few lines: counterexamples can be 200 KB strings. */
function shortReport<T>(details: fc.RunDetails<T>): void {
  if (!details.failed) return;
  const clip = (text: string) => (text.length > 600 ? `${text.slice(0, 600)}… (${text.length} characters)` : text);
  throw new Error(`property failed after ${details.numRuns} runs (seed ${details.seed}, path ${details.counterexamplePath}):\n`
    + `${clip(fc.stringify(details.counterexample))}\n${clip(String(details.errorInstance))}`);
}

// ---- values -------------------------------------------------------------------------------

/** Strings that have broken parsers before: control and format characters, astral planes, huge ones. */
const oddString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0x10ffff }).filter((c) => c < 0xd800 || c > 0xdfff).map((c) => String.fromCodePoint(c)), maxLength: 20 }),
  fc.constantFrom('', ' ', '\u0000', '\u202e', '\ufeff', '%', '_', '\\', "'; DROP TABLE person; --", '1e309', '-0', 'NaN', '２０２６-01-01', '2026-02-30', '9999-12-31T23:59:59Z'),
  fc.integer({ min: 10_000, max: 200_000 }).map((n) => 'x'.repeat(n)),
);
const edgeNumber = fc.oneof(
  fc.integer(), fc.double(),
  fc.constantFrom(0, -0, -1, 1, 2 ** 31 - 1, 2 ** 31, -(2 ** 31), -(2 ** 31) - 1, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 2, 1e308, -1e308, 5e-324),
);
/** Any JSON value, bounded so a run stays quick. */
const anyJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true },
    oddString, edgeNumber, fc.boolean(), fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 8 }), tie('value'), { maxKeys: 4 })),
})).value;
/** JSON nested far deeper than anything legitimate. */
const deepJson = fc.integer({ min: 50, max: 3_000 }).map((depth) => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
});

/** A value for a field: mostly of its type, sometimes of any other. */
function valueFor(def: FieldDef): fc.Arbitrary<unknown> {
  const typed: Record<string, fc.Arbitrary<unknown>> = {
    id: fc.oneof(fc.integer({ min: -5, max: 400 }).map(String), oddString),
    int: edgeNumber,
    decimal: fc.oneof(edgeNumber, fc.constantFrom('0.00', '-12.5', '1e3', '12345678901234567890.123456789', 'abc')),
    bool: fc.boolean(),
    date: fc.oneof(fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)), oddString),
    datetime: fc.oneof(fc.date({ noInvalidDate: true }).map((d) => d.toISOString()), oddString),
    enum: fc.oneof(fc.constantFrom(...(def.type === 'enum' && def.values?.length ? def.values : ['x'])), oddString),
  };
  return fc.oneof({ weight: 4, arbitrary: typed[def.type] ?? oddString }, { weight: 1, arbitrary: anyJson });
}

const OPERATORS = ['_eq', '_neq', '_lt', '_lte', '_gt', '_gte', '_in', '_nin', '_like', '_ilike', '_is_null'];

function fieldsOf(entity: string): Array<[string, FieldDef]> {
  return Object.entries(ast.entities[entity].fields);
}

/** A `where` over an entity: field comparisons, _and/_or/_not, relations, and wrong shapes. */
function whereFor(entity: string): fc.Arbitrary<unknown> {
  const fields = fieldsOf(entity);
  const comparison = fc.constantFrom(...fields).chain(([name, def]) => {
    const key = def.type === 'ref' ? `${name}_id` : name;
    return fc.constantFrom(...OPERATORS).chain((op) => {
      const value = op === '_in' || op === '_nin' ? fc.array(valueFor(def), { maxLength: 5 }) : op === '_is_null' ? fc.oneof(fc.boolean(), anyJson) : valueFor(def);
      return value.map((v) => ({ [key]: { [op]: v } }));
    });
  });
  return fc.letrec((tie) => ({
    where: fc.oneof({ depthSize: 'small', withCrossShrink: true },
      comparison,
      fc.array(tie('where'), { maxLength: 3 }).map((all) => ({ _and: all })),
      fc.array(tie('where'), { maxLength: 3 }).map((any) => ({ _or: any })),
      tie('where').map((not) => ({ _not: not })),
      anyJson),
  })).where;
}

// ---- GraphQL operations -------------------------------------------------------------------

interface Operation { readonly query: string; readonly variables?: Record<string, unknown> }

const listContexts = Object.entries(ast.contexts).filter(([, c]) => c.kind === 'list');
const detailContexts = Object.entries(ast.contexts).filter(([, c]) => c.kind === 'detail');
const entities = Object.keys(ast.entities);

function selectionOf(entity: string): fc.Arbitrary<string> {
  const scalars = fieldsOf(entity).filter(([, def]) => def.type !== 'ref').map(([name]) => name);
  const refs = fieldsOf(entity).filter(([, def]) => def.type === 'ref').map(([name]) => `${name} { id }`);
  return fc.subarray([...scalars, ...refs, 'version'], { minLength: 1 }).map((picked) => picked.join(' '));
}

const listOperation: fc.Arbitrary<Operation> = fc.constantFrom(...listContexts).chain(([name, context]) => fc.record({
  selection: selectionOf(context.entity),
  where: fc.option(whereFor(context.entity)),
  order: fc.option(fc.oneof(
    fc.array(fc.constantFrom(...fieldsOf(context.entity).map(([f]) => f)).chain((f) => fc.constantFrom('asc', 'desc', 'sideways').map((d) => ({ [f]: d }))), { maxLength: 3 }),
    anyJson)),
  limit: fc.option(fc.oneof(edgeNumber, anyJson)),
  offset: fc.option(fc.oneof(edgeNumber, anyJson)),
}).map(({ selection, where, order, limit, offset }) => ({
  query: `query ($w: ${context.entity}_bool_exp, $o: [${context.entity}_order_by!], $l: Int, $f: Int) {
    ${name}(where: $w, order_by: $o, limit: $l, offset: $f) { ${selection} }
    ${name}_count(where: $w)
  }`,
  variables: { w: where, o: order, l: limit, f: offset },
})));

const detailOperation: fc.Arbitrary<Operation> = fc.constantFrom(...detailContexts).chain(([name, context]) =>
  fc.tuple(selectionOf(context.entity), fc.oneof(valueFor({ type: 'id' }), anyJson)).map(([selection, id]) => ({
    query: `query ($id: ID!) { ${name}(id: $id) { ${selection} } }`, variables: { id },
  })));

/** An object of field values for writes: known fields with typed or wrong values, and unknown keys. */
function writeObject(entity: string): fc.Arbitrary<unknown> {
  const fields = fieldsOf(entity).filter(([, def]) => def.type !== 'id');
  const known = fc.subarray(fields).chain((picked) => fc.tuple(...picked.map(([name, def]) => valueFor(def).map((v) => [def.type === 'ref' ? `${name}_id` : name, v] as const)))
    .map((pairs) => Object.fromEntries(pairs)));
  return fc.oneof({ weight: 4, arbitrary: known }, { weight: 1, arbitrary: anyJson });
}

const writeOperation: fc.Arbitrary<Operation> = fc.constantFrom(...entities).chain((entity) => fc.oneof(
  writeObject(entity).map((object) => ({ query: `mutation ($x: ${entity}_insert_input!) { insert_${entity}(object: $x) { id version } }`, variables: { x: object } })),
  fc.tuple(valueFor({ type: 'id' }), fc.oneof(edgeNumber, anyJson), writeObject(entity)).map(([id, version, set]) => ({
    query: `mutation ($id: ID!, $v: Int!, $s: ${entity}_set_input!) { update_${entity}(id: $id, version: $v, set: $s) { id version } }`, variables: { id, v: version, s: set },
  })),
  fc.tuple(valueFor({ type: 'id' }), fc.oneof(edgeNumber, anyJson)).map(([id, version]) => ({
    query: `mutation ($id: ID!, $v: Int!) { delete_${entity}(id: $id, version: $v) }`, variables: { id, v: version },
  })),
));

const junkOperation: fc.Arbitrary<Operation> = fc.oneof(
  oddString.map((query) => ({ query })),
  fc.integer({ min: 10, max: 5_000 }).map((n) => ({ query: `{ person_list ${'{ id '.repeat(n)}${'}'.repeat(n)} }` })),
  fc.integer({ min: 10, max: 3_000 }).map((n) => ({ query: `{ ${Array.from({ length: n }, (_, i) => `a${i}: person_list_count`).join(' ')} }` })),
  fc.tuple(fc.constantFrom(...listContexts.map(([n]) => n)), anyJson).map(([name, variables]) => ({ query: `{ ${name} { id } }`, variables: variables as Record<string, unknown> })),
  deepJson.map((w) => ({ query: 'query ($w: person_bool_exp) { person_list(where: $w) { id } }', variables: { w } })),
);

const anyOperation = fc.oneof(listOperation, detailOperation, writeOperation, junkOperation);

function graphqlSuite(store: string, dsn: () => Promise<string>): void {
  describe(`fuzzing the GraphQL API on ${store}`, () => {
    let backend: Backend;
    const internal: unknown[] = [];
    before(async () => {
      backend = await startBackend({ ast, dsn: await dsn(), seed: true, onInternalError: (error) => internal.push(error) });
    });
    after(async () => { await backend?.close(); });

    test(`${RUNS * 4} operations, valid-shaped and junk: every reply is data or a coded error, never an internal one`, { timeout: 900_000 }, async () => {
      const codes = new Map<string, number>();
      await fc.assert(fc.asyncProperty(anyOperation, async (operation) => {
        const result = await backend.api.run(operation);
        assert.ok(result.data !== undefined || result.errors?.length, `no data and no errors for ${operation.query.slice(0, 200)}`);
        for (const error of result.errors ?? []) {
          const code = String(error.extensions?.code);
          codes.set(code, (codes.get(code) ?? 0) + 1);
          assert.notEqual(code, 'INTERNAL_SERVER_ERROR', `${error.message} ${String(internal.at(-1)).slice(0, 300)}\n${operation.query.slice(0, 300)}\n${JSON.stringify(operation.variables)?.slice(0, 300)}`);
          assert.notEqual(code, 'undefined', `an error without a code: ${error.message}`);
        }
      }), { numRuns: RUNS * 4, seed: 4242, endOnFailure: true, reporter: shortReport });
      console.log(`${store}: error codes seen ${JSON.stringify(Object.fromEntries(codes))}`);
      assert.deepEqual(internal, []);
      assert.deepEqual(unhandled, []);
      const canary = await backend.api.run({ query: '{ person_list_count }' });
      assert.equal(typeof (canary.data as { person_list_count: number }).person_list_count, 'number');
    });
  });
}

// ---- MCP tools ----------------------------------------------------------------------------

class RandomPerson implements Confirmer, Mailer, Contacts {
  readonly sent: MailDraft[] = [];
  flip = 0;
  async confirmSave(): Promise<SaveAnswer> { return (['save', 'discard', 'timeout'] as const)[this.flip++ % 3]; }
  async confirmSend(): Promise<SendAnswer> { return (['send', 'cancel', 'timeout'] as const)[this.flip++ % 3]; }
  async send(draft: MailDraft): Promise<{ messageId: string }> {
    this.sent.push(draft);
    return { messageId: `<fuzz-${this.sent.length}@xos.example>` };
  }
  async search(query: string): Promise<Contact[]> {
    const all: Contact[] = [{ name: 'Max Mustermann', email: 'max@nordlicht.example' }, { name: 'Erika Musterfrau', email: 'erika@nordlicht.example', phone: '+4930123456' }];
    return all.filter((contact) => contact.name.toLowerCase().includes(query.toLowerCase()));
  }
}

const contextName = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...Object.keys(ast.contexts)) }, { weight: 1, arbitrary: oddString });
const queryText = fc.oneof(
  fc.constantFrom(
    '{ person_list { id firstname lastname email city age net_worth } }',
    '{ person_detail(id: "1") { id firstname lastname email phone street zip city age net_worth status birthday active notes company { id name } } }',
    'mutation { delete_person(id: "1", version: 1) }',
    '{ person_list { id firstname lastname email city age net_worth } } { person_list { id } }',
    '{ person_list @skip(if: true) { id } }',
  ),
  listOperation.map((o) => o.query), detailOperation.map((o) => o.query), junkOperation.map((o) => o.query),
);
const toolArguments: Record<string, fc.Arbitrary<unknown>> = {
  xos_schema: fc.constant({}),
  xos_query: fc.record({ context: contextName, query: queryText }),
  xos_render: fc.record({ context: contextName, json: fc.oneof(anyJson.map((v) => JSON.stringify(v)), oddString, deepJson.map((v) => JSON.stringify(v))) }),
  xos_ui_change_required: fc.record({ context: contextName, changes: fc.oneof(writeObject('person'), anyJson.map((v) => JSON.stringify(v)), deepJson) }),
  xos_ui_save: fc.constant({}),
  xos_system_status: fc.constant({}),
  xos_contacts: fc.record({ query: oddString }),
  xos_mail_compose: fc.record({ to: fc.oneof(fc.constantFrom('Max Mustermann', 'erika@nordlicht.example', 'Max', '"Evil" <a@b.example>, c@d.example'), oddString), subject: oddString, body: oddString }),
  xos_mail_send: fc.constant({}),
};
const toolCall = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...XOS_TOOL_NAMES).chain((name) => toolArguments[name].map((args) => ({ name, args }))) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...XOS_TOOL_NAMES), anyJson).map(([name, args]) => ({ name, args })) },
);

describe('fuzzing the MCP tools', () => {
  let backend: Backend;
  before(async () => { backend = await startBackend({ ast, dsn: 'sqlite::memory:', seed: true }); });
  after(async () => { await backend?.close(); });

  test(`${RUNS * 9} tool calls, valid-shaped and junk: every reply is a result or an isError result`, { timeout: 900_000 }, async () => {
    const person = new RandomPerson();
    const board = new BoardState();
    const deps = { client: embeddedClient(backend), board, confirmer: person, mailer: person, contacts: person };
    // A few sessions, so the schema rule is sometimes met and sometimes not.
    const clients: Client[] = [];
    for (let i = 0; i < 3; i++) {
      clients.push((await connectInMemory(deps, `fuzz-${i}`)).client);
    }
    await clients[0].callTool({ name: 'xos_schema', arguments: {} });
    const outcomes = { results: 0, isError: 0, invalidParams: 0 };
    await fc.assert(fc.asyncProperty(fc.integer({ min: 0, max: 2 }), toolCall, async (which, { name, args }) => {
      try {
        const result = await clients[which].callTool({ name, arguments: args as Record<string, unknown> });
        const text = (result.content as Array<{ type: string; text?: string }>).map((c) => c.text ?? '').join('');
        assert.ok(text.length > 0, `${name} answered without text`);
        if (result.isError) outcomes.isError++;
        else outcomes.results++;
        // Nothing the tools answer is unbounded, whatever they were given.
        assert.ok(text.length < 200_000, `${name} answered ${text.length} characters`);
      } catch (error) {
        // The SDK refuses arguments that do not match the tool's schema before the tool runs.
        assert.ok(error instanceof ProtocolError, `${name} threw ${String(error)}`);
        outcomes.invalidParams++;
      }
    }), { numRuns: RUNS * 9, seed: 777, endOnFailure: true, reporter: shortReport });
    console.log(`tools: ${JSON.stringify(outcomes)}, mails sent ${person.sent.length}`);
    assert.deepEqual(unhandled, []);
    assert.ok(outcomes.results > 0 && outcomes.isError > 0, 'both kinds of replies occurred');
    const status = await clients[0].callTool({ name: 'xos_system_status', arguments: {} });
    assert.notEqual(status.isError, true);
  });
});

let postgres: PostgresServer | undefined;
after(async () => { await postgres?.stop(); });
graphqlSuite('SQLite', async () => 'sqlite::memory:');
graphqlSuite('PostgreSQL', async () => {
  postgres = await startPostgres();
  return postgres.createDatabase('xos_fuzz');
});
