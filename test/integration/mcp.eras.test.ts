// Both protocol revisions XOS serves, over both transports, against one XOS (one backend, one
// Board, one person who says yes): the loopback endpoint (VS Code, xos-mcp --http) and stdio
// (xos-mcp), each with an SDK client in the 2025 era (initialize, a session) and one pinned to
// 2026-07-28 (no session, so the handle xos_schema returns is passed on). The seed workflow and
// its refusals answer the same in every case.
// Then the built xos-mcp (npm run build) started over stdio by clients that ask for each era.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { BoardState } from '../../src/board/state.ts';
import type { Confirmer, MailDraft, SaveAnswer, SaveSummary, SendAnswer } from '../../src/core/domain.ts';
import { embeddedClient } from '../../src/graphql/client.ts';
import { startMcpHttpServer, type McpHttpServer } from '../../src/mcp/http.ts';
import type { XosDeps } from '../../src/mcp/ports.ts';
import { CONVERSATION_META_KEY } from '../../src/mcp/session.ts';
import { serveMcpStdio } from '../../src/mcp/stdio.ts';
import { connectCommand, connectHttp, connectStdio, ERAS, type McpConnection, type ProtocolEra } from '../support/mcpClient.ts';
import { tempDir } from '../support/tmp.ts';

const TOKEN = 'mcp-eras-test-token-0123456789';
const LIST_QUERY = '{ person_list { id firstname lastname email city age net_worth } }';
const DETAIL_FIELDS = 'id firstname lastname email phone street zip city age net_worth status birthday active notes company { id name }';
const detailQuery = (id: number) => `{ person_detail(id: "${id}") { ${DETAIL_FIELDS} } }`;
type Transport = 'http' | 'stdio';
/** What xos_query answers before xos_schema: in a session, and without one (where only a handle can show it). */
const SCHEMA_FIRST: Readonly<Record<ProtocolEra, string>> = {
  legacy: 'Call xos_schema first: xos_query needs the schema loaded in this session (contexts, list_fields, prompts). Then call xos_query again.',
  modern: 'Call xos_schema first, then pass the handle it returns as `handle` to xos_query (this client has no MCP session, so XOS cannot remember the schema between calls). Then call xos_query again.',
};

/** A person who says yes to every save, and whose questions are kept. */
class YesConfirmer implements Confirmer {
  readonly asked: SaveSummary[] = [];
  async confirmSave(summary: SaveSummary): Promise<SaveAnswer> {
    this.asked.push(structuredClone(summary));
    return 'save';
  }
  async confirmSend(): Promise<SendAnswer> {
    return 'send';
  }
}

describe('protocol 2025-11-25 and 2026-07-28 over HTTP and stdio', () => {
  let backend: Backend;
  let board: BoardState;
  let confirmer: YesConfirmer;
  let deps: XosDeps;
  let http: McpHttpServer;
  const sent: MailDraft[] = [];
  const open: McpConnection[] = [];
  const stdioProblems: string[] = [];

  before(async () => {
    backend = await startBackend({ ast: demoApp(), dsn: 'sqlite::memory:', seed: true });
    board = new BoardState();
    confirmer = new YesConfirmer();
    deps = {
      client: embeddedClient(backend), board, confirmer,
      mailer: { send: async (draft) => { sent.push(draft); return { messageId: `<${sent.length}@xos>` }; } },
    };
    http = await startMcpHttpServer(deps, { token: TOKEN });
  });
  after(async () => {
    for (const connection of open) await connection.close();
    await http?.close();
    await backend?.close();
  });

  async function connect(transport: Transport, era: ProtocolEra, name: string): Promise<McpConnection> {
    const connection = transport === 'http'
      ? await connectHttp(http.url, TOKEN, era, name)
      : await connectStdio((streams) => serveMcpStdio(() => deps, (line) => stdioProblems.push(line), streams), era, name);
    open.push(connection);
    return connection;
  }

  /** The record's name as the save question names it (the demo's persons: `{firstname} {lastname}`). */
  async function nameOf(id: number): Promise<string> {
    const result = await backend.api.run({ query: `{ person_detail(id: "${id}") { firstname lastname } }` });
    assert.equal(result.errors, undefined);
    const person = (result.data as Record<string, { firstname: string; lastname: string }>).person_detail;
    return `${person.firstname} ${person.lastname}`;
  }

  async function stored(id: number): Promise<{ lastname: string; version: number }> {
    const result = await backend.api.run({ query: `{ person_detail(id: "${id}") { lastname version } }` });
    assert.equal(result.errors, undefined);
    return JSON.parse(JSON.stringify((result.data as Record<string, { lastname: string; version: number }>).person_detail));
  }

  // A record of its own for each case, so the saves do not meet.
  let nextId = 11;
  for (const transport of ['http', 'stdio'] as const) for (const era of ERAS) {
    test(`${transport}, ${era} era: the seed workflow, the person confirms; the refusals`, async () => {
      const id = nextId++;
      const sessionsBefore = http.sessionCount();
      const { client, call } = await connect(transport, era, `eras-${transport}-${era}`);
      assert.equal(client.getProtocolEra(), era);
      // Only the 2025 era over HTTP opens a session; 2026-07-28 never does.
      assert.equal(http.sessionCount(), sessionsBefore + (transport === 'http' && era === 'legacy' ? 1 : 0));

      // Without a session (2026-07-28) the rule holds through the handle xos_schema returns.
      assert.deepEqual(await call('xos_query', { context: 'person_list', query: LIST_QUERY }), { text: SCHEMA_FIRST[era], isError: true });

      const schema = await call('xos_schema');
      assert.equal(schema.isError, false);
      const view = JSON.parse(schema.text) as { handle: string; contexts: Record<string, { list_fields: string[] }> };
      assert.deepEqual(view.contexts.person_list.list_fields, ['id', 'firstname', 'lastname', 'email', 'city', 'age', 'net_worth']);
      const { handle } = view;
      assert.match(handle, /^xos_h_/);
      const structured = await client.callTool({ name: 'xos_schema', arguments: {} });
      assert.equal((structured.structuredContent as { app?: unknown } | undefined)?.app, 'crm', 'data comes as structuredContent too');
      // A session remembers the schema; a request without one has only the handle to show.
      assert.equal((await call('xos_query', { context: 'person_list', query: LIST_QUERY })).isError, era === 'modern');
      const tools = await client.listTools();
      const query = tools.tools.find((t) => t.name === 'xos_query')!;
      assert.deepEqual(query.inputSchema.required, ['context', 'query']);
      assert.ok(tools.tools.find((t) => t.name === 'xos_schema')!.outputSchema, 'the data tools declare their structured output');

      assert.deepEqual(await call('xos_query', { context: 'person_list', query: LIST_QUERY, handle }),
        { text: 'All data was successfully displayed in the UI. (240 records of person_list.)', isError: false });
      assert.equal(board.list()?.source.total, 240);
      assert.deepEqual(await call('xos_render', { context: 'person_list', json: JSON.stringify([{ id: id, firstname: 'Ada', lastname: 'Lovelace' }]), handle }),
        { text: 'All data was successfully displayed in the UI. (1 record of person_list.)', isError: false });

      assert.deepEqual(await call('xos_query', { context: 'person_detail', query: detailQuery(id), handle }),
        { text: 'All data was successfully displayed in the UI. (1 record of person_detail.)', isError: false });
      const before = await stored(id);
      const lastname = `Era-${transport}-${era}`;
      assert.deepEqual(await call('xos_ui_change_required', { context: 'person_detail', changes: { lastname }, handle }), {
        text: `Preview on the Board, nothing saved yet. Pending changes of person ${id}: lastname: ${JSON.stringify(before.lastname)} -> ${JSON.stringify(lastname)}. `
          + 'Ask the person whether to save; call xos_ui_save only after they said so.',
        isError: false,
      });
      assert.deepEqual(await stored(id), before, 'a preview writes nothing');

      const asked = confirmer.asked.length;
      const named = await nameOf(id);
      const reply = await call('xos_ui_save', { handle });
      assert.deepEqual(reply, { text: `Saved person ${id} ${JSON.stringify(await nameOf(id))} (version 1 -> 2). Stored: lastname: ${JSON.stringify(lastname)}.`, isError: false });
      assert.deepEqual(confirmer.asked.slice(asked), [{ entity: 'person', id: String(id), name: named, changes: [{ field: 'lastname', label: 'Nachname', from: before.lastname, to: lastname }] }]);
      assert.deepEqual(await stored(id), { lastname, version: 2 });

      assert.deepEqual(await call('xos_ui_save', { handle }),
        { text: 'Nothing to save: the form matches the stored record. Propose changes with xos_ui_change_required first.', isError: true });
      assert.equal(confirmer.asked.length, asked + 1, 'nothing to save asks nobody');
      assert.deepEqual(await call('xos_mail_send'),
        { text: 'There is no draft to send. Prepare one with xos_mail_compose first.', isError: true });
      assert.deepEqual(sent, []);
    });
  }

  for (const transport of ['http', 'stdio'] as const) {
    test(`${transport}, 2026-07-28: requests without a session: a conversation that loaded the schema needs no handle; another client's handle is refused`, async () => {
      const { call } = await connect(transport, 'modern', `eras-conversations-${transport}`);
      const first = { [CONVERSATION_META_KEY]: `chat-1-${transport}` };
      const second = { [CONVERSATION_META_KEY]: `chat-2-${transport}` };
      const { handle } = JSON.parse((await call('xos_schema', {}, first)).text) as { handle: string };
      assert.equal((await call('xos_query', { context: 'person_list', query: LIST_QUERY }, first)).isError, false);
      assert.deepEqual(await call('xos_query', { context: 'person_list', query: LIST_QUERY }, second), { text: SCHEMA_FIRST.modern, isError: true });
      // The caller is the client the request envelope names, on this transport: another client may not use this one's
      // handle. Over stdio the other client is another connection, so another xos-mcp, which never minted it.
      const other = await connect(transport, 'modern', `eras-other-${transport}`);
      assert.deepEqual(await other.call('xos_query', { context: 'person_list', query: LIST_QUERY, handle }, first), {
        text: transport === 'http'
          ? 'This handle belongs to another client or conversation: call xos_schema in this conversation and pass the handle it returns as `handle` to xos_query. Then call xos_query again.'
          : 'XOS does not know this handle (XOS was restarted since, or the handle was changed): call xos_schema again and pass the handle it returns as `handle` to xos_query. Then call xos_query again.',
        isError: true,
      });
    });
  }

  test('the gate stands before both eras: a 2026-07-28 request without the token or with an Origin reaches no server', async () => {
    const modernList = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
    } } });
    const post = (headers: Record<string, string>) => new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(http.url, { method: 'POST', headers: {
        'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list', ...headers,
      } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => { body += chunk; });
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
      req.on('error', reject);
      req.end(modernList);
    });
    const allowed = await post({ authorization: `Bearer ${TOKEN}` });
    assert.equal(allowed.status, 200, allowed.body);
    assert.equal((JSON.parse(allowed.body) as { result: { tools: unknown[] } }).result.tools.length, 9, 'a valid 2026-07-28 request is answered');
    assert.equal((await post({})).status, 401);
    assert.equal((await post({ authorization: 'Bearer wrong' })).status, 401);
    assert.equal((await post({ authorization: `Bearer ${TOKEN}`, origin: `http://127.0.0.1:${http.port}` })).status, 403);
    assert.equal((await post({ authorization: `Bearer ${TOKEN}`, 'content-type': 'text/plain' })).status, 415);
  });

  test('no stdio connection reported a problem', () => {
    assert.deepEqual(stdioProblems, []);
  });
});

describe('the built xos-mcp over stdio', () => {
  const root = join(import.meta.dirname, '..', '..');
  // `auto` probes with a disposable xos-mcp first (the SDK's stdio probe), then starts the one it keeps.
  for (const [negotiation, era] of [['legacy', 'legacy'], ['modern', 'modern'], ['auto', 'modern']] as const) {
    test(`a client that asks for ${negotiation} gets the ${era} era; the schema rule and a query answer`, async () => {
      const dir = await tempDir('xos-mcp-eras');
      try {
        const { client, call, close } = await connectCommand(process.execPath, [join(root, 'bin', 'xos-mcp.mjs')], { XDG_DATA_HOME: dir.path }, negotiation, `cli-${negotiation}`);
        try {
          assert.equal(client.getProtocolEra(), era);
          assert.equal((await client.listTools()).tools.length, 9);
          assert.deepEqual(await call('xos_query', { context: 'person_list', query: LIST_QUERY }), { text: SCHEMA_FIRST[era], isError: true });
          const { handle } = JSON.parse((await call('xos_schema')).text) as { handle: string };
          assert.deepEqual(await call('xos_query', { context: 'person_list', query: LIST_QUERY, handle }),
            { text: 'All data was successfully displayed in the UI. (240 records of person_list.)', isError: false });
        } finally {
          await close();
        }
      } finally {
        await dir.remove();
      }
    });
  }
});
