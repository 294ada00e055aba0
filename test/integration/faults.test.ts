// Faults: the XOS server behind the extension goes down, turns slow, answers 500, 429 or
// broken JSON, or its name does not resolve; the contact providers and the mail server fail in
// their own ways. Every tool answers within its timeout with an isError reply that says what
// happened and what to do — never a hang, never a thrown protocol error — and the next call
// after the fault ends works again without a restart.
import assert from 'node:assert/strict';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { after, before, describe, test } from 'node:test';
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { startHttpServer, type RunningHttpServer } from '../../src/backend/http.ts';
import { BoardState } from '../../src/board/state.ts';
import { connectRemoteClient } from '../../src/graphql/client.ts';
import { ConnectionWatch } from '../../src/core/connectionWatch.ts';
import { McpSession } from '../../src/mcp/session.ts';
import type { XosDeps } from '../../src/mcp/ports.ts';
import type { Confirmer, SaveAnswer, SendAnswer } from '../../src/core/domain.ts';
import { CarddavProvider } from '../../src/contacts/carddav.ts';
import { ContactDirectory } from '../../src/contacts/directory.ts';
import { GoogleContactsProvider } from '../../src/contacts/google.ts';
import { createFetch } from '../../src/contacts/httpFetch.ts';
import { MicrosoftContactsProvider } from '../../src/contacts/microsoft.ts';
import type { AccessTokenSource } from '../../src/contacts/tokens.ts';
import { createSmtpMailer } from '../../src/mail/smtp.ts';
import { resultText } from '../../src/mcp/result.ts';
import { contactsTool } from '../../src/mcp/tools/contacts.ts';
import { mailComposeTool } from '../../src/mcp/tools/mailCompose.ts';
import { mailSendTool } from '../../src/mcp/tools/mailSend.ts';
import { connectInMemory } from '../support/mcpClient.ts';
import { startRadicale, vcard, type RadicaleServer } from '../support/radicale.ts';
import { startTestSmtpServer, testCertificate, type TestSmtpServer } from '../support/smtp.ts';
import { until } from '../support/until.ts';

const TIMEOUT_MS = 1_500;
const DETAIL = 'id firstname lastname email phone street zip city age net_worth status birthday active notes company { id name }';

type Fault = 'none' | 'down' | 'slow' | 'status500' | 'status429' | 'brokenJson' | 'reset';

/** A reverse proxy in front of xos-server that can be told to misbehave. */
async function faultyProxy(target: number): Promise<{ port: number; fault: Fault; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const state = { fault: 'none' as Fault };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const fault = state.fault;
    if (fault === 'down' || fault === 'reset') {
      req.socket.destroy();
      return;
    }
    if (fault === 'slow') {
      // Answers after 30 s, long after any client gave up.
      setTimeout(() => { if (!res.destroyed) res.end('{}'); }, 30_000).unref();
      return;
    }
    if (fault === 'status500') return void res.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error');
    if (fault === 'status429') return void res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '2' }).end('{"error":"too many requests"}');
    if (fault === 'brokenJson' && req.url?.startsWith('/graphql')) return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"data": {"person_list": [');
    const upstream = request({ host: '127.0.0.1', port: target, path: req.url, method: req.method, headers: { ...req.headers, host: `127.0.0.1:${target}` } }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connection', (socket: Socket) => { sockets.add(socket); socket.on('close', () => sockets.delete(socket)); });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    get fault() { return state.fault; },
    set fault(value: Fault) {
      state.fault = value;
      // A new fault applies to kept-alive connections too.
      for (const socket of sockets) socket.destroy();
    },
    close: () => new Promise((resolve) => { for (const socket of sockets) socket.destroy(); server.close(() => resolve()); }),
  };
}

class SavingPerson implements Confirmer {
  async confirmSave(): Promise<SaveAnswer> { return 'save'; }
  async confirmSend(): Promise<SendAnswer> { return 'cancel'; }
}

describe('faults of the XOS server behind the tools', () => {
  let backend: Backend;
  let http: RunningHttpServer;
  let proxy: Awaited<ReturnType<typeof faultyProxy>>;
  let call: (name: string, args?: Record<string, unknown>) => Promise<{ text: string; isError: boolean; ms: number }>;
  let board: BoardState;

  before(async () => {
    backend = await startBackend({ ast: demoApp(), dsn: 'sqlite::memory:', seed: true });
    http = await startHttpServer(backend.api, { port: 0 });
    proxy = await faultyProxy(http.port);
    const client = await connectRemoteClient({ endpoint: `http://127.0.0.1:${proxy.port}`, timeoutMs: TIMEOUT_MS });
    board = new BoardState();
    const deps: XosDeps = { client, board, confirmer: new SavingPerson() };
    const mcp = await connectInMemory(deps, 'faults');
    call = async (name, args = {}) => {
      const t0 = performance.now();
      const reply = await mcp.call(name, args);
      return { ...reply, ms: performance.now() - t0 };
    };
    assert.equal((await call('xos_schema')).isError, false);
  });
  after(async () => {
    await proxy?.close();
    await http?.close();
    await backend?.close();
  });

  const listQuery = { context: 'person_list', query: '{ person_list { id firstname lastname email city age net_worth } }' };

  for (const fault of ['down', 'reset', 'slow', 'status500', 'status429', 'brokenJson'] as const) {
    test(`${fault}: every data tool answers in time with what happened and what to do, then recovers`, { timeout: 60_000 }, async () => {
      // A record on the Board with a pending change, so the save is tried too.
      proxy.fault = 'none';
      assert.equal((await call('xos_query', { context: 'person_detail', query: `{ person_detail(id: "3") { ${DETAIL} } }` })).isError, false);
      assert.equal((await call('xos_ui_change_required', { context: 'person_detail', changes: { city: `Stoerstadt-${fault}` } })).isError, false);
      const before = await backend.api.run({ query: '{ person_detail(id: "3") { city version } }' });

      proxy.fault = fault;
      const list = await call('xos_query', listQuery);
      const status = await call('xos_system_status');
      const save = await call('xos_ui_save');
      for (const [name, reply] of [['xos_query', list], ['xos_ui_save', save]] as const) {
        assert.equal(reply.isError, true, `${name} under ${fault}: ${reply.text}`);
        assert.ok(reply.ms < TIMEOUT_MS * 3 + 1_000, `${name} under ${fault} took ${Math.round(reply.ms)} ms`);
        assert.match(reply.text, /XOS server|not reachable|did not answer|answered/i, `${name} says what happened: ${reply.text}`);
        assert.match(reply.text, /try again|again when|call .* again|Nothing was (written|retried)/i, `${name} says what to do: ${reply.text}`);
      }
      console.log(`${fault}: xos_query -> ${list.text}\n${fault}: xos_ui_save -> ${save.text}`);
      assert.equal(status.isError, false);
      // Broken answers to queries come from a server that is up: its health check still answers.
      if (fault !== 'brokenJson') assert.equal(JSON.parse(status.text).dsn.ok, false, 'the status says the data source is not reachable');
      // Nothing was written by the failed save (the fault is in front of the server).
      const after = await backend.api.run({ query: '{ person_detail(id: "3") { city version } }' });
      assert.deepEqual(JSON.parse(JSON.stringify(after.data)), JSON.parse(JSON.stringify(before.data)));
      // The person's pending change is still on the Board.
      assert.equal(board.formValues().city, `Stoerstadt-${fault}`);

      proxy.fault = 'none';
      const again = await call('xos_query', listQuery);
      assert.equal(again.isError, false, `after ${fault} ended: ${again.text}`);
      assert.match(again.text, /^All data was successfully displayed in the UI\./);
      assert.equal(JSON.parse((await call('xos_system_status')).text).dsn.ok, true);
    });
  }

  test('the connection watch (status bar and Board) says when the server goes away and clears by itself when it is back', { timeout: 60_000 }, async () => {
    proxy.fault = 'none';
    const client = await connectRemoteClient({ endpoint: `http://127.0.0.1:${proxy.port}`, timeoutMs: TIMEOUT_MS });
    const seen: Array<{ ok: boolean; changed: boolean }> = [];
    const watch = new ConnectionWatch({ status: () => client.status(), onStatus: (status, changed) => seen.push({ ok: status?.ok === true, changed }), healthyMs: 60_000, failingMs: 100 });
    try {
      await watch.check();
      proxy.fault = 'down';
      await watch.check();
      // While it is away the watch asks every 100 ms by itself; it notices the return without being asked.
      const downAt = seen.length;
      await until('three status checks after the data source went down', () => seen.length >= downAt + 3, { timeoutMs: 20_000 });
      proxy.fault = 'none';
      await until('the data source answering again', () => seen.at(-1)!.ok, { timeoutMs: 20_000 });
      assert.deepEqual(seen[0], { ok: true, changed: false });
      assert.deepEqual(seen[1], { ok: false, changed: true });
      assert.deepEqual(seen.at(-1), { ok: true, changed: true });
      assert.equal(seen.filter((s) => s.changed).length, 2, 'one change each way');
    } finally {
      watch.dispose();
    }
  });

  test('a server name that does not resolve: a clear error before anything else happens', async () => {
    await assert.rejects(connectRemoteClient({ endpoint: 'https://xos-server.invalid', timeoutMs: TIMEOUT_MS }), (error: Error) => {
      assert.match(error.message, /xos-server\.invalid/);
      return true;
    });
  });
});


// ---- contact providers and the mail server ------------------------------------------------

type ProviderFault = 'none' | 'brokenXml' | 'status401' | 'status429' | 'status500' | 'slow';

/** One loopback server in front of Radicale (CardDAV) that also speaks Google's and Microsoft's JSON, with a fault switch. */
async function faultyContacts(radicalePort: number): Promise<{ url: string; fault: ProviderFault; close(): Promise<void> }> {
  const state = { fault: 'none' as ProviderFault };
  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  const server: Server = createServer((req, res) => {
    const fault = state.fault;
    if (fault === 'slow') return void setTimeout(() => { if (!res.destroyed) res.end(); }, 30_000).unref();
    const url = new URL(req.url!, 'http://127.0.0.1');
    // Every service answers the status faults, each in its own words.
    if (fault === 'status401') return json(res, 401, { error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' } });
    if (fault === 'status429') return json(res, 429, { error: { code: 429, message: 'Quota exceeded.', status: 'RESOURCE_EXHAUSTED' } }, { 'retry-after': '2' });
    if (fault === 'status500') return json(res, 500, { error: { code: 500, message: 'Internal error encountered.', status: 'INTERNAL' } });
    // Google People is /v1/…, Microsoft Graph /v1.0/…; everything else is CardDAV.
    if (url.pathname.startsWith('/v1/') || url.pathname.startsWith('/v1.0/')) {
      if (url.pathname.startsWith('/v1/')) {
        const query = url.searchParams.get('query') ?? '';
        const hit = query && 'max google'.includes(query.toLowerCase());
        return json(res, 200, hit && url.pathname.endsWith(':searchContacts') ? { results: [{ person: { names: [{ displayName: 'Max Google' }], emailAddresses: [{ value: 'max@google.example' }] } }] } : {});
      }
      return json(res, 200, { value: url.pathname.endsWith('/contacts') ? [{ displayName: 'Max Microsoft', emailAddresses: [{ address: 'max@microsoft.example' }] }] : [] });
    }
    // CardDAV: pass through to Radicale, or answer its multistatus with broken XML.
    const upstream = request({ host: '127.0.0.1', port: radicalePort, path: req.url, method: req.method, headers: { ...req.headers, host: `127.0.0.1:${radicalePort}` } }, (answer) => {
      if (fault === 'brokenXml' && answer.statusCode === 207) {
        answer.resume();
        return void res.writeHead(207, { 'content-type': 'application/xml; charset=utf-8' }).end('<?xml version="1.0"?><d:multistatus xmlns:d="DAV:"><d:response><d:href>/broken');
      }
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    get fault() { return state.fault; },
    set fault(value: ProviderFault) { state.fault = value; },
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

describe('faults of the contact providers and the mail server', () => {
  let radicale: RadicaleServer;
  let contacts: Awaited<ReturnType<typeof faultyContacts>>;
  let smtp: TestSmtpServer;
  before(async () => {
    radicale = await startRadicale();
    const book = await radicale.createAddressBook('work', 'Work');
    await radicale.uploadCards(book, [vcard({ uid: 'max', fn: 'Max CardDAV', emails: ['max@carddav.example'] })]);
    contacts = await faultyContacts(new URL(radicale.url).port ? Number(new URL(radicale.url).port) : 80);
    smtp = await startTestSmtpServer({ certificate: await testCertificate() });
  });
  after(async () => {
    await contacts?.close();
    await radicale?.stop();
    await smtp?.close();
  });

  const tokens: AccessTokenSource = { token: async () => 'token', refresh: async () => { throw new Error('the stored sign-in was refused; sign in again with the XOS command'); } };

  for (const fault of ['brokenXml', 'status401', 'status429', 'status500', 'slow'] as const) {
    test(`contacts, ${fault}: xos_contacts answers in time, names the failing sources and what to do, then recovers`, { timeout: 60_000 }, async () => {
      const fetch = createFetch(undefined, { timeoutMs: TIMEOUT_MS });
      const providers = [
        new CarddavProvider({ url: `${contacts.url}${new URL(radicale.url).pathname}`, user: radicale.user, password: radicale.password }, { fetch, maxAgeMs: 0 }),
        new GoogleContactsProvider({ tokens, baseUrl: contacts.url, fetch }),
        new MicrosoftContactsProvider({ tokens, baseUrl: contacts.url, fetch }),
      ];
      const directory = new ContactDirectory(providers, { timeoutMs: TIMEOUT_MS * 2 });
      const deps: XosDeps = { client: undefined as never, board: new BoardState(), confirmer: new SavingPerson(), contacts: directory };
      contacts.fault = fault;
      const t0 = performance.now();
      const failing = await contactsTool.handler({ query: 'max' }, deps, new McpSession('c', []), new AbortController().signal);
      const ms = performance.now() - t0;
      const text = resultText(failing);
      console.log(`contacts ${fault}: ${text}`);
      assert.ok(ms < TIMEOUT_MS * 3 + 1_000, `took ${Math.round(ms)} ms`);
      // CardDAV's broken XML breaks only CardDAV; the other faults hit all three.
      const failingSources = fault === 'brokenXml' ? ['carddav'] : ['carddav', 'google', 'microsoft'];
      for (const source of failingSources) assert.match(text, new RegExp(`Not searched: .*${source}`), `${source} is named`);
      if (fault === 'brokenXml') assert.match(text, /Max Google.*Max Microsoft|Max Microsoft.*Max Google/s);
      else {
        assert.equal(failing.isError, true);
        assert.match(text, /Check the account settings, then try again/);
      }
      contacts.fault = 'none';
      const recovered = resultText(await contactsTool.handler({ query: 'max' }, deps, new McpSession('c', []), new AbortController().signal));
      for (const name of ['Max CardDAV', 'Max Google', 'Max Microsoft']) assert.match(recovered, new RegExp(name), `after ${fault}: ${recovered}`);
      assert.doesNotMatch(recovered, /Not searched/);
    });
  }

  for (const code of [421, 450, 550] as const) {
    test(`mail, the server answers ${code} to the recipient: not sent, said so, the draft stays, the next send goes out once`, async () => {
      smtp.rcptCode = code;
      const mailer = createSmtpMailer({ host: '127.0.0.1', port: smtp.port, security: 'none', user: '', from: 'XOS CRM <crm@xos.example>' });
      const board = new BoardState();
      const person: Confirmer = { confirmSave: async () => 'discard', confirmSend: async () => 'send' };
      const deps: XosDeps = { client: undefined as never, board, confirmer: person, mailer };
      const session = new McpSession('m', []);
      const run = async (tool: typeof mailComposeTool | typeof mailSendTool, args: Record<string, string>) =>
        (tool.handler as (a: Record<string, string>, d: XosDeps, s: McpSession, signal: AbortSignal) => ReturnType<typeof mailSendTool.handler>)(args, deps, session, new AbortController().signal);
      await run(mailComposeTool, { to: 'max@nordlicht.example', subject: `Fehler ${code}`, body: 'Hallo' });
      const before = smtp.received.length;
      const refused = await run(mailSendTool, {});
      assert.equal(refused.isError, true);
      assert.match(resultText(refused), new RegExp(`^Not sent: the mail server refused or could not be reached: .*${code}.*The draft stays on the Board`));
      assert.equal(smtp.received.length, before);
      assert.ok(board.snapshot().mail, 'the draft is still there');
      smtp.rcptCode = undefined;
      const sent = await run(mailSendTool, {});
      assert.notEqual(sent.isError, true, resultText(sent));
      assert.equal(smtp.received.length, before + 1);
    });
  }
});
