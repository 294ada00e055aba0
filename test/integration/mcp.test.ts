// The XOS MCP server end to end: the SDK client over Streamable HTTP against
// the real loopback endpoint, a real backend (SQLite in memory, demo data),
// the real Board state and a scripted person answering the confirmations.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { until } from '../support/until.ts';
import { testClock } from '../support/clock.ts';
import { request } from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { embeddedClient } from '../../src/graphql/client.ts';
import { appModel } from '../../src/ast/appModel.ts';
import { BoardState } from '../../src/board/state.ts';
import { MemoryListSource } from '../../src/core/listSource.ts';
import { startMcpHttpServer, type McpHttpServer } from '../../src/mcp/http.ts';
import type { XosDeps } from '../../src/mcp/ports.ts';
import type { Confirmer, Contact, MailDraft, SaveAnswer, SaveSummary, SendAnswer } from '../../src/core/domain.ts';

const TOKEN = 'mcp-test-token-0123456789';
const DETAIL_FIELDS = 'id firstname lastname email phone street zip city age net_worth status birthday active notes company { id name }';
const LIST_QUERY = '{ person_list { id firstname lastname email city age net_worth } }';
const detailQuery = (id: number) => `{ person_detail(id: "${id}") { ${DETAIL_FIELDS} } }`;

/** A person who answers each save question as the current test scripts it. */
class ScriptedConfirmer implements Confirmer {
  asked: SaveSummary[] = [];
  answer: (summary: SaveSummary, signal: AbortSignal) => Promise<SaveAnswer> = async () => 'save';
  async confirmSave(summary: SaveSummary, signal: AbortSignal): Promise<SaveAnswer> {
    this.asked.push(structuredClone(summary));
    return this.answer(summary, signal);
  }
  sendAnswer: SendAnswer = 'cancel';
  async confirmSend(): Promise<SendAnswer> {
    return this.sendAnswer;
  }
}

interface Reply { text: string; isError: boolean }

async function connect(url: string): Promise<{ call(name: string, args?: Record<string, unknown>): Promise<Reply>; client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: 'xos-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } });
  await client.connect(transport);
  return {
    client,
    transport,
    async call(name, args = {}) {
      const result = await client.callTool({ name, arguments: args });
      const content = result.content as Array<{ type: string; text: string }>;
      return { text: content.map((c) => c.text).join(''), isError: result.isError === true };
    },
  };
}

async function stored(backend: Backend, id: number): Promise<Record<string, any>> {
  const result = await backend.api.run({ query: `{ person_detail(id: "${id}") { ${DETAIL_FIELDS} version } }` });
  assert.equal(result.errors, undefined);
  // graphql-js builds null-prototype objects; compare plain JSON as a client would see it.
  return JSON.parse(JSON.stringify((result.data as Record<string, any>).person_detail));
}

/** A raw initialize request, to see what the gate answers. */
function rawInitialize(url: string, headers: Record<string, string>): Promise<number> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('XOS MCP server', () => {
  let backend: Backend;
  let board: BoardState;
  let confirmer: ScriptedConfirmer;
  let server: McpHttpServer;

  before(async () => {
    backend = await startBackend({ ast: demoApp(), dsn: 'sqlite::memory:', seed: true });
    board = new BoardState();
    confirmer = new ScriptedConfirmer();
    const deps: XosDeps = { client: embeddedClient(backend), board, confirmer };
    server = await startMcpHttpServer(deps, { token: TOKEN });
  });
  after(async () => {
    await server?.close();
    await backend?.close();
  });

  /** A session with the schema loaded and person `id` on the Board. */
  async function withDetail(id: number) {
    const session = await connect(server.url);
    assert.equal((await session.call('xos_schema')).isError, false);
    const loaded = await session.call('xos_query', { context: 'person_detail', query: detailQuery(id) });
    assert.deepEqual(loaded, { text: 'All data was successfully displayed in the UI. (1 record of person_detail.)', isError: false });
    confirmer.asked = [];
    return session;
  }

  test('offers exactly the nine tools with their annotations', async () => {
    const { client } = await connect(server.url);
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => [t.name, t.annotations?.readOnlyHint, t.annotations?.destructiveHint]), [
      ['xos_schema', true, undefined],
      ['xos_query', true, undefined],
      ['xos_render', true, undefined],
      ['xos_ui_change_required', true, undefined],
      ['xos_ui_save', false, true],
      ['xos_system_status', true, undefined],
      ['xos_contacts', true, undefined],
      ['xos_mail_compose', true, undefined],
      ['xos_mail_send', false, true],
    ]);
    const query = tools.find((t) => t.name === 'xos_query')!;
    assert.deepEqual(Object.keys(query.inputSchema.properties ?? {}), ['context', 'query', 'handle']);
    assert.deepEqual(query.inputSchema.required, ['context', 'query']);
    assert.match(query.description!, /call xos_schema first/);
    assert.match(tools[0].description!, /never print the schema/);
    assert.match(tools[4].description!, /only after the person explicitly said they want to save/);
  });

  test('the seed workflow: schema, list, one record, preview, save', async () => {
    const { call } = await connect(server.url);
    const schema = await call('xos_schema');
    assert.equal(schema.isError, false);
    const view = JSON.parse(schema.text);
    assert.deepEqual(view.contexts.person_list.list_fields, ['id', 'firstname', 'lastname', 'email', 'city', 'age', 'net_worth']);
    assert.equal(view.app, 'crm');
    assert.equal(view.label, 'XOS CRM', 'the app\'s name as the Board and the start lines say it');

    assert.deepEqual(await call('xos_query', { context: 'person_list', query: LIST_QUERY }),
      { text: 'All data was successfully displayed in the UI. (240 records of person_list.)', isError: false });
    assert.equal(board.snapshot().context, 'person_list');
    assert.equal(board.list()?.source.total, 240);
    assert.equal(board.shownRecords().length, 200, 'the first window; the rest is served as the person scrolls');
    assert.deepEqual(board.shownRecords()[0], { id: '1', firstname: 'Max', lastname: 'Mustermann', email: 'max.mustermann@nordlicht-software.example', city: 'Berlin', age: 40, net_worth: '125000.00' });

    assert.deepEqual(await call('xos_query', { context: 'person_detail', query: detailQuery(1) }),
      { text: 'All data was successfully displayed in the UI. (1 record of person_detail.)', isError: false });
    assert.equal(board.snapshot().detail?.version, 1);
    const before = await stored(backend, 1);

    assert.deepEqual(await call('xos_ui_change_required', { context: 'person_detail', changes: { lastname: 'Schmidt', age: 35 } }), {
      text: 'Preview on the Board, nothing saved yet. Pending changes of person 1: lastname: "Mustermann" -> "Schmidt"; age: 40 -> 35. Ask the person whether to save; call xos_ui_save only after they said so.',
      isError: false,
    });
    assert.deepEqual(board.snapshot().pending, { lastname: 'Schmidt', age: 35 });
    assert.deepEqual(await stored(backend, 1), before, 'a preview writes nothing');

    confirmer.answer = async () => 'save';
    assert.deepEqual(await call('xos_ui_save'), { text: 'Saved person 1 "Max Schmidt" (version 1 -> 2). Stored: lastname: "Schmidt"; age: 35.', isError: false });
    assert.deepEqual(confirmer.asked, [{ entity: 'person', id: '1', name: 'Max Mustermann', changes: [
      { field: 'lastname', label: 'Nachname', from: 'Mustermann', to: 'Schmidt' },
      { field: 'age', label: 'Alter', from: 40, to: 35 },
    ] }]);
    assert.deepEqual(await stored(backend, 1), { ...before, lastname: 'Schmidt', age: 35, version: 2 });
    assert.equal(board.snapshot().detail?.version, 2);
    assert.deepEqual(board.snapshot().pending, {});
  });

  test('the person\'s own edits are saved together with the preview', async () => {
    const { call } = await withDetail(6);
    const before = await stored(backend, 6);
    board.edit('city', 'Köln');
    await call('xos_ui_change_required', { context: 'person_detail', changes: '{"age": 30}' });
    const reply = await call('xos_ui_save');
    assert.deepEqual(reply, { text: 'Saved person 6 "Hannah Schmitz" (version 1 -> 2). Stored: city: "Köln"; age: 30.', isError: false });
    assert.deepEqual(confirmer.asked[0].changes.map((c) => [c.field, c.from, c.to]), [['city', before.city, 'Köln'], ['age', before.age, 30]]);
    assert.deepEqual(await stored(backend, 6), { ...before, city: 'Köln', age: 30, version: 2 });
  });

  test('xos_query before xos_schema is refused, again in every new session', async () => {
    const expected = { text: 'Call xos_schema first: xos_query needs the schema loaded in this session (contexts, list_fields, prompts). Then call xos_query again.', isError: true };
    const first = await connect(server.url);
    assert.deepEqual(await first.call('xos_query', { context: 'person_list', query: LIST_QUERY }), expected);
    await first.call('xos_schema');
    assert.equal((await first.call('xos_query', { context: 'person_list', query: LIST_QUERY })).isError, false);
    const second = await connect(server.url);
    assert.deepEqual(await second.call('xos_query', { context: 'person_list', query: LIST_QUERY }), expected);
  });

  test('wrong list_fields name the missing and the extra fields', async () => {
    const { call } = await connect(server.url);
    await call('xos_schema');
    board.showList({ context: 'company_list', source: new MemoryListSource(appModel(demoApp(), 'en').context('company_list')!, []) });
    assert.deepEqual(await call('xos_query', { context: 'person_list', query: '{ person_list { id firstname lastname phone } }' }), {
      text: 'Select exactly the list_fields of person_list (id, firstname, lastname, email, city, age, net_worth); missing: email, city, age, net_worth; not in list_fields: phone. For example: { person_list { id firstname lastname email city age net_worth } } Then call xos_query again.',
      isError: true,
    });
    assert.equal(board.snapshot().context, 'company_list', 'a refused query shows nothing');
  });

  test('a mutation in xos_query is refused and writes nothing', async () => {
    const { call } = await connect(server.url);
    await call('xos_schema');
    assert.deepEqual(await call('xos_query', { context: 'person_list', query: 'mutation { update_person(id: "7", version: 1, set: { age: 1 }) { id } }' }), {
      text: 'xos_query only reads data: a mutation is not allowed. Changes go through xos_ui_change_required and xos_ui_save. Then call xos_query again.',
      isError: true,
    });
    assert.equal((await stored(backend, 7)).version, 1);
  });

  test('a GraphQL error comes back with the server\'s message', async () => {
    const { call } = await connect(server.url);
    await call('xos_schema');
    const reply = await call('xos_query', { context: 'person_list', query: '{ person_list(limit: "x") { id firstname lastname email city age net_worth } }' });
    assert.equal(reply.isError, true);
    assert.equal(reply.text, 'The XOS server refused the query: Int cannot represent non-integer value: "x" Fix the query and call xos_query again.');
  });

  test('a change preview needs a loaded record of that context', async () => {
    const { call } = await connect(server.url);
    await call('xos_schema');
    await call('xos_query', { context: 'person_list', query: LIST_QUERY });
    assert.deepEqual(await call('xos_ui_change_required', { context: 'person_detail', changes: { lastname: 'Schmidt' } }), {
      text: 'The Board shows person_list, not a loaded record of person_detail. Load the record first with xos_query (context person_detail) with a query like '
        + '{ person_detail(id: "1") { id firstname lastname email phone street zip city age net_worth status birthday active notes company { id name } } }, then propose the changes again.',
      isError: true,
    });
    assert.deepEqual(board.snapshot().pending, {});
  });

  test('a change of a non-editable field or to an invalid value is refused', async () => {
    const { call } = await withDetail(2);
    assert.deepEqual(await call('xos_ui_change_required', { context: 'person_detail', changes: { id: 99, lastname: 'X' } }), {
      text: 'Not editable in person_detail: id. Nothing was previewed. Editable fields: firstname, lastname, email, phone, street, zip, city, age, net_worth, status, birthday, active, notes, company.',
      isError: true,
    });
    assert.deepEqual(await call('xos_ui_change_required', { context: 'person_detail', changes: { age: 200 } }), {
      text: 'Nothing was previewed: person.age: must be at most 150 (got 200). Send valid values.',
      isError: true,
    });
    assert.deepEqual(board.snapshot().pending, {});
  });

  test('a ref change is asked about with the related records\' names', async () => {
    const { call } = await withDetail(4);
    const before = await stored(backend, 4);
    const other = String(Number(before.company.id) === 1 ? 2 : 1);
    const otherName = ((await backend.api.run({ query: `{ company_detail(id: "${other}") { name } }` })).data as { company_detail: { name: string } }).company_detail.name;
    await call('xos_ui_change_required', { context: 'person_detail', changes: { company: other } });
    confirmer.answer = async () => 'discard';
    await call('xos_ui_save');
    const [change] = confirmer.asked.at(-1)!.changes;
    assert.deepEqual(change, { field: 'company', label: 'Firma', from: Number(before.company.id), to: Number(other), fromText: before.company.name, toText: otherName });
  });

  test('a declined save writes nothing', async () => {
    const { call } = await withDetail(3);
    const before = await stored(backend, 3);
    await call('xos_ui_change_required', { context: 'person_detail', changes: { city: 'Bremen' } });
    confirmer.answer = async () => 'discard';
    assert.deepEqual(await call('xos_ui_save'), { text: 'Not saved: the person chose Discard. Nothing was written; the preview stays on the Board.', isError: true });
    assert.equal(confirmer.asked.length, 1);
    assert.deepEqual(await stored(backend, 3), before);
    assert.deepEqual(board.snapshot().pending, { city: 'Bremen' });
  });

  test('a save whose form changed while the person was asked writes nothing', async () => {
    const { call } = await withDetail(4);
    const before = await stored(backend, 4);
    await call('xos_ui_change_required', { context: 'person_detail', changes: { city: 'Bremen' } });
    let aborted = false;
    confirmer.answer = async (_summary, signal) => {
      board.edit('zip', '28195');
      aborted = signal.aborted;
      return 'save';
    };
    assert.deepEqual(await call('xos_ui_save'), {
      text: 'Not saved: the form changed while the person was asked, so that approval no longer matches what would be written. Nothing was written. Check the Board and call xos_ui_save again when the person wants to save.',
      isError: true,
    });
    assert.equal(aborted, true, 'the open question is aborted');
    assert.deepEqual(await stored(backend, 4), before);
  });

  test('a stale version is reported as a conflict and writes nothing', async () => {
    const { call } = await withDetail(5);
    const other = await backend.api.run({ query: 'mutation { update_person(id: "5", version: 1, set: { notes: "changed elsewhere" }) { version } }' });
    assert.deepEqual(JSON.parse(JSON.stringify(other.data)), { update_person: { version: 2 } });
    const between = await stored(backend, 5);
    await call('xos_ui_change_required', { context: 'person_detail', changes: { city: 'Bremen' } });
    confirmer.answer = async () => 'save';
    assert.deepEqual(await call('xos_ui_save'), {
      text: 'Not saved: person 5 was changed by someone else after it was loaded (version 1 -> 2); nothing was written, and the pending changes are kept on the Board. '
        + 'The other change touched other fields; the Board now shows it under the pending changes. Call xos_ui_save again to store them against version 2 (the person is asked again).',
      isError: true,
    });
    assert.deepEqual(await stored(backend, 5), between);
    assert.equal(board.snapshot().detail?.version, 2);
    assert.equal(board.snapshot().detail?.record.notes, 'changed elsewhere');
    // Nothing pending was lost: saving again stores the proposal over the other change.
    assert.deepEqual(board.snapshot().pending, { city: 'Bremen' });
    assert.match((await call('xos_ui_save')).text, /^Saved person 5 "Renate Werner" \(version 2 -> 3\)/);
    const after = await stored(backend, 5);
    assert.equal(after.city, 'Bremen');
    assert.equal(after.notes, 'changed elsewhere');
  });

  test('a conflict on the same field is shown side by side; the person keeps one value per field and saves against the new version', async () => {
    const { call } = await withDetail(21);
    const loaded = board.snapshot().detail!.record;
    await backend.api.run({ query: 'mutation { update_person(id: "21", version: 1, set: { city: "Theirstadt", notes: "theirs" }) { version } }' });
    await call('xos_ui_change_required', { context: 'person_detail', changes: { city: 'Minestadt', zip: '20095' } });
    confirmer.answer = async () => 'save';
    const reply = await call('xos_ui_save');
    assert.equal(reply.isError, true);
    assert.equal(reply.text, 'Not saved: person 21 was changed by someone else after it was loaded (version 1 -> 2); nothing was written, and the pending changes are kept on the Board. '
      + `Both changed city: loaded ${JSON.stringify(loaded.city)}, stored now "Theirstadt", pending "Minestadt". The Board shows these side by side; the person keeps one value per field, then save again with xos_ui_save.`);
    assert.deepEqual(board.snapshot().conflicts, { city: { base: loaded.city, theirs: 'Theirstadt' } });
    assert.deepEqual(board.snapshot().pending, { city: 'Minestadt', zip: '20095' });

    // Until the person chose, saving again is refused and writes nothing.
    assert.deepEqual(await call('xos_ui_save'), {
      text: 'Not saved: a field conflicts with the version someone else stored (city). Nothing was written. The person chooses per field on the Board which value to keep; then save again.',
      isError: true,
    });
    assert.equal((await stored(backend, 21)).version, 2);

    board.settle('city', 'theirs');
    assert.deepEqual(board.snapshot().conflicts, {});
    assert.match((await call('xos_ui_save')).text, /^Saved person 21 "Simon Taylor" \(version 2 -> 3\)/);
    const after = await stored(backend, 21);
    assert.deepEqual([after.city, after.zip, after.notes], ['Theirstadt', '20095', 'theirs']);
  });

  test('keeping mine after a conflict stores my value over theirs, only after the person chose it', async () => {
    const { call } = await withDetail(22);
    await backend.api.run({ query: 'mutation { update_person(id: "22", version: 1, set: { city: "Theirstadt" }) { version } }' });
    await call('xos_ui_change_required', { context: 'person_detail', changes: { city: 'Minestadt' } });
    confirmer.answer = async () => 'save';
    assert.equal((await call('xos_ui_save')).isError, true);
    board.settle('city', 'mine');
    assert.match((await call('xos_ui_save')).text, /^Saved person 22 "Susanne Schneider" \(version 2 -> 3\)/);
    assert.equal((await stored(backend, 22)).city, 'Minestadt');
  });

  test('xos_render, xos_ui_change_required and xos_ui_save need the schema first, like xos_query', async () => {
    const { call } = await connect(server.url);
    for (const [tool, args] of [['xos_render', { context: 'person_list', json: '[]' }], ['xos_ui_change_required', { context: 'person_detail', changes: { city: 'Bonn' } }], ['xos_ui_save', {}]] as const) {
      assert.deepEqual(await call(tool, args), {
        text: `Call xos_schema first: ${tool} needs the schema loaded in this session (contexts, list_fields, prompts). Then call ${tool} again.`,
        isError: true,
      });
    }
  });

  test('xos_render shows checked JSON and names unknown fields', async () => {
    const { call } = await connect(server.url);
    await call('xos_schema');
    assert.deepEqual(await call('xos_render', { context: 'person_list', json: '[{"id":1,"firstname":"Max","lastname":"Mustermann","net_worth":12.5}]' }),
      { text: 'All data was successfully displayed in the UI. (1 record of person_list.)', isError: false });
    assert.deepEqual(board.shownRecords(), [{ id: 1, firstname: 'Max', lastname: 'Mustermann', net_worth: '12.50' }]);
    assert.deepEqual(await call('xos_render', { context: 'person_list', json: '[{"id":1,"nickname":"M"},{"age":"old"}]' }), {
      text: 'Nothing was displayed. record 0: unknown fields nickname; record 1: person.age: must be an integer (got "old"). Allowed fields of person_list: id, firstname, lastname, email, city, age, net_worth. Call xos_render again with those fields.',
      isError: true,
    });
  });

  test('contacts and mail say they are not configured', async () => {
    const { call } = await connect(server.url);
    assert.deepEqual(await call('xos_contacts', { query: 'Max' }), {
      text: 'Contacts are not configured yet. Add an account in the setting xos.contacts.carddav (its password with the command "XOS: Set CardDAV Password"), then try again. '
        + 'Set one up with the command "XOS: Add CardDAV Account" (setting xos.contacts.carddav, password with "XOS: Set CardDAV Password"), '
        + '"XOS: Sign In to Google Contacts" (xos.contacts.google.enabled), "XOS: Sign In to Microsoft Contacts" (xos.contacts.microsoft.enabled), '
        + 'or turn on xos.contacts.xos for the XOS records with an email field. Tell the person; once it is set up, call xos_contacts again.',
      isError: true,
    });
    const mailHint = 'Mail is not configured yet. Set the mail server in the setting xos.mail.host (with xos.mail.port, xos.mail.security, xos.mail.user, xos.mail.from; the password with the command "XOS: Set Mail Password"), then try again.';
    assert.deepEqual(await call('xos_mail_compose', { to: 'max@example.org', subject: 'Hi', body: 'Hello' }), { text: `${mailHint} Tell the person; once it is set up, call xos_mail_compose again.`, isError: true });
    assert.deepEqual(await call('xos_mail_send'), { text: `${mailHint} Tell the person; once it is set up, call xos_mail_send again.`, isError: true });
  });

  test('xos_system_status reports context, the tools the settings allow, DSN, app and sessions', async () => {
    const { call } = await connect(server.url);
    await call('xos_schema');
    await call('xos_render', { context: 'company_list', json: '[]' });
    const status = JSON.parse((await call('xos_system_status')).text);
    assert.equal(status.active_context, 'company_list');
    // No mail server and no contact provider in this setup: their tools are not offered as working.
    assert.deepEqual(status.tools, ['xos_schema', 'xos_query', 'xos_render', 'xos_ui_change_required', 'xos_ui_save', 'xos_system_status']);
    const { latency_ms: latency, ...dsn } = status.dsn;
    assert.deepEqual(dsn, { kind: 'sqlite', description: backend.api.storage.description, ok: true, audit: { kept: true } });
    assert.equal(typeof latency, 'number');
    assert.ok(latency >= 0 && latency < 1000, `latency ${latency}`);
    assert.deepEqual(status.app, { name: 'crm', label: 'XOS CRM', version: '1.0.0' });
    assert.equal(status.sessions, server.sessionCount());
    assert.ok(status.sessions >= 1);
  });

  test('xos_schema and xos_system_status declare an outputSchema and return the same data as structuredContent', async () => {
    const { client } = await connect(server.url);
    const { tools } = await client.listTools();
    const declared = tools.filter((t) => t.outputSchema).map((t) => t.name);
    assert.deepEqual(declared, ['xos_schema', 'xos_system_status', 'xos_contacts']);
    for (const name of ['xos_schema', 'xos_system_status']) {
      // The SDK client checks structuredContent against the listed outputSchema itself; a mismatch throws here.
      const result = await client.callTool({ name, arguments: {} });
      const text = (result.content as Array<{ text: string }>)[0].text;
      assert.ok(result.structuredContent, `${name} has structuredContent`);
      assert.deepEqual(result.structuredContent, JSON.parse(text), `${name}: the text and the structured data say the same`);
    }
    const schema = tools.find((t) => t.name === 'xos_schema')!.outputSchema as { required?: string[] };
    assert.deepEqual(schema.required, ['app', 'label', 'locale', 'locales', 'prompts']);
  });

  test('ending a session closes it', async () => {
    const session = await connect(server.url);
    const count = server.sessionCount();
    await session.transport.terminateSession();
    assert.equal(server.sessionCount(), count - 1);
  });

  test('the gate refuses a wrong token, a foreign Host and any Origin', async () => {
    const host = `127.0.0.1:${server.port}`;
    assert.equal(await rawInitialize(server.url, { authorization: `Bearer ${TOKEN}`, host }), 200);
    assert.equal(await rawInitialize(server.url, { authorization: `Bearer ${TOKEN}`, host: `localhost:${server.port}` }), 200);
    assert.equal(await rawInitialize(server.url, { authorization: 'Bearer wrong', host }), 401);
    assert.equal(await rawInitialize(server.url, { host }), 401);
    assert.equal(await rawInitialize(server.url, { authorization: `Bearer ${TOKEN}`, host: `evil.example:${server.port}` }), 403);
    assert.equal(await rawInitialize(server.url, { authorization: `Bearer ${TOKEN}`, host, origin: 'http://evil.example' }), 403);
  });

  test('a body over the limit is refused with 413', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(server.url, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' } }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
      req.end(JSON.stringify({ pad: 'x'.repeat(1024 * 1024) }));
    });
    assert.equal(status, 413);
  });
});

test('idle sessions expire; a session in use stays', async () => {
  const backend = await startBackend({ ast: demoApp(), dsn: 'sqlite::memory:' });
  // The test turns the clock, so a loaded machine's pauses never make a session look idle.
  const clock = testClock();
  const server = await startMcpHttpServer({ client: embeddedClient(backend), board: new BoardState(), confirmer: new ScriptedConfirmer() }, { token: TOKEN, idleMs: 50, now: clock.now });
  try {
    const quiet = await connect(server.url);
    const busy = await connect(server.url);
    assert.equal(server.sessionCount(), 2);
    const busyId = busy.transport.sessionId;
    clock.advance(40);
    assert.equal((await busy.call('xos_system_status')).isError, false);
    clock.advance(20);
    // The sweep (every 50 ms) closes the one quiet for 60 ms, not the one used 20 ms ago.
    await until('the quiet session closed', () => server.sessionCount() === 1);
    assert.equal((await busy.call('xos_system_status')).isError, false);
    assert.equal(busy.transport.sessionId, busyId, 'the busy session is the one left, not a new one');
    assert.equal(server.sessionCount(), 1);
    clock.advance(50);
    await until('the last session closed once quiet too', () => server.sessionCount() === 0);
    await quiet.client.close().catch(() => undefined);
  } finally {
    await server.close();
    await backend.close();
  }
});

test('with contacts and a mailer: search, compose by name, send once after confirmation', async () => {
  const backend = await startBackend({ ast: demoApp(), dsn: 'sqlite::memory:' });
  const people: Contact[] = [{ name: 'Max Mustermann', email: 'max@example.org', phone: '+49 171 1' }, { name: 'Erika Muster', email: 'erika@example.org' }];
  const sent: MailDraft[] = [];
  const confirmer = new ScriptedConfirmer();
  const board = new BoardState();
  const server = await startMcpHttpServer({
    client: embeddedClient(backend), board, confirmer,
    contacts: { search: async (q) => people.filter((p) => p.name.toLowerCase().includes(q.toLowerCase())) },
    mailer: { send: async (draft) => { sent.push(draft); return { messageId: `<${sent.length}@xos>` }; } },
  }, { token: TOKEN });
  try {
    const { call } = await connect(server.url);
    assert.deepEqual(await call('xos_contacts', { query: 'max' }), { text: '[{"name":"Max Mustermann","email":"max@example.org","phone":"+49 171 1","source":null}]', isError: false });
    assert.deepEqual(await call('xos_mail_compose', { to: 'Muster', subject: 'Hi', body: 'Hello' }), {
      text: '"Muster" matches several contacts: Max Mustermann <max@example.org>, Erika Muster <erika@example.org>. Ask the person which one, then compose again with the address.',
      isError: true,
    });
    assert.deepEqual(await call('xos_mail_compose', { to: 'Erika', subject: 'Hi', body: 'Hello' }), {
      text: 'Draft on the Board, not sent: To: Erika Muster <erika@example.org>; Subject: Hi. Ask the person whether to send it; call xos_mail_send only after they said so.',
      isError: false,
    });
    confirmer.sendAnswer = 'cancel';
    assert.deepEqual(await call('xos_mail_send'), { text: 'Not sent: the person chose Cancel. The draft stays on the Board.', isError: true });
    assert.equal(sent.length, 0);
    confirmer.sendAnswer = 'send';
    assert.deepEqual(await call('xos_mail_send'), { text: 'Sent to erika@example.org (message id <1@xos>).', isError: false });
    assert.deepEqual(sent, [{ to: { name: 'Erika Muster', email: 'erika@example.org' }, subject: 'Hi', body: 'Hello' }]);
    const again = await call('xos_mail_send');
    assert.match(again.text, /^Already sent to erika@example\.org at \d{4}-\d\d-\d\dT[\d:.]+Z \(message id <1@xos>\)\. Compose a new mail with xos_mail_compose to send another\.$/);
    assert.equal(again.isError, false);
    assert.equal(sent.length, 1);
  } finally {
    await server.close();
    await backend.close();
  }
});
