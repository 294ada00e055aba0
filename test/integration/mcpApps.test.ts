// Inline cards (MCP Apps) through a real SDK client over the loopback Streamable HTTP endpoint,
// a real backend (demo CRM with fields kept from the agent) and the real Board state: the four
// tools that show something link the card's ui:// resource, the resource is a self-contained
// HTML page, and a result carries its card data in `_meta["xos/card"]` — policy-redacted,
// small — while the text the model reads stays exactly what it was.
//   node --test test/integration/mcpApps.test.ts
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { embeddedClient } from '../../src/graphql/client.ts';
import { BoardState } from '../../src/board/state.ts';
import { startMcpHttpServer, type McpHttpServer } from '../../src/mcp/http.ts';
import { CARD_URI } from '../../src/mcp/apps/card.ts';
import { CARD_META_KEY, type Card, type CardOf } from '../../src/mcp/apps/cardTypes.ts';
import type { Ast } from '../../src/ast/schema.ts';
import type { XosDeps } from '../../src/mcp/ports.ts';
import type { Confirmer, Mailer, SaveAnswer, SendAnswer } from '../../src/core/domain.ts';
import { buildCardBundle } from '../support/cardBundle.ts';
import { connectHttp, ERAS } from '../support/mcpClient.ts';

const TOKEN = 'mcp-apps-test-token-0123456789';
const CARD_TOOLS = ['xos_query', 'xos_render', 'xos_ui_change_required', 'xos_mail_compose'];
/** The tools that take xos_schema's handle. */
const HANDLE_TOOLS = ['xos_query', 'xos_render', 'xos_ui_change_required', 'xos_ui_save'];
// The agent's list_fields once city is hidden: it selects neither hidden fields nor more.
const LIST_QUERY = '{ person_list { id firstname lastname email age net_worth } }';
const DETAIL_QUERY = '{ person_detail(id: "1") { id firstname lastname email phone street zip age net_worth status birthday active } }';

/** The demo CRM with fields kept from the agent, one of them a list column (city). */
function guardedApp(): Ast {
  const ast = demoApp();
  ast.entities.person.fields.city.agent = 'hidden';
  ast.entities.person.fields.notes.agent = 'hidden';
  ast.entities.person.fields.company.agent = 'hidden';
  ast.entities.person.fields.net_worth.agent = 'masked';
  ast.entities.person.fields.phone.agent = 'masked';
  // Room for values longer than a card cell.
  ast.entities.person.fields.firstname.max = 2000;
  ast.entities.person.fields.lastname.max = 2000;
  return ast;
}

const nobody: Confirmer = {
  async confirmSave(): Promise<SaveAnswer> {
    throw new Error('a card must never lead to a save');
  },
  async confirmSend(): Promise<SendAnswer> {
    throw new Error('a card must never lead to a send');
  },
};
const mailer: Mailer = {
  from: 'XOS CRM <crm@xos.example>',
  async send() {
    throw new Error('a card must never lead to a send');
  },
};

function cardOf(result: CallToolResult): Card | undefined {
  return result._meta?.[CARD_META_KEY] as Card | undefined;
}

/**
 * The result's `_meta` as XOS set it: under 2026-07-28 the SDK adds the server's identity under
 * the protocol's reserved prefix (io.modelcontextprotocol/serverInfo), which is not XOS's.
 */
function xosMeta(result: CallToolResult): Record<string, unknown> | undefined {
  const own = Object.entries(result._meta ?? {}).filter(([key]) => !key.startsWith('io.modelcontextprotocol/'));
  return own.length ? Object.fromEntries(own) : undefined;
}

function textOf(result: CallToolResult): string {
  return (result.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('');
}

for (const era of ERAS) describe(`inline cards in chat (MCP Apps), ${era} era`, () => {
  let backend: Backend;
  let board: BoardState;
  let server: McpHttpServer;
  let boardUrl: string | undefined;
  const clients: Client[] = [];

  before(async () => {
    await buildCardBundle();
    backend = await startBackend({ ast: guardedApp(), dsn: 'sqlite::memory:', seed: true });
    board = new BoardState();
    const client = embeddedClient(backend);
    const deps = (): XosDeps => ({ client, board, confirmer: nobody, mailer, locale: 'en', boardUrl: () => boardUrl });
    server = await startMcpHttpServer(deps, { token: TOKEN });
  });
  after(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await server?.close();
    await backend?.close();
  });

  async function connect(): Promise<Client> {
    const { client } = await connectHttp(server.url, TOKEN, era, 'mcp-apps-test');
    assert.equal(client.getProtocolEra(), era);
    clients.push(client);
    return client;
  }

  /** The handle each client's xos_schema returned: without an MCP session (2026-07-28) the data tools need it. */
  const handles = new Map<Client, string>();

  async function withSchema(): Promise<Client> {
    const client = await connect();
    const schema = await client.callTool({ name: 'xos_schema', arguments: {} }) as CallToolResult;
    assert.equal(schema.isError, undefined);
    handles.set(client, (schema.structuredContent as { handle: string }).handle);
    return client;
  }

  const call = async (client: Client, name: string, args: Record<string, unknown>) => {
    const handle = HANDLE_TOOLS.includes(name) ? handles.get(client) : undefined;
    return await client.callTool({ name, arguments: { ...args, ...(handle ? { handle } : {}) } }) as CallToolResult;
  };

  test('tools/list: exactly the four tools that show something link the card, with the legacy key too; still nine tools', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    assert.equal(tools.length, 9);
    const linked = tools.filter((t) => (t._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri !== undefined);
    assert.deepEqual(linked.map((t) => t.name), CARD_TOOLS);
    for (const tool of linked) {
      assert.equal((tool._meta!.ui as { resourceUri: string }).resourceUri, CARD_URI);
      assert.equal(tool._meta!['ui/resourceUri'], CARD_URI);
    }
    for (const tool of tools.filter((t) => !CARD_TOOLS.includes(t.name))) assert.equal(tool._meta, undefined, tool.name);
  });

  test('resources/list and resources/read: the card is self-contained HTML of the MCP Apps mimeType', async () => {
    const client = await connect();
    const { resources } = await client.listResources();
    const listed = resources.find((r) => r.uri === CARD_URI);
    assert.ok(listed, 'the card is listed');
    assert.equal(listed.mimeType, 'text/html;profile=mcp-app');

    const { contents } = await client.readResource({ uri: CARD_URI });
    assert.equal(contents.length, 1);
    const [content] = contents as Array<{ uri: string; mimeType: string; text: string }>;
    assert.equal(content.uri, CARD_URI);
    assert.equal(content.mimeType, 'text/html;profile=mcp-app');
    const html = content.text;
    assert.match(html, /^<!doctype html>/i);
    // Under default-src 'none' only inline script and style can run: nothing may be loaded.
    assert.doesNotMatch(html, /<script[^>]*\ssrc=/i);
    assert.doesNotMatch(html, /<link\b/i);
    assert.doesNotMatch(html, /\s(src|href)=["']?(https?:|\/\/)/i);
    assert.equal(html.match(/<script>/g)?.length, 1, 'one inline script');
    assert.equal(html.match(/<\/script>/gi)?.length, 1, 'nothing in the script ends the element early');
    const script = html.slice(html.indexOf('<script>') + 8, html.lastIndexOf('</script>'));
    assert.ok(script.length > 10_000, 'the bundled card script is inlined');
    assert.match(script, /ui\/initialize/, 'the script speaks the MCP Apps protocol');
    assert.match(script, /xos\/card/, 'the script reads the card from _meta');
    assert.doesNotMatch(script, /\bimport\s*\(|^\s*import\s/m, 'no module imports');
    assert.match(html, /var\(--vscode-foreground/, 'themed through VS Code variables');
  });

  test('xos_query of a list: the text is unchanged; _meta holds the count, ten rows, labels, no hidden field and masked values', async () => {
    boardUrl = undefined;
    const client = await withSchema();
    const result = await call(client, 'xos_query', { context: 'person_list', query: LIST_QUERY });
    assert.equal(result.isError, undefined);
    assert.equal(textOf(result), 'All data was successfully displayed in the UI. (240 records of person_list.)');
    assert.equal(result.structuredContent, undefined, 'card data never goes where the model reads it');
    assert.deepEqual(Object.keys(xosMeta(result) ?? {}), [CARD_META_KEY]);

    const card = cardOf(result) as CardOf<'list'>;
    assert.equal(card.kind, 'list');
    assert.equal(card.tool, 'xos_query');
    assert.equal(card.context, 'person_list');
    assert.equal(card.total, 240);
    assert.equal(card.rows.length, 10);
    assert.deepEqual(card.columns.map((c) => c.field), ['id', 'firstname', 'lastname', 'email', 'age', 'net_worth']);
    assert.deepEqual(card.columns.map((c) => c.label).slice(1, 3), ['First name', 'Last name'], 'labels in the Board locale');
    assert.deepEqual(card.open, { kind: 'reshow' });
    assert.ok(Buffer.byteLength(JSON.stringify(card)) <= 8 * 1024);

    // The Board has the hidden column; the card shows the same rows without it, masked values as •••.
    const records = board.list()!.source.first.records.slice(0, 10);
    const column = (field: string) => card.columns.findIndex((c) => c.field === field);
    assert.deepEqual(card.rows.map((row) => row[column('firstname')]), records.map((r) => r.firstname));
    assert.deepEqual(card.rows.map((row) => row[column('net_worth')]), records.map(() => '•••'));
    const cities = records.map((r) => r.city as string);
    assert.ok(cities.every((city) => typeof city === 'string' && city.length > 0), 'the Board holds the hidden city');
    const cells = card.rows.flat();
    for (const city of cities) assert.ok(!cells.includes(city), `hidden city ${city} is not in the card`);
    for (const r of records) assert.ok(!cells.includes(String(r.net_worth)), 'a masked value is not in the card');
    assert.ok(!JSON.stringify(card).includes('"city"'));
  });

  test('a record, then the agent\'s proposed changes old -> new; texts unchanged, no re-show of a proposal', async () => {
    boardUrl = undefined;
    const client = await withSchema();
    const loaded = await call(client, 'xos_query', { context: 'person_detail', query: DETAIL_QUERY });
    assert.equal(textOf(loaded), 'All data was successfully displayed in the UI. (1 record of person_detail.)');
    const record = cardOf(loaded) as CardOf<'record'>;
    assert.equal(record.kind, 'record');
    assert.deepEqual(record.open, { kind: 'reshow' });
    const fields = new Map(record.fields.map((f) => [f.field, f.value]));
    assert.equal(fields.get('firstname'), board.snapshot().detail!.record.firstname);
    assert.equal(fields.get('phone'), '•••');
    assert.equal(fields.get('net_worth'), '•••');
    for (const hidden of ['city', 'notes', 'company']) assert.ok(!fields.has(hidden), `${hidden} is not in the card`);

    const before = board.snapshot().detail!.record;
    board.edit('city', 'SECRET-CITY-4471');
    const proposed = await call(client, 'xos_ui_change_required', { context: 'person_detail', changes: { lastname: 'Schmidt', age: 35 } });
    assert.equal(textOf(proposed), `Preview on the Board, nothing saved yet. Pending changes of person 1: lastname: ${JSON.stringify(before.lastname)} -> "Schmidt"; age: ${before.age} -> 35. `
      + 'Ask the person whether to save; call xos_ui_save only after they said so.');
    const changes = cardOf(proposed) as CardOf<'changes'>;
    assert.equal(changes.kind, 'changes');
    assert.deepEqual(changes.changes.map((c) => [c.field, c.from, c.to]), [['lastname', before.lastname, 'Schmidt'], ['age', String(before.age), '35']]);
    assert.deepEqual(changes.open, { kind: 'none' }, 'a proposal is not shown again from a card');
    assert.ok(!JSON.stringify(proposed).includes('SECRET-CITY-4471'));
    assert.equal(board.snapshot().detail!.record.lastname, before.lastname, 'nothing was saved');
  });

  test('with a browser Board URL the card opens it; a mail draft shows to, subject and the beginning of the body', async () => {
    boardUrl = 'http://127.0.0.1:4711/board';
    const client = await withSchema();
    const list = cardOf(await call(client, 'xos_query', { context: 'person_list', query: LIST_QUERY }))!;
    assert.deepEqual(list.open, { kind: 'url', url: 'http://127.0.0.1:4711/board' });

    const body = `Hello Max,\n${'lorem ipsum '.repeat(500)}`;
    const composed = await call(client, 'xos_mail_compose', { to: 'Max Mustermann <max@example.org>', subject: 'Our meeting', body });
    assert.equal(textOf(composed), 'Draft on the Board, not sent: To: Max Mustermann <max@example.org>; Subject: Our meeting. '
      + 'Ask the person whether to send it; call xos_mail_send only after they said so.');
    const mail = cardOf(composed) as CardOf<'mail'>;
    assert.equal(mail.kind, 'mail');
    assert.equal(mail.to, 'Max Mustermann <max@example.org>');
    assert.equal(mail.subject, 'Our meeting');
    assert.ok(mail.body.startsWith('Hello Max,\nlorem ipsum'));
    assert.ok([...mail.body].length <= 600, 'the body is a preview');
    assert.deepEqual(mail.open, { kind: 'url', url: 'http://127.0.0.1:4711/board' });

    boardUrl = 'javascript:alert(1)';
    const notWeb = cardOf(await call(client, 'xos_mail_compose', { to: 'max@example.org', subject: 'Hi', body: 'Hi' }))!;
    assert.deepEqual(notWeb.open, { kind: 'none' }, 'only an http(s) Board URL is offered');
    boardUrl = undefined;
  });

  test('xos_render: long values are cut, ten rows of twelve, the card stays under 8 KB', async () => {
    const client = await withSchema();
    const long = '😀'.repeat(400);
    const records = Array.from({ length: 12 }, (_, i) => ({ id: i + 1, firstname: `${long}${i}`, lastname: long, age: 30 + i }));
    const result = await call(client, 'xos_render', { context: 'person_list', json: JSON.stringify(records) });
    assert.equal(textOf(result), 'All data was successfully displayed in the UI. (12 records of person_list.)');
    const card = cardOf(result) as CardOf<'list'>;
    assert.equal(card.total, 12);
    assert.equal(card.rows.length, 10);
    assert.equal(card.tool, 'xos_render');
    for (const cell of card.rows.flat()) assert.ok([...cell].length <= 80, 'cells are cut');
    assert.ok(Buffer.byteLength(JSON.stringify(card)) <= 8 * 1024);
  });

  test('a refused call carries no card', async () => {
    const client = await withSchema();
    const refused = await call(client, 'xos_query', { context: 'person_list', query: '{ person_list { id city } }' });
    assert.equal(refused.isError, true);
    assert.equal(xosMeta(refused), undefined);
  });
});
