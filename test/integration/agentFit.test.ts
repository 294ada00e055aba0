// How well XOS fits an agent's context window, measured with a real tokenizer (gpt-tokenizer,
// o200k_base, the encoding of current OpenAI models; Claude's tokenizer is not public and
// counts in the same range for JSON): the schema of the demo CRM and of an app with 25
// contexts, every reply of a whole workflow under 8 KB, and a refusal for every rule that
// names the next call to make.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { encode } from 'gpt-tokenizer';
import type { Ast } from '../../src/ast/schema.ts';
import { validateAst } from '../../src/ast/validate.ts';
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { embeddedClient } from '../../src/graphql/client.ts';
import { BoardState } from '../../src/board/state.ts';
import { ContactDirectory } from '../../src/contacts/directory.ts';
import { xosRecordProviders } from '../../src/contacts/xosRecords.ts';
import { createSmtpMailer } from '../../src/mail/smtp.ts';
import type { XosDeps } from '../../src/mcp/ports.ts';
import type { Confirmer, SendAnswer } from '../../src/core/domain.ts';
import { connectInMemory, type InMemoryMcp } from '../support/mcpClient.ts';
import { startTestSmtpServer, testCertificate, type TestSmtpServer } from '../support/smtp.ts';

const REPLY_LIMIT = 8 * 1024;
const DEMO_SCHEMA_TOKENS = 2_500;
const LARGE_SCHEMA_TOKENS = 8_000;

/** A business app of 12 entities with a list and a detail context each, and one more list: 25 contexts. */
function largeApp(): Ast {
  const names = ['customer', 'contact', 'lead', 'opportunity', 'quote', 'order', 'invoice', 'product', 'supplier', 'ticket', 'project', 'task'];
  const label = (en: string, de: string) => ({ en, de });
  const entities: Ast['entities'] = {};
  const contexts: Ast['contexts'] = {};
  names.forEach((name, i) => {
    const next = names[(i + 1) % names.length];
    entities[name] = {
      label: label(name, `${name} (de)`),
      fields: {
        id: { type: 'id' },
        title: { type: 'string', required: true, max: 120, label: label('Title', 'Titel') },
        email: { type: 'email', label: label('Email', 'E-Mail') },
        status: { type: 'enum', values: ['new', 'active', 'paused', 'closed'], label: label('Status', 'Status'),
          value_labels: { new: label('New', 'Neu'), active: label('Active', 'Aktiv'), paused: label('Paused', 'Pausiert'), closed: label('Closed', 'Geschlossen') } },
        amount: { type: 'decimal', scale: 2, label: label('Amount', 'Betrag') },
        due: { type: 'date', label: label('Due', 'Fällig') },
        priority: { type: 'int', min: 1, max: 5, label: label('Priority', 'Priorität') },
        done: { type: 'bool', label: label('Done', 'Erledigt') },
        notes: { type: 'text', max: 4000, label: label('Notes', 'Notizen') },
        owner: { type: 'ref', entity: next, inverse: `${name}_items`, label: label('Owner', 'Verantwortlich') },
      },
    };
    contexts[`${name}_list`] = {
      kind: 'list', entity: name, label: label(`${name}s`, `${name} (Liste)`),
      list_fields: ['id', 'title', 'status', 'amount', 'due', 'owner'],
      prompts: [label(`Show ${name}s newest first.`, `Zeige ${name} neueste zuerst.`)],
      navigate: { row: { context: `${name}_detail`, params: { id: 'id' } } },
    };
    contexts[`${name}_detail`] = {
      kind: 'detail', entity: name, label: label(name, `${name} (Detail)`),
      list_fields: ['id', 'title', 'email', 'status', 'amount', 'due', 'priority', 'done', 'notes', 'owner'],
      editable: ['title', 'email', 'status', 'amount', 'due', 'priority', 'done', 'notes', 'owner'],
      navigate: { owner: { context: `${next}_detail`, params: { id: 'owner.id' } } },
    };
  });
  contexts.open_tickets = { kind: 'list', entity: 'ticket', label: label('Open tickets', 'Offene Tickets'), list_fields: ['id', 'title', 'priority', 'due'] };
  return { xos: '1', app: 'large', locales: ['en', 'de'], prompts: [label('Answer in the user\'s language.', 'Antworte in der Sprache des Benutzers.')], entities, contexts };
}

class Person implements Confirmer {
  async confirmSave(): Promise<'save'> {
    return 'save';
  }
  async confirmSend(): Promise<SendAnswer> {
    return 'send';
  }
}

describe('agent fit', () => {
  let backend: Backend;
  let mcp: InMemoryMcp;
  let smtp: TestSmtpServer;

  before(async () => {
    backend = await startBackend({ ast: demoApp(), dsn: 'sqlite::memory:', seed: true });
    const certificate = await testCertificate();
    smtp = await startTestSmtpServer({ certificate });
    const client = embeddedClient(backend);
    const deps: XosDeps = {
      client, board: new BoardState(), confirmer: new Person(), contacts: new ContactDirectory(xosRecordProviders(client)),
      mailer: createSmtpMailer({ host: '127.0.0.1', port: smtp.port, security: 'starttls', user: '', from: 'XOS <crm@xos.example>', ca: certificate.cert }),
    };
    mcp = await connectInMemory(deps, 'fit');
  });
  after(async () => {
    await smtp?.close();
    await backend?.close();
  });

  test('the schema: the demo under 2,500 tokens, an app with 25 contexts under 8,000', async () => {
    const demo = await mcp.call('xos_schema');
    const demoTokens = encode(demo.text).length;
    const large = largeApp();
    assert.equal(validateAst(large).ok, true);
    assert.equal(Object.keys(large.contexts).length, 25);
    const largeBackend = await startBackend({ ast: large, dsn: 'sqlite::memory:' });
    try {
      const client = embeddedClient(largeBackend);
      const largeMcp = await connectInMemory({ client, board: new BoardState(), confirmer: new Person() }, 'large');
      const schema = await largeMcp.call('xos_schema');
      const largeTokens = encode(schema.text).length;
      console.log(`xos_schema tokens (o200k_base): demo ${demoTokens} (${demo.text.length} characters), 25 contexts ${largeTokens} (${schema.text.length} characters)`);
      assert.ok(demoTokens < DEMO_SCHEMA_TOKENS, `the demo's schema is ${demoTokens} tokens`);
      assert.ok(largeTokens < LARGE_SCHEMA_TOKENS, `the schema of 25 contexts is ${largeTokens} tokens`);
    } finally {
      await largeBackend.close();
    }
  });

  test('every reply of a whole workflow stays under 8 KB', async () => {
    const replies = [
      await mcp.call('xos_schema'),
      await mcp.call('xos_system_status'),
      await mcp.call('xos_query', { context: 'person_list', query: '{ person_list { id firstname lastname email city age net_worth } }' }),
      await mcp.call('xos_query', { context: 'deal_list', query: '{ deal_list { id title amount stage probability close_date company { id name } contact { id lastname } } }' }),
      await mcp.call('xos_query', { context: 'person_detail', query: '{ person_detail(id: "1") { id firstname lastname email phone street zip city age net_worth status birthday active notes company { id name } } }' }),
      await mcp.call('xos_ui_change_required', { context: 'person_detail', changes: JSON.stringify({ notes: 'x'.repeat(4000) }) }),
      await mcp.call('xos_ui_save'),
      await mcp.call('xos_render', { context: 'person_list', json: JSON.stringify(Array.from({ length: 500 }, (_, i) => ({ id: String(i), lastname: `Name ${i}` }))) }),
      // A search that matches many people: the reply is bounded, not the whole directory.
      await mcp.call('xos_contacts', { query: 'e' }),
      await mcp.call('xos_mail_compose', { to: 'Max Mustermann', subject: 'Termin', body: 'Hallo '.repeat(5000) }),
      await mcp.call('xos_mail_send'),
    ];
    for (const reply of replies) {
      const bytes = Buffer.byteLength(reply.text);
      assert.ok(bytes <= REPLY_LIMIT, `a reply of ${bytes} bytes: ${reply.text.slice(0, 200)}`);
    }
    assert.equal(smtp.received.length, 1, 'the 30,000-character mail went out once through the real SMTP server');
  });

  test('every refusal names the next call to make', async () => {
    const fresh = await connectInMemory({ client: embeddedClient(backend), board: new BoardState(), confirmer: new Person() }, 'rules');
    const refusals: Array<[string, Record<string, unknown>]> = [
      ['xos_query', { context: 'person_list', query: '{ person_list { id } }' }],
      ['xos_render', { context: 'person_list', json: '[]' }],
      ['xos_ui_change_required', { context: 'person_detail', changes: '{"lastname":"X"}' }],
      ['xos_ui_save', {}],
      ['xos_contacts', { query: 'Max' }],
      ['xos_mail_compose', { to: 'max@nordlicht.example', subject: 's', body: 'b' }],
      ['xos_mail_send', {}],
    ];
    const loaded: Array<[string, Record<string, unknown>]> = [
      ['xos_query', { context: 'nobody_list', query: '{ nobody_list { id } }' }],
      ['xos_query', { context: 'person_list', query: '{ person_list { id } }' }],
      ['xos_query', { context: 'person_list', query: 'mutation { delete_person(id: "1", version: 1) }' }],
      ['xos_query', { context: 'person_list', query: '{ person_list { id firstname lastname email city age net_worth' }],
      ['xos_render', { context: 'person_list', json: '{not json' }],
      ['xos_render', { context: 'person_list', json: '[{"shoe_size": 44}]' }],
      ['xos_ui_change_required', { context: 'person_detail', changes: '{"lastname":"X"}' }],
      ['xos_ui_change_required', { context: 'person_list', changes: '{"lastname":"X"}' }],
      ['xos_ui_save', {}],
    ];
    const replies: Array<{ call: string; text: string; isError: boolean }> = [];
    for (const [tool, args] of refusals) replies.push({ call: `${tool} before xos_schema`, ...(await fresh.call(tool, args)) });
    await fresh.call('xos_schema');
    for (const [tool, args] of loaded) replies.push({ call: `${tool} ${JSON.stringify(args)}`, ...(await fresh.call(tool, args)) });
    const unnamed = replies.filter((r) => !r.isError || !/\bxos_[a-z_]+\b/.test(r.text)).map((r) => `${r.call}: ${r.text}`);
    assert.deepEqual(unnamed, []);
  });
});
