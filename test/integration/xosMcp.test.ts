// xos-mcp without VS Code: the MCP SDK client over Streamable HTTP against the standalone
// server (embedded SQLite with the demo data, a real SMTP server), and the Board page's side of
// the protocol spoken over real HTTP the way the browser transport does (webview/browser.ts):
// the Board's gate, the rules for every tool, and the person's confirmation on the page as the
// only way to a write or a send. The page in a real browser: test/e2e/browserBoard.e2e.ts.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { APPROVALS_FILE, SqliteApprovalStore } from '../../src/store/approvalStore.ts';
import { requestApproval } from '../../src/core/approvals.ts';
import type { XosClient } from '../../src/core/domain.ts';
import { startBackend } from '../../src/backend/backend.ts';
import { startHttpServer } from '../../src/backend/http.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { XOS_TOOL_NAMES } from '../../src/mcp/registry.ts';
import { parseOptions } from '../../src/standalone/options.ts';
import { startXosMcp, type RunningXosMcp } from '../../src/standalone/xosMcp.ts';
import { startPostgres, type PostgresServer } from '../support/postgres.ts';
import { startTestSmtpServer, testCertificate, type TestSmtpServer } from '../support/smtp.ts';
import { tempDir, type TempDir } from '../support/tmp.ts';
import { boardSession } from '../support/boardSession.ts';
import { ScriptedPage } from '../support/scriptedBoardPage.ts';
import { until } from '../support/until.ts';
import { connectHttp } from '../support/mcpClient.ts';

const TOKEN = 'xos-mcp-test-token-0123456789';
const DETAIL_FIELDS = 'id firstname lastname email phone street zip city age net_worth status birthday active notes company { id name }';
const detailQuery = (id: number) => `{ person_detail(id: "${id}") { ${DETAIL_FIELDS} } }`;

interface Reply { text: string; isError: boolean }
interface Raw { status: number; headers: Record<string, string | string[] | undefined>; body: string }

/** A request with exactly these headers (fetch would not let a test set Host). */
function raw(port: number, path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: { host: `127.0.0.1:${port}`, ...options.headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      // A stream that stays open (the events) is answered as soon as its first line is there.
      res.on('data', (chunk: string) => {
        body += chunk;
        if (res.headers['content-type']?.startsWith('application/x-ndjson') && body.includes('\n')) {
          resolve({ status: res.statusCode!, headers: res.headers, body });
          req.destroy();
        }
      });
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}


describe('xos-mcp options', () => {
  const env = {};
  test('defaults: stdio, the Board on any free port, MCP (with --http) on 7401, the demo on a SQLite file in the data directory', () => {
    const options = parseOptions([], env)!;
    assert.equal(options.transport, 'stdio');
    assert.equal(options.boardPort, 0);
    assert.equal(options.port, 7401);
    assert.equal(options.dsn, undefined);
    assert.match(options.dataDir, /xos-mcp$/);
    assert.equal(options.approvalSeconds, 900);
    assert.equal(parseOptions(['--approval-seconds', '45'], env)!.approvalSeconds, 45);
    assert.equal(options.pendingApprovals, 20);
    assert.equal(parseOptions(['--pending-approvals', '100'], env)!.pendingApprovals, 100);
  });
  test('mistakes are refused with what to do', () => {
    assert.throws(() => parseOptions(['--http'], env), /--http needs a token for the clients: set XOS_MCP_TOKEN, or pass --token-file <file>/);
    assert.throws(() => parseOptions(['--server', 'http://127.0.0.1:4000', '--dsn', 'sqlite:x.db'], env), /leave out --ast and --dsn/);
    assert.throws(() => parseOptions(['--dsn', 'postgres://xos:secret@127.0.0.1:5432/xos'], env), /set PGPASSWORD instead/);
    assert.throws(() => parseOptions(['--mail-host', 'smtp.example', '--mail-from', 'a@b.example', '--mail-security', 'ssl'], env), /starttls, tls or none/);
    assert.throws(() => parseOptions(['--mail-host', 'smtp.example'], env), /needs --mail-from/);
    assert.throws(() => parseOptions(['--board-port', 'x'], env), /--board-port needs a whole number/);
    assert.throws(() => parseOptions(['--approval-seconds', '0'], env), /--approval-seconds needs at least 1/);
    assert.throws(() => parseOptions(['--pending-approvals', '0'], env), /--pending-approvals is 1 to 1000/);
    assert.equal(parseOptions(['--http'], { XOS_MCP_TOKEN: 't' })!.token, 't');
    assert.equal(parseOptions([], { LANG: 'de_DE.UTF-8' })!.locale, 'de-DE');
  });
});

describe('xos-mcp over HTTP with the Board page', () => {
  let dir: TempDir;
  let running: RunningXosMcp;
  let client: Client;
  let smtp: TestSmtpServer;
  let key: string;
  const lines: string[] = [];

  async function call(name: string, args: Record<string, unknown> = {}): Promise<Reply> {
    const result = await client.callTool({ name, arguments: args });
    const content = result.content as Array<{ type: string; text?: string }>;
    return { text: content.map((c) => c.text ?? '').join(''), isError: result.isError === true };
  }

  async function storedCity(id: number): Promise<string> {
    const backend = await startBackend({ ast: demoApp(), dsn: `sqlite:${dir.path}/xos-mcp/xos.db` });
    try {
      const result = await backend.api.run({ query: `{ person_detail(id: "${id}") { city } }` });
      return (result.data as { person_detail: { city: string } }).person_detail.city;
    } finally {
      await backend.close();
    }
  }

  before(async () => {
    dir = await tempDir('xos-mcp');
    const certificate = await testCertificate();
    smtp = await startTestSmtpServer({ certificate });
    running = await startXosMcp({
      transport: 'http', port: 0, token: TOKEN, boardPort: 0, locale: 'en',
      dataDir: `${dir.path}/xos-mcp`, exportDir: dir.path, confirmTimeoutSeconds: 30,
      mail: { host: '127.0.0.1', port: smtp.port, security: 'starttls', user: '', from: 'XOS CRM <crm@xos.example>', ca: certificate.cert },
      mailUndoSeconds: 0,
      log: (line) => lines.push(line),
    });
    key = running.board.link.split('#token=')[1];
    client = new Client({ name: 'xos-mcp-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(running.mcp!.url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }));
  });

  after(async () => {
    await client?.close();
    await running?.close();
    await smtp?.close();
    await dir?.remove();
  });

  test('prints the Board link and the MCP endpoint; the link holds the key only in its fragment', () => {
    assert.ok(lines.includes(`Open the XOS Board: ${running.board.link}`), lines.join('\n'));
    assert.ok(lines.some((line) => line.startsWith(`MCP endpoint: ${running.mcp!.url}`)));
    assert.match(running.board.link, /^http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]{32}$/);
    assert.ok(!lines.some((line) => line.includes(TOKEN)), 'the MCP token is not logged');
  });

  test('pending approvals live owner-only in the data folder; one stored by another process shows on the Board page and is declined there', async () => {
    const file = join(dir.path, 'xos-mcp', APPROVALS_FILE);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.ok(running.controller.approvals);
    const page = new ScriptedPage(running.board.url, running.board.link.split('#token=')[1]);
    const elsewhere = new SqliteApprovalStore(file);
    try {
      await page.ready;
      const summary = { entity: 'person', id: '7', changes: [{ field: 'city', label: 'City', from: 'Bonn', to: 'Kiel' }] };
      // Another process on the same data folder stores a request (storing one reaches no backend).
      const made = await requestApproval({ client: {} as XosClient, store: elsewhere, backend: running.where }, {
        kind: 'save', summary, payload: { kind: 'save', entity: 'person', context: 'person_detail', id: '7', version: 1, set: { city: 'Kiel' }, action: 'Save' },
      }, { client: 'claude-ai via http' });
      assert.equal(made.kind, 'requested');
      const item = await until('the approval on the page', () => page.notified('board/approvals').at(-1)?.params.approvals[0] ?? undefined);
      assert.equal(item.question, 'Save changes to Person 7? City: Bonn → Kiel', 'a summary without a name: the id alone');
      assert.equal(item.requester, 'The agent (claude-ai via http)');
      assert.ok(await page.post({ method: 'board/decideApproval', params: { id: item.id, decision: 'decline' } }) < 300);
      await until('the decision on the page', () => page.notified('board/approvalDecided').find((n) => n.params.id === item.id));
      assert.equal((await elsewhere.get(item.id))?.state, 'declined');
    } finally {
      elsewhere.close();
      await page.close();
    }
  });

  test('a 2026-07-28 client (no session) asking to save is answered at once; the person approves on the page; its next call says saved', async () => {
    const page = new ScriptedPage(running.board.url, running.board.link.split('#token=')[1]);
    const agent = await connectHttp(running.mcp!.url, TOKEN, 'modern', 'approvals-agent');
    try {
      await page.ready;
      const { handle } = JSON.parse((await agent.call('xos_schema')).text) as { handle: string };
      assert.equal((await agent.call('xos_query', { context: 'person_detail', query: detailQuery(8), handle })).isError, false);
      assert.equal((await agent.call('xos_ui_change_required', { context: 'person_detail', changes: { city: 'Approved over HTTP' }, handle })).isError, false);
      const asked = await agent.call('xos_ui_save', { handle });
      assert.equal(asked.isError, false, asked.text);
      assert.match(asked.text, /^Nothing is written yet\. Waiting for the person's decision on: save changes to person "8" \(city: "[^"]*" -> "Approved over HTTP"\)\.\n/);
      const id = /approval: "([^"]+)"/.exec(asked.text)![1];
      assert.deepEqual(page.notified('board/ask'), [], 'no question is held open for a request without a session');
      const item = await until('the approval on the page', () => page.notified('board/approvals').at(-1)?.params.approvals.find((a: { id: string }) => a.id === id));
      assert.match(item.requester, /^The agent \(approvals-agent.*\)$/);
      assert.notEqual(await storedCity(8), 'Approved over HTTP');
      assert.ok(await page.post({ method: 'board/decideApproval', params: { id, decision: 'approve' } }) < 300);
      await until('the decision on the page', () => page.notified('board/approvalDecided').find((n) => n.params.id === id));
      const outcome = await agent.call('xos_ui_save', { handle, approval: id });
      assert.equal(outcome.isError, false, outcome.text);
      assert.match(outcome.text, new RegExp(`^The person approved \\(approval "${id}"\\)\\. .*Approved over HTTP`));
      assert.equal(await storedCity(8), 'Approved over HTTP');
    } finally {
      await agent.close();
      await page.close();
    }
  });

  test('the nine tools, the app prompts; a wrong token is refused', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), [...XOS_TOOL_NAMES]);
    const { prompts } = await client.listPrompts();
    assert.ok(prompts.some((p) => p.name === 'xos_person_list'));
    const refused = await fetch(running.mcp!.url, { method: 'POST', headers: { authorization: 'Bearer wrong', 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
    assert.equal(refused.status, 401);
  });

  test('the schema rule holds for every data tool', async () => {
    for (const [tool, args] of [
      ['xos_query', { context: 'person_list', query: '{ person_list { id } }' }],
      ['xos_render', { context: 'person_list', json: '[]' }],
      ['xos_ui_change_required', { context: 'person_detail', changes: { city: 'X' } }],
      ['xos_ui_save', {}],
    ] as const) {
      const reply = await call(tool, args);
      assert.equal(reply.isError, true, tool);
      assert.match(reply.text, /^Call xos_schema first/, tool);
    }
  });

  test('the Board gate: loopback Host, own Origin only, the key for data, a strict page', async () => {
    const port = running.board.port;
    const page = await raw(port, '/');
    assert.equal(page.status, 200);
    const csp = String(page.headers['content-security-policy']);
    assert.match(csp, /default-src 'none'; script-src 'nonce-[^']+';/);
    assert.match(csp, /connect-src 'self'/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.equal(page.headers['x-frame-options'], 'DENY');
    assert.ok(!page.body.includes(key), 'the page never contains the key');
    assert.equal((await raw(port, '/', { headers: { host: `evil.example:${port}` } })).status, 403);
    assert.equal((await raw(port, '/', { headers: { host: `127.0.0.1.evil.example:${port}` } })).status, 403);
    assert.equal((await raw(port, '/', { headers: { 'sec-fetch-site': 'cross-site' } })).status, 403);
    assert.equal((await raw(port, '/board/events')).status, 401);
    assert.equal((await raw(port, '/board/events', { headers: { authorization: 'Bearer nope' } })).status, 401);
    assert.equal((await raw(port, '/board/events', { headers: { authorization: `Bearer ${key}` } })).status, 401, 'the raw key opens nothing: only a session from the handshake does');
    assert.equal((await raw(port, '/board/events', { headers: { authorization: `Bearer ${TOKEN}` } })).status, 401, 'the agent\'s MCP token does not open the Board');
    const session = await boardSession(running.board.url, key);
    assert.equal((await raw(port, '/board/events', { headers: { authorization: `Bearer ${session}`, origin: 'http://evil.example' } })).status, 403);
    assert.equal((await raw(port, '/board/message', { method: 'POST', headers: { authorization: `Bearer ${session}`, 'content-type': 'text/plain' }, body: '{}' })).status, 415);
    assert.equal((await raw(port, '/board/message', { method: 'POST', headers: { authorization: `Bearer ${session}`, 'content-type': 'application/json', 'x-xos-page': 'stale' }, body: '{}' })).status, 409);
    const stream = await raw(port, '/board/events', { headers: { authorization: `Bearer ${session}`, origin: `http://127.0.0.1:${port}` } });
    assert.equal(stream.status, 200);
    assert.match(stream.body, /^\{"xos":"hello","page":"[0-9a-f-]{36}"\}\n/);
    assert.equal((await raw(port, '/board/events', { headers: { authorization: `Bearer ${session}` } })).status, 401, 'a session opens one stream');
  });

  test('without a Board page a save or send answers where to confirm, and nothing is written', async () => {
    await until('the probe page to go', () => !running.board.connected());
    assert.equal((await call('xos_schema')).isError, false);
    assert.equal((await call('xos_query', { context: 'person_detail', query: detailQuery(2) })).isError, false);
    assert.equal((await call('xos_ui_change_required', { context: 'person_detail', changes: { city: 'Nirgendwo' } })).isError, false);
    const reply = await call('xos_ui_save');
    assert.equal(reply.isError, true);
    assert.equal(reply.text, `Not saved: the person confirms on the XOS Board page, and it is not open. Ask them to open the Board (the link xos-mcp printed when it started, ${running.board.url}) and then call the tool again. Nothing was written; the preview stays on the Board.`);
    assert.notEqual(await storedCity(2), 'Nirgendwo');
    assert.equal((await call('xos_mail_compose', { to: 'max@nordlicht-software.example', subject: 'Hallo', body: 'Test' })).isError, false);
    const send = await call('xos_mail_send');
    assert.equal(send.isError, true);
    assert.match(send.text, /^Not sent: the person confirms on the XOS Board page, and it is not open\./);
    assert.equal(smtp.received.length, 0);
  });

  test('the page sees the agent\'s work; only its Save writes, exactly the change; Discard nothing', async () => {
    const page = new ScriptedPage(running.board.url, key);
    try {
      await page.ready;
      // Every part arrives after ready: the texts, the current record with the kept proposal.
      const detail = await until('the detail on the page', () => page.notified('board/detail').at(-1));
      assert.equal(detail.params.detail.fields.find((f: { field: string }) => f.field === 'city').pending.to, 'Nirgendwo');

      page.answer = () => 'Discard';
      const discarded = await call('xos_ui_save');
      assert.equal(discarded.isError, true);
      assert.match(discarded.text, /^Not saved: the person chose Discard\./);
      assert.equal(page.asked.at(-1)!.kind, 'save');
      assert.match(page.asked.at(-1)!.message, /^Save changes to Person Michael [^(]+ \(#2\)\? City: .+ → Nirgendwo$/);
      assert.notEqual(await storedCity(2), 'Nirgendwo');

      page.answer = ({ buttons }) => buttons[0];
      const saved = await call('xos_ui_save');
      assert.equal(saved.isError, false, saved.text);
      assert.equal(await storedCity(2), 'Nirgendwo');

      // A list from the agent reaches the page as it is shown.
      const shown = await call('xos_query', { context: 'person_list', query: '{ person_list { id firstname lastname email city age net_worth } }' });
      assert.equal(shown.isError, false);
      const list = await until('the list on the page', () => page.notified('board/list').at(-1)?.params.list ?? undefined);
      assert.equal(list.context, 'person_list');
      assert.ok(list.total > 0 && shown.text.includes(String(list.total)), shown.text);

      // Send: asked on the page, sent once after Send.
      assert.equal((await call('xos_mail_compose', { to: 'max@nordlicht-software.example', subject: 'Angebot', body: 'Hallo Max' })).isError, false);
      page.answer = ({ kind, buttons }) => (kind === 'send' ? buttons[0] : null);
      const sent = await call('xos_mail_send');
      assert.equal(sent.isError, false, sent.text);
      assert.equal(smtp.received.length, 1);
      assert.deepEqual(smtp.received[0].to, ['max@nordlicht-software.example']);
      assert.equal(page.asked.at(-1)!.kind, 'send');
    } finally {
      await page.close();
    }
  });

  test('a second tab takes over; a question left open is withdrawn when the Board changes', async () => {
    const first = new ScriptedPage(running.board.url, key);
    await first.ready;
    await until('the first page connected', () => running.board.connected());
    const second = new ScriptedPage(running.board.url, key);
    try {
      await second.ready;
      await until('the first page told', () => first.replaced);
      assert.equal(await first.post({ method: 'board/save', params: {} }), 409, 'the replaced page can no longer act');
      assert.equal((await call('xos_query', { context: 'person_detail', query: detailQuery(3) })).isError, false);
      assert.equal((await call('xos_ui_change_required', { context: 'person_detail', changes: { city: 'Ulm' } })).isError, false);
      second.answer = () => undefined;
      const saving = call('xos_ui_save');
      const question = await until('the question on the second page', () => second.asked.at(-1) as ({ id: number } & Record<string, unknown>) | undefined);
      assert.equal(first.asked.length, 0, 'only the page in charge is asked');
      // The agent shows another record while the person has not answered: the question is void.
      assert.equal((await call('xos_query', { context: 'person_detail', query: detailQuery(4) })).isError, false);
      const voided = await saving;
      assert.equal(voided.isError, true);
      assert.match(voided.text, /^Not saved: the form changed while the person was asked/);
      await until('the question withdrawn on the page', () => second.notified('board/withdrawQuestion').find((m) => m.params.id === question.id));
      assert.notEqual(await storedCity(3), 'Ulm');
    } finally {
      await first.close();
      await second.close();
    }
  });

  test('the read-only tools answer as in VS Code: status with the Board\'s address, contacts from the app, a render', async () => {
    const status = (await client.callTool({ name: 'xos_system_status', arguments: {} })).structuredContent as Record<string, any>;
    assert.equal(status.board_url, running.board.url);
    assert.equal(status.schema_loaded, true);
    assert.deepEqual(status.tools, [...XOS_TOOL_NAMES]);
    const contacts = (await client.callTool({ name: 'xos_contacts', arguments: { query: 'Mustermann' } })).structuredContent as { contacts: Array<{ email: string | null }> };
    assert.ok(contacts.contacts.some((c) => c.email === 'max.mustermann@nordlicht-software.example'), JSON.stringify(contacts));
    const rendered = await call('xos_render', { context: 'person_list', json: JSON.stringify([{ id: 1, firstname: 'Max', lastname: 'Mustermann', email: 'max@example.org', city: 'Berlin', age: 40, net_worth: '1.00' }]) });
    assert.equal(rendered.isError, false, rendered.text);
  });

  test('unsaved Board work outlives a stop: the next start shows it again, nothing written', async () => {
    assert.equal((await call('xos_query', { context: 'person_detail', query: detailQuery(5) })).isError, false);
    assert.equal((await call('xos_ui_change_required', { context: 'person_detail', changes: { city: 'Passau' } })).isError, false);
    await client.close();
    await running.close();
    running = await startXosMcp({
      transport: 'http', port: 0, token: TOKEN, boardPort: 0, locale: 'en',
      dataDir: `${dir.path}/xos-mcp`, exportDir: dir.path, log: (line) => lines.push(line),
    });
    client = new Client({ name: 'xos-mcp-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(running.mcp!.url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }));
    assert.ok(lines.some((line) => line.startsWith('Restored unsaved Board work from ')), lines.join('\n'));
    const page = new ScriptedPage(running.board.url, running.board.link.split('#token=')[1]);
    try {
      await page.ready;
      const detail = await until('the kept record on the page', () => page.notified('board/detail').at(-1)?.params.detail ?? undefined);
      assert.equal(detail.key, 'person_detail:5');
      assert.equal(detail.fields.find((f: { field: string }) => f.field === 'city').pending.to, 'Passau');
      assert.notEqual(await storedCity(5), 'Passau');
    } finally {
      await page.close();
    }
  });
});

describe('xos-mcp on PostgreSQL and in front of an xos-server', () => {
  let dir: TempDir;
  let pgServer: PostgresServer | undefined;

  before(async () => {
    dir = await tempDir('xos-mcp-backends');
  });
  after(async () => {
    await pgServer?.stop();
    await dir?.remove();
  });

  /** The agent proposes a new city for person 1; the page answers Save; resolves with the reply. */
  async function saveThroughPage(options: Parameters<typeof startXosMcp>[0], city: string): Promise<{ saved: Reply; status: Record<string, any> }> {
    const running = await startXosMcp(options);
    const client = new Client({ name: 'xos-mcp-backends', version: '1.0.0' });
    const page = new ScriptedPage(running.board.url, running.board.link.split('#token=')[1]);
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(running.mcp!.url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }));
      const call = async (name: string, args: Record<string, unknown> = {}): Promise<Reply> => {
        const result = await client.callTool({ name, arguments: args });
        return { text: (result.content as Array<{ text?: string }>).map((c) => c.text ?? '').join(''), isError: result.isError === true };
      };
      await page.ready;
      page.answer = ({ buttons }) => buttons[0];
      assert.equal((await call('xos_schema')).isError, false);
      const status = (await client.callTool({ name: 'xos_system_status', arguments: {} })).structuredContent as Record<string, any>;
      assert.equal((await call('xos_query', { context: 'person_detail', query: detailQuery(1) })).isError, false);
      assert.equal((await call('xos_ui_change_required', { context: 'person_detail', changes: { city } })).isError, false);
      return { saved: await call('xos_ui_save'), status };
    } finally {
      await page.close();
      await client.close();
      await running.close();
    }
  }

  test('on PostgreSQL: the Board page confirms, PostgreSQL has the change', async () => {
    pgServer = await startPostgres();
    const dsn = await pgServer.createDatabase('xos_mcp');
    const seeded = await startBackend({ ast: demoApp(), dsn, seed: true });
    await seeded.close();
    const { saved, status } = await saveThroughPage({
      transport: 'http', port: 0, token: TOKEN, boardPort: 0, locale: 'en', dsn,
      dataDir: join(dir.path, 'pg'), exportDir: dir.path, log: () => {},
    }, 'Greifswald');
    assert.equal(saved.isError, false, saved.text);
    assert.equal(status.dsn.kind, 'postgres');
    assert.match(status.board_url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
    const check = await startBackend({ ast: demoApp(), dsn });
    try {
      const result = await check.api.run({ query: '{ person_detail(id: "1") { city } }' });
      assert.equal((result.data as any).person_detail.city, 'Greifswald');
    } finally {
      await check.close();
    }
  });

  test('in front of a running xos-server (with its token): the change goes there', async () => {
    const backend = await startBackend({ ast: demoApp(), dsn: `sqlite:${join(dir.path, 'server.db')}`, seed: true });
    const http = await startHttpServer(backend.api, { token: 'server-token-0123456789', frontendToken: 'frontend-token-0123456789' });
    try {
      const { saved, status } = await saveThroughPage({
        transport: 'http', port: 0, token: TOKEN, boardPort: 0, locale: 'en', server: http.url, serverToken: 'frontend-token-0123456789',
        dataDir: join(dir.path, 'remote'), exportDir: dir.path, log: () => {},
      }, 'Stralsund');
      assert.equal(saved.isError, false, saved.text);
      assert.equal(status.dsn.ok, true);
      const result = await backend.api.run({ query: '{ person_detail(id: "1") { city } xos_audit(entity: "person", id: "1") { path approval } }' });
      assert.equal((result.data as any).person_detail.city, 'Stralsund');
      assert.deepEqual(JSON.parse(JSON.stringify((result.data as any).xos_audit[0])), { path: 'agent', approval: 'Save confirmed by the person (city)' });
    } finally {
      await http.close();
      await backend.close();
    }
  });
});
