// The differential oracle over every channel the agent has: two XOS apps whose databases differ
// ONLY in the values the agent may not know (test/support/withheld.ts) get the same generated
// SEQUENCES of calls and of the person's actions, and every agent-visible part of every reply
// (text, structuredContent, the card's `_meta`, isError, and the messages of input_required
// rounds) must be identical once the random tokens (handles, approval ids, audit batches) are
// numbered. The calls go over stdio in both protocol eras: a 2025-11-25 client with a session
// (asked at once), a 2026-07-28 client without one (stored approvals, answered at once) and one
// that can be asked (stored approvals in rounds). Tools and paths: xos_schema, xos_query (lists,
// details, filters, sort hints), xos_render, xos_ui_change_required (one record; many by
// where/set or by ids: counts and examples), xos_ui_save (asked, stored, in rounds, by approval
// id), conflicts (someone else writes), xos_system_status, xos_mail_compose and xos_mail_send;
// the person opens records, starts new ones, edits fields (hidden and masked ones too), discards, and decides
// stored approvals on the desk.
//
//   XOS_CHANNEL_CALLS=50000 XOS_CHANNEL_SEED=7 node --test test/integration/oracle.channels.test.ts   (default 10,000 calls, fixed seed)
import { headlessApp } from '../support/headlessApp.ts';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import type { Client } from '@modelcontextprotocol/client';
import type { XosApp } from '../../src/app/xosApp.ts';
import type { Backend } from '../../src/backend/backend.ts';
import { APPROVALS_FILE, SqliteApprovalStore } from '../../src/store/approvalStore.ts';
import type { Mailer } from '../../src/core/domain.ts';
import { showRecord } from '../../src/core/show.ts';
import { agentListFields } from '../../src/ast/agentPolicy.ts';
import { listFieldSelections } from '../../src/ast/view.ts';
import { embeddedClient } from '../../src/graphql/client.ts';
import { serveMcpStdio } from '../../src/mcp/stdio.ts';
import { connectStdio, type McpConnection } from '../support/mcpClient.ts';
import { tempDir, type TempDir } from '../support/tmp.ts';
import { oracleApp, ROWS, withheldBackend } from '../support/withheld.ts';

const CALLS = Number(process.env.XOS_CHANNEL_CALLS ?? 10_000);
const SEED = Number(process.env.XOS_CHANNEL_SEED ?? 20261205);
/** Calls (of the agent and of the person) in one generated sequence. */
const SEQUENCE = 25;

const ast = oracleApp();
/** What starts every hidden note: a reply that carries it shows a hidden value. */
const WORDS = ['alpha', 'beta'] as const;

/** The names of the hidden fields (person.company's column too; deal.company is the agent's to know). */
const HIDDEN_NAMES = /\bnotes\b|\brevenue\b|\bperson\.company|\bcompany_id\b(?![^"]*deal)/;

type ClientName = 'legacy' | 'modern' | 'asking';
const CLIENTS: readonly ClientName[] = ['legacy', 'modern', 'asking'];

/** How the person answers: a question asked at once (legacy), and an input_required round (asking). */
interface Plan {
  ask: 'yes' | 'no';
  round: 'wait' | 'approve' | 'decline';
}

interface Side {
  readonly word: string;
  readonly backend: Backend;
  readonly app: XosApp;
  readonly dir: TempDir;
  readonly clients: Record<ClientName, McpConnection>;
  readonly handles: Partial<Record<ClientName, string>>;
  readonly plan: Plan;
  /** The messages of the rounds of the call under way. */
  rounds: string[];
  /** The approval ids the side's agent was told, newest last. */
  readonly approvals: string[];
  /** Random tokens numbered in the order they appear, so both sides' replies compare. */
  readonly tokens: Map<string, string>;
  sent: number;
}

/** The clock of both apps: stored approvals expire by it, and their replies name it. */
let now = Date.parse('2026-12-05T12:00:00.000Z');

async function side(seed: number, word: string): Promise<Side> {
  const backend = await withheldBackend(ast, seed, word);
  // Without the change feed: a live Board takes others' writes in on a timer, which would make
  // the two apps' Boards differ by timing, not by data. Others' writes meet the save as conflicts.
  const { feed: _feed, ...client } = embeddedClient(backend);
  const dir = await tempDir(`oracle-channels-${word}`);
  const plan: Plan = { ask: 'yes', round: 'wait' };
  const self = { sent: 0 } as Side;
  const mailer: Mailer = { send: async () => ({ messageId: `<${++self.sent}@oracle.xos>` }) };
  const app = headlessApp({
    client,
    mailer,
    boardUrl: false,
    ask: async ({ buttons }) => (plan.ask === 'yes' ? buttons[0] : buttons[1]),
    storedApprovals: {
      store: new SqliteApprovalStore(join(dir.path, APPROVALS_FILE)),
      backend: () => 'sqlite::memory:',
      person: () => 'anna',
      warn: (text) => assert.fail(text),
      now: () => now,
    },
  });
  const serve = () => (streams: Parameters<typeof serveMcpStdio>[2]) => serveMcpStdio(() => app.deps(), (line) => assert.fail(line), streams);
  const asking = (client: Client) => {
    client.registerCapabilities({ elicitation: { form: {} } });
    client.setRequestHandler('elicitation/create', async (request) => {
      const message = String(request.params.message);
      self.rounds.push(message);
      if (plan.round === 'wait') return { action: 'decline' };
      const id = /approval: "([^"]+)"/.exec(message)?.[1];
      assert.ok(id, message);
      await app.approvalDesk!.decide(id, plan.round === 'approve' ? 'approve' : 'decline');
      return { action: 'accept' };
    });
  };
  const clients: Record<ClientName, McpConnection> = {
    legacy: await connectStdio(serve(), 'legacy', 'oracle-legacy'),
    modern: await connectStdio(serve(), 'modern', 'oracle-modern'),
    asking: await connectStdio(serve(), 'modern', 'oracle-asking', asking),
  };
  return Object.assign(self, { word, backend, app, dir, clients, handles: {}, plan, rounds: [], approvals: [], tokens: new Map() });
}

/** Handles, approval ids and audit batches are random, answer times vary: numbered (times left out) in the order they appear. */
function normalised(s: Side, text: string): string {
  const number = (kind: string) => (token: string) => {
    if (!s.tokens.has(token)) s.tokens.set(token, `<${kind} ${s.tokens.size + 1}>`);
    return s.tokens.get(token)!;
  };
  return text
    // The data source's answer time is the clock's, not the data's.
    .replace(/(?<=latency_ms\\?":)[\d.]+/g, '<ms>')
    // …and so are the times a mail went out (no withheld field is a time).
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/g, '<time>')
    // A handle is signed with its expiry in seconds: two minted in one second are equal, so which
    // handles are equal is the clock's doing, not the data's.
    .replace(/xos_h_[A-Za-z0-9_.~-]+/g, '<handle>')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, number('batch'))
    .replace(/(?<=approval(?: id)?:? \\?")[A-Za-z0-9_-]{16,64}(?=\\?")/gi, number('approval'));
}

// ---- the generated actions ---------------------------------------------------------------

type Action =
  | { readonly kind: 'call'; readonly client: ClientName; readonly tool: string; readonly args: Record<string, unknown>; readonly plan?: Plan }
  | { readonly kind: 'approval'; readonly client: ClientName; readonly which: 'last' | 'bogus' }
  | { readonly kind: 'open'; readonly id: number }
  /** The person starts a new person on the Board and fills in its name (the agent's save then creates it). */
  | { readonly kind: 'new' }
  | { readonly kind: 'edit'; readonly field: string; readonly value: unknown }
  | { readonly kind: 'discard' }
  | { readonly kind: 'decide'; readonly decision: 'approve' | 'decline' }
  | { readonly kind: 'elsewhere'; readonly id: number; readonly set: Record<string, unknown> }
  | { readonly kind: 'tick' };

const clientName = fc.constantFrom(...CLIENTS);
const personId = fc.integer({ min: 1, max: 12 });
const selection = (context: string) => listFieldSelections(ast, context, agentListFields(ast, context)).join(' ');
/** Filters and sorts over what the agent sees, and some over what it does not (refused like unknown names). */
const personWhere = fc.constantFrom(
  '{ city: { _eq: "Berlin" } }', '{ age: { _gt: 40 } }', '{ id: { _lte: 6 } }', '{ status: { _eq: customer } }', '{ lastname: { _ilike: "%er%" } }',
  '{ net_worth: { _gt: "500000" } }', '{ notes: { _ilike: "%alpha%" } }', '{ company_id: { _eq: 1 } }',
);
const order = fc.constantFrom('', 'order_by: [{ lastname: asc }]', 'order_by: [{ age: desc }, { id: asc }]', 'order_by: [{ city: desc }]', 'order_by: [{ net_worth: desc }]');
const query: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.tuple(personWhere, order, fc.integer({ min: 1, max: 30 })).map(([where, by, limit]) => ({
    context: 'person_list', query: `{ person_list(where: ${where}, ${by} limit: ${limit}) { ${selection('person_list')} } }`,
  })),
  fc.tuple(order.map((o) => o.replace('lastname', 'name').replace('age', 'employee_count').replace('net_worth', 'revenue')), fc.integer({ min: 1, max: 30 })).map(([by, limit]) => ({
    context: 'company_list', query: `{ company_list(${by} limit: ${limit}) { ${selection('company_list')} } }`,
  })),
  fc.constantFrom('', 'order_by: [{ amount: desc }]', 'order_by: [{ probability: asc }]', 'where: { stage: { _neq: "won" } }').map((args) => ({
    context: 'deal_list', query: `{ deal_list(${args} limit: 10) { ${selection('deal_list')} } }`,
  })),
  personId.map((id) => ({ context: 'person_detail', query: `{ person_detail(id: "${id}") { ${selection('person_detail')} } }` })),
  fc.integer({ min: 1, max: ROWS.company }).map((id) => ({ context: 'company_detail', query: `{ company_detail(id: "${id}") { ${selection('company_detail')} } }` })),
);
const render: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.constantFrom(
    [{ id: 1, firstname: 'Ada', lastname: 'Lovelace', city: 'London' }],
    [{ id: 2, firstname: 'Grace', net_worth: '12.00' }],
    [{ id: 3, notes: 'a note' }],
  ).map((rows) => ({ context: 'person_list', json: JSON.stringify(rows) })),
  personId.map((id) => ({ context: 'person_detail', json: JSON.stringify({ id, firstname: 'Ada', lastname: `L${id}`, city: 'Kiel' }) })),
);
const single = fc.constantFrom<Record<string, unknown>>(
  { city: 'Kiel' }, { lastname: 'Brandt', age: 41 }, { status: 'customer' }, { age: 200 }, { net_worth: '5.00' }, { notes: 'by the agent' }, { company: '3' }, {},
).map((changes) => ({ context: 'person_detail', changes }));
const bulk = fc.oneof(
  fc.tuple(personWhere, fc.constantFrom<Record<string, unknown>>({ city: 'Zwickau' }, { status: 'lead' }, { age: { _add: 1 } }, { net_worth: { _mul: 1.05 } }, { notes: 'bulk' }))
    .map(([where, set]) => ({ context: 'person_list', changes: { where: JSON.parse(where.replace(/(\w+):/g, '"$1":').replace(/: customer/, ': "customer"')), set } })),
  fc.array(fc.tuple(personId, fc.constantFrom('Aue', 'Gera', 'Hof')), { minLength: 1, maxLength: 4 })
    .map((rows) => ({ context: 'person_list', changes: rows.map(([id, city]) => ({ id: String(id), city })) })),
);
const plan: fc.Arbitrary<Plan> = fc.record({ ask: fc.constantFrom('yes', 'no'), round: fc.constantFrom('wait', 'approve', 'decline') });
const call = (tool: string, args: fc.Arbitrary<Record<string, unknown>>) =>
  fc.tuple(clientName, args, plan).map(([client, a, p]): Action => ({ kind: 'call', client, tool, args: a, plan: p }));

const action: fc.Arbitrary<Action> = fc.oneof(
  { weight: 2, arbitrary: call('xos_schema', fc.constant({})) },
  { weight: 6, arbitrary: call('xos_query', query) },
  { weight: 2, arbitrary: call('xos_render', render) },
  { weight: 5, arbitrary: call('xos_ui_change_required', single) },
  { weight: 3, arbitrary: call('xos_ui_change_required', bulk) },
  { weight: 6, arbitrary: call('xos_ui_save', fc.constant({})) },
  { weight: 2, arbitrary: fc.tuple(clientName, fc.constantFrom('last', 'bogus')).map(([client, which]): Action => ({ kind: 'approval', client, which: which as 'last' | 'bogus' })) },
  { weight: 1, arbitrary: call('xos_system_status', fc.constant({})) },
  { weight: 1, arbitrary: call('xos_mail_compose', fc.constantFrom({ to: 'kim@example.org', subject: 'Your order', body: 'Hello Kim' })) },
  { weight: 1, arbitrary: call('xos_mail_send', fc.constant({})) },
  { weight: 4, arbitrary: personId.map((id): Action => ({ kind: 'open', id })) },
  { weight: 1, arbitrary: fc.constant<Action>({ kind: 'new' }) },
  {
    weight: 4,
    arbitrary: fc.constantFrom<[string, unknown]>(['net_worth', '987654.32'], ['notes', 'by the person'], ['phone', '+49 40 1234'], ['city', 'Emden'], ['age', 33], ['company', '9999'])
      .map(([field, value]): Action => ({ kind: 'edit', field, value })),
  },
  { weight: 1, arbitrary: fc.constant<Action>({ kind: 'discard' }) },
  { weight: 2, arbitrary: fc.constantFrom('approve', 'decline').map((decision): Action => ({ kind: 'decide', decision: decision as 'approve' | 'decline' })) },
  {
    weight: 2,
    arbitrary: fc.tuple(personId, fc.constantFrom<Record<string, unknown>>({ city: 'Jena' }, { lastname: 'Other' }, { notes: 'someone else' }, { net_worth: '1.00' }))
      .map(([id, set]): Action => ({ kind: 'elsewhere', id, set })),
  },
  { weight: 1, arbitrary: fc.constant<Action>({ kind: 'tick' }) },
);

/** Does one action on one side; the agent-visible reply, or '' for the person's actions. */
async function perform(s: Side, a: Action): Promise<string> {
  const { app } = s;
  switch (a.kind) {
    case 'call':
    case 'approval': {
      const connection = s.clients[a.client];
      const handle = s.handles[a.client];
      const args: Record<string, unknown> = a.kind === 'call' ? { ...a.args } : { approval: a.which === 'last' ? s.approvals.at(-1) ?? 'none-yet' : 'AAAAAAAAAAAAAAAAAAAAAA' };
      const tool = a.kind === 'call' ? a.tool : 'xos_ui_save';
      if (handle && tool !== 'xos_schema') args.handle = handle;
      if (a.kind === 'call' && a.plan) Object.assign(s.plan, a.plan);
      s.rounds = [];
      const result = await connection.client.callTool({ name: tool, arguments: args });
      const text = (result.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('');
      if (tool === 'xos_schema' && !result.isError) s.handles[a.client] = (JSON.parse(text) as { handle: string }).handle;
      for (const id of [...text.matchAll(/approval(?: id)?:? "([A-Za-z0-9_-]{16,64})"/gi)].map((m) => m[1])) if (!s.approvals.includes(id)) s.approvals.push(id);
      return normalised(s, JSON.stringify({ result, rounds: s.rounds }));
    }
    case 'open': {
      const shown = await showRecord(app.deps(), 'person_detail', String(a.id));
      return shown.ok ? '' : shown.kind;
    }
    case 'new':
      app.state.showNew('person_detail');
      app.state.edit('firstname', 'Nova');
      app.state.edit('lastname', 'Neu');
      return '';
    case 'edit':
      try {
        app.state.edit(a.field, a.value);
        return '';
      } catch (error) {
        return String(error); // no record loaded
      }
    case 'discard':
      app.state.discard();
      return '';
    case 'decide': {
      const [oldest] = await app.approvalDesk!.pending();
      if (oldest) await app.approvalDesk!.decide(oldest.id, a.decision);
      return '';
    }
    case 'elsewhere': {
      const current = await s.backend.api.run({ query: `{ person_detail(id: "${a.id}") { version } }` });
      const version = (current.data as { person_detail: { version: number } }).person_detail.version;
      const result = await s.backend.api.run({
        query: 'mutation($id: ID!, $v: Int!, $set: person_set_input!) { update_person(id: $id, version: $v, set: $set) { version } }',
        variables: { id: String(a.id), v: version, set: a.set },
      });
      return result.errors ? JSON.stringify(result.errors) : '';
    }
    case 'tick':
      now += 5 * 60_000;
      return '';
  }
}

/**
 * An approval decided on the desk shows the saved record on the Board a moment later (XosApp's
 * approvedOnBoard, not awaited by the decision): its reads are in-process, so a few turns of the
 * event loop see it done before the next action.
 */
async function settled(): Promise<void> {
  for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
}

describe('no channel to the agent is an oracle for withheld values', () => {
  let a: Side;
  let b: Side;
  let calls = 0;

  /** One action on both sides: the agent-visible replies must be the same, and carry no hidden note. */
  async function both(action: Action): Promise<string> {
    const left = await perform(a, action).finally(settled);
    const right = await perform(b, action).finally(settled);
    // Approvals made by one action are older than the next one's: the desk lists them in that order on both sides.
    now += 1;
    if (action.kind === 'call' || action.kind === 'approval') calls++;
    if (left !== right) assert.fail(`the replies differ for ${JSON.stringify(action)}\nA: ${left.slice(0, 1500)}\nB: ${right.slice(0, 1500)}`);
    for (const word of WORDS) assert.doesNotMatch(left, new RegExp(`${word}-\\d`), `a hidden note reached the agent: ${JSON.stringify(action)}\n${left.slice(0, 1500)}`);
    // A refusal may echo a name the agent sent itself (refused as unknown names are).
    const echoes = action.kind === 'call' && HIDDEN_NAMES.test(JSON.stringify(action.args));
    if (!echoes) assert.doesNotMatch(left, HIDDEN_NAMES, `a hidden field was named to the agent: ${JSON.stringify(action)}\n${left.slice(0, 1500)}`);
    return left;
  }

  before(async () => {
    [a, b] = await Promise.all([side(1, WORDS[0]), side(2, WORDS[1])]);
  });
  after(async () => {
    for (const s of [a, b]) {
      if (!s) continue;
      for (const connection of Object.values(s.clients)) await connection.close();
      s.app.dispose();
      await s.backend.close();
      await s.dir.remove();
    }
  });

  test('a stored approval tells the agent what waits in its own words: masked values as •••, hidden fields only counted (regression)', async () => {
    for (const client of ['modern', 'asking'] as const) {
      await both({ kind: 'call', client, tool: 'xos_schema', args: {} });
      await both({ kind: 'open', id: 5 });
      await both({ kind: 'edit', field: 'city', value: 'Emden' });
      await both({ kind: 'edit', field: 'net_worth', value: '987654.32' });
      await both({ kind: 'edit', field: 'notes', value: 'by the person' });
      const reply = await both({ kind: 'call', client, tool: 'xos_ui_save', args: {}, plan: { ask: 'no', round: 'wait' } });
      const said = JSON.parse(reply) as { result: { content: Array<{ text: string }> }; rounds: string[] };
      const text = said.result.content[0].text;
      if (client === 'modern') {
        assert.match(text, /^Nothing is written yet\. Waiting for the person's decision on: save changes to person "5" \(city: "[^"]+" -> "Emden"; net_worth: ••• -> •••; and 1 field only the person sees\)\.\n/);
      } else {
        assert.equal(said.rounds.length, 1);
        assert.match(said.rounds[0], /on: save changes to person "5" \(city: "[^"]+" -> "Emden"; net_worth: ••• -> •••; and 1 field only the person sees\)\.\n/);
      }
      for (const words of [text, ...said.rounds]) {
        assert.doesNotMatch(words, /987654|notes|Notizen|Vermögen|by the person|Notes|Net worth/);
      }
      await both({ kind: 'decide', decision: 'decline' });
      await both({ kind: 'discard' });
    }
  });

  test('a stored write the server refuses is worded without the hidden field it concerns (regression)', async () => {
    await both({ kind: 'call', client: 'modern', tool: 'xos_schema', args: {} });
    await both({ kind: 'open', id: 3 });
    await both({ kind: 'edit', field: 'company', value: '9999' });
    const asked = await both({ kind: 'call', client: 'modern', tool: 'xos_ui_save', args: {} });
    assert.match(asked, /and 1 field only the person sees/);
    await both({ kind: 'decide', decision: 'approve' });
    const told = await both({ kind: 'approval', client: 'modern', which: 'last' });
    assert.match(told, /The person approved, but it was not carried out/);
    assert.doesNotMatch(told, /company|9999|Did you mean/);
    await both({ kind: 'discard' });
  });

  /** Paths the generated calls must reach for the comparison to mean something. */
  const PATHS: Readonly<Record<string, RegExp>> = {
    'stored save': /Waiting for the person's decision on: save changes to person/,
    'stored create': /Waiting for the person's decision on: create a new person/,
    'stored bulk save': /decision on: save changes to [\d,]+ person records/,
    'stored mail': /decision on: send the mail/,
    'a round with the person': /XOS waits for your decision/,
    'approved': /The person approved \(approval/,
    'declined': /The person declined \(approval/,
    'asked at once and saved': /"text":"Saved person \d+/,
    'a bulk review': /Review on the Board, nothing saved yet: [\d,]+ person records/,
    'a conflict': /changed by someone else|record was changed after your request/,
    'a card': /"xos\/card"/,
    'a hidden field only counted': /field only the person sees|fields only the person see/,
  };

  test(`${CALLS} generated calls over every tool, era and path get the same replies from both apps`, async () => {
    const started = Date.now();
    const before = calls;
    const sequences = fc.array(action, { minLength: SEQUENCE, maxLength: SEQUENCE });
    let runs = 0;
    const reached = new Set<string>();
    await fc.assert(fc.asyncProperty(sequences, async (actions) => {
      runs++;
      for (const step of actions) {
        const reply = await both(step);
        for (const [path, pattern] of Object.entries(PATHS)) if (pattern.test(reply)) reached.add(path);
      }
    }), { numRuns: Math.ceil(CALLS / (SEQUENCE * 0.6)), seed: SEED, endOnFailure: true });
    const made = calls - before;
    assert.ok(made >= CALLS, `only ${made} calls in ${runs} sequences`);
    assert.deepEqual(Object.keys(PATHS).filter((path) => !reached.has(path)), [], 'paths the calls never reached');
    console.log(`oracle channels: ${made} calls in ${runs} sequences of ${SEQUENCE} actions, ${Date.now() - started} ms`);
  });
});
