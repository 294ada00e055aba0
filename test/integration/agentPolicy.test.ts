// Fields the AST keeps from the agent: a full workflow over the demo CRM with hidden and
// masked fields, through a real MCP client, a real backend and a real SMTP server. Every
// tool reply is kept whole (content, structuredContent, isError) and scanned: no hidden or
// masked value, and no hidden field's name, may appear in any of them. The person still
// sees and edits those fields on the Board, and their edits are stored.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { embeddedClient } from '../../src/graphql/client.ts';
import { BoardState } from '../../src/board/state.ts';
import { ContactDirectory } from '../../src/contacts/directory.ts';
import { xosRecordProviders } from '../../src/contacts/xosRecords.ts';
import { createSmtpMailer } from '../../src/mail/smtp.ts';
import { buildSchemaView, exampleQuery } from '../../src/ast/view.ts';
import { formatProblem, validateAst, type AstProblem } from '../../src/ast/validate.ts';
import type { Ast } from '../../src/ast/schema.ts';
import type { XosDeps } from '../../src/mcp/ports.ts';
import type { Confirmer, SaveAnswer, SendAnswer } from '../../src/core/domain.ts';
import { connectInMemory, type InMemoryMcp } from '../support/mcpClient.ts';
import { startTestSmtpServer, testCertificate, type TestSmtpServer } from '../support/smtp.ts';

/** The demo CRM with fields kept from the agent: hidden ones (and an inverse list through a hidden ref) and masked ones. */
function guardedApp(): Ast {
  const ast = demoApp();
  ast.entities.person.fields.notes.agent = 'hidden';
  ast.entities.person.fields.company.agent = 'hidden';
  ast.entities.company.fields.revenue.agent = 'hidden';
  ast.entities.person.fields.net_worth.agent = 'masked';
  ast.entities.person.fields.phone.agent = 'masked';
  return ast;
}

/** Values that must never reach the agent. */
const SECRETS = {
  notes: 'NOTE-SECRET-4471 call only after 6pm',
  newNotes: 'NOTE-SECRET-NEW-5512',
  theirNotes: 'NOTE-SECRET-THEIRS-8803',
  netWorth: '987654.32',
  newNetWorth: '111222.33',
  theirNetWorth: '444555.66',
  phone: '+49 171 5550199',
  revenue: '7654321.00',
};
/** Names of hidden fields (and the inverse list through the hidden ref) that no reply may contain. */
const HIDDEN_NAMES = ['notes', 'revenue', 'employees'];

class Person implements Confirmer {
  saveAnswer: SaveAnswer = 'save';
  async confirmSave(): Promise<SaveAnswer> {
    return this.saveAnswer;
  }
  async confirmSend(): Promise<SendAnswer> {
    return 'send';
  }
}

describe('fields kept from the agent (agent: hidden / masked)', () => {
  let backend: Backend;
  let smtp: TestSmtpServer;
  let board: BoardState;
  let mcp: InMemoryMcp;
  const person = new Person();
  /** Every reply of the workflow with the arguments that produced it. */
  const replies: Array<{ tool: string; args: Record<string, unknown>; whole: string; text: string; isError: boolean }> = [];

  async function call(tool: string, args: Record<string, unknown> = {}) {
    const result = await mcp.client.callTool({ name: tool, arguments: args });
    const text = (result.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('');
    const reply = { tool, args, whole: JSON.stringify(result), text, isError: result.isError === true };
    replies.push(reply);
    return reply;
  }

  async function write(entity: string, id: string, set: Record<string, unknown>): Promise<void> {
    const current = await backend.api.run({ query: `query($id: ID!) { ${entity}_detail(id: $id) { version } }`, variables: { id } });
    const version = (current.data as Record<string, { version: number }>)[`${entity}_detail`].version;
    const result = await backend.api.run({
      query: `mutation($id: ID!, $version: Int!, $set: ${entity}_set_input!) { update_${entity}(id: $id, version: $version, set: $set) { id } }`,
      variables: { id, version, set },
    });
    assert.equal(result.errors, undefined);
  }

  async function stored(id: string): Promise<Record<string, unknown>> {
    const result = await backend.api.run({ query: `query($id: ID!) { person_detail(id: $id) { notes net_worth phone lastname city version } }`, variables: { id } });
    return JSON.parse(JSON.stringify((result.data as Record<string, unknown>).person_detail));
  }

  before(async () => {
    backend = await startBackend({ ast: guardedApp(), dsn: 'sqlite::memory:', seed: true });
    await write('person', '1', { notes: SECRETS.notes, net_worth: SECRETS.netWorth, phone: SECRETS.phone });
    const company = await backend.api.run({ query: '{ person_detail(id: "1") { company { id } } }' });
    const companyId = ((company.data as any).person_detail.company as { id: string }).id;
    await write('company', companyId, { revenue: SECRETS.revenue });
    const certificate = await testCertificate();
    smtp = await startTestSmtpServer({ certificate });
    const client = embeddedClient(backend);
    board = new BoardState();
    const deps: XosDeps = {
      client,
      board,
      confirmer: person,
      contacts: new ContactDirectory(xosRecordProviders(client)),
      mailer: createSmtpMailer({ host: '127.0.0.1', port: smtp.port, security: 'starttls', user: '', from: 'XOS CRM <crm@xos.example>', ca: certificate.cert }),
    };
    mcp = await connectInMemory(deps, 'policy');
  });
  after(async () => {
    await smtp?.close();
    await backend?.close();
  });

  test('the AST accepts agent: hidden and masked, and refuses them on id', () => {
    assert.equal(validateAst(guardedApp()).ok, true);
    const bad = guardedApp() as any;
    bad.entities.person.fields.id.agent = 'hidden';
    bad.entities.person.fields.city.agent = 'secret';
    const result = validateAst(bad);
    assert.equal(result.ok, false);
    // Each problem at its place: an unknown policy and a policy on id.
    assert.deepEqual((result as { problems: AstProblem[] }).problems.map(formatProblem), [
      'entities.person.fields.city.agent: expected one of "hidden", "masked", got "secret"',
      'entities.person.fields.id.agent: the agent names records by their id, so "id" cannot be hidden or masked: remove "agent"',
    ]);
  });

  test('xos_schema: hidden fields are gone, masked ones are marked and not editable', async () => {
    const schema = await call('xos_schema');
    assert.equal(schema.isError, false);
    const view = JSON.parse(schema.text);
    const detail = view.contexts.person_detail;
    assert.deepEqual(detail.list_fields, ['id', 'firstname', 'lastname', 'email', 'phone', 'street', 'zip', 'city', 'age', 'net_worth', 'status', 'birthday', 'active']);
    assert.equal(detail.fields.net_worth.masked, true);
    assert.equal(detail.fields.phone.masked, true);
    assert.equal(detail.fields.city.masked, undefined);
    assert.ok(!detail.editable.includes('net_worth') && !detail.editable.includes('phone') && !detail.editable.includes('notes'));
    assert.ok(detail.editable.includes('lastname'));
    assert.equal(detail.navigate, undefined, 'the company link reads the hidden ref: nothing to follow');
    assert.ok(!view.contexts.company_detail.list_fields.includes('employees'), 'the inverse list of a hidden ref is hidden too');
    assert.ok(!view.relations.some((r: { entity: string; field: string }) => r.field === 'company' && r.entity === 'person'));
    assert.equal(detail.query, '{ person_detail(id: "1") { id firstname lastname email phone street zip city age net_worth status birthday active } }');
  });

  test('the Board shows the hidden and masked values the agent\'s query leaves out or never reads', async () => {
    const ast = guardedApp();
    const listed = await call('xos_query', { context: 'person_list', query: exampleQuery(ast, 'person_list') });
    assert.equal(listed.isError, false, listed.text);
    const companies = await call('xos_query', { context: 'company_list', query: exampleQuery(ast, 'company_list') });
    assert.equal(companies.isError, false, companies.text);
    assert.ok(board.shownRecords().some((row) => row.revenue === SECRETS.revenue), 'the hidden revenue column is on the Board');

    const loaded = await call('xos_query', { context: 'person_detail', query: '{ person_detail(id: "1") { id firstname lastname email phone street zip city age net_worth status birthday active } }' });
    assert.equal(loaded.isError, false, loaded.text);
    const record = board.snapshot().detail!.record;
    assert.equal(record.notes, SECRETS.notes);
    assert.equal(record.net_worth, SECRETS.netWorth);
    assert.equal(record.phone, SECRETS.phone);
    assert.equal(typeof (record.company as { id: string }).id, 'string', 'the hidden ref is loaded for the person');
  });

  test('the agent can neither select, filter, sort, render nor propose a kept field', async () => {
    const selects = await call('xos_query', { context: 'person_detail', query: '{ person_detail(id: "1") { id firstname lastname email phone street zip city age net_worth status birthday active notes } }' });
    assert.equal(selects.isError, true);
    assert.match(selects.text, /not in list_fields: notes/);
    for (const query of [
      '{ person_list(where: { net_worth: { _gt: "900000" } }) { id firstname lastname email city age net_worth } }',
      '{ person_list(order_by: { net_worth: desc }) { id firstname lastname email city age net_worth } }',
      '{ person_list(where: { _or: [{ notes: { _ilike: "%SECRET%" } }] }) { id firstname lastname email city age net_worth } }',
      '{ person_list(where: { company: { revenue: { _gt: "1" } } }) { id firstname lastname email city age net_worth } }',
    ]) {
      const reply = await call('xos_query', { context: 'person_list', query });
      assert.equal(reply.isError, true, query);
      // Hidden, masked and unknown names are refused in the same words: a refusal tells nothing about what exists.
      assert.match(reply.text, /^(net_worth|notes|company) is not a field of person you can filter or sort by; use the fields xos_schema lists/);
    }
    assert.match((await call('xos_render', { context: 'person_list', json: JSON.stringify([{ id: '1', net_worth: '1.00' }]) })).text, /unknown fields net_worth/);
    assert.match((await call('xos_render', { context: 'person_detail', json: JSON.stringify({ id: '1', notes: 'x' }) })).text, /unknown fields notes/);
    // Back to the stored record: the rendered attempts did not replace it (they were refused).
    assert.equal(board.snapshot().detail!.record.notes, SECRETS.notes);
    for (const changes of [{ notes: 'x' }, { net_worth: '1.00' }, { phone: '+49 30 1234567' }, { company: '2' }]) {
      const reply = await call('xos_ui_change_required', { context: 'person_detail', changes: JSON.stringify(changes) });
      assert.equal(reply.isError, true, JSON.stringify(changes));
      assert.match(reply.text, /Not editable in person_detail/);
    }
  });

  test('the person edits kept fields; previews, saves and conflicts never echo them', async () => {
    const before = await stored('1');
    const proposed = await call('xos_ui_change_required', { context: 'person_detail', changes: JSON.stringify({ lastname: 'Schmidt' }) });
    assert.equal(proposed.isError, false, proposed.text);
    board.edit('notes', SECRETS.newNotes);
    board.edit('net_worth', SECRETS.newNetWorth);
    const again = await call('xos_ui_change_required', { context: 'person_detail', changes: JSON.stringify({ city: 'Bonn' }) });
    assert.equal(again.isError, false, again.text);
    assert.match(again.text, /Pending changes of person 1: lastname: "Mustermann" -> "Schmidt"; city: "Berlin" -> "Bonn"\. /);

    const saved = await call('xos_ui_save');
    assert.equal(saved.isError, false, saved.text);
    assert.match(saved.text, /Stored: lastname: "Schmidt"; city: "Bonn"; net_worth: •••\.$/);
    const after = await stored('1');
    assert.deepEqual(after, { ...before, notes: SECRETS.newNotes, net_worth: SECRETS.newNetWorth, lastname: 'Schmidt', city: 'Bonn', version: (before.version as number) + 1 });

    // Someone else stores the kept fields while the person edits them again: a conflict the agent hears of without values.
    await write('person', '1', { notes: SECRETS.theirNotes, net_worth: SECRETS.theirNetWorth });
    board.edit('notes', `${SECRETS.newNotes}-2`);
    board.edit('net_worth', '222333.44');
    const conflict = await call('xos_ui_save');
    assert.equal(conflict.isError, true);
    assert.match(conflict.text, /Both changed net_worth: loaded •••, stored now •••, pending •••/);
    const blocked = await call('xos_ui_save');
    assert.match(blocked.text, /Not saved: 2 fields conflict with the version someone else stored \(net_worth\)/);
    board.settle('notes', 'theirs');
    board.settle('net_worth', 'theirs');

    // An invalid value the person typed into a masked field: the agent learns which field, never the value.
    board.edit('net_worth', 'NOT-A-NUMBER-3141');
    const invalid = await call('xos_ui_save');
    assert.equal(invalid.isError, true);
    assert.match(invalid.text, /person\.net_worth has an invalid value \(only the person sees it, on the Board\)/);
    board.edit('notes', 'x'.repeat(4001));
    board.revert('net_worth');
    const tooLong = await call('xos_ui_save');
    assert.match(tooLong.text, /a field only the person sees on the Board has an invalid value/);
    board.discard();
  });

  test('contacts and mail: masked phone numbers are neither searched nor returned', async () => {
    const found = await call('xos_contacts', { query: 'Schmidt' });
    assert.equal(found.isError, false, found.text);
    assert.match(found.whole, /Schmidt/);
    assert.doesNotMatch((await call('xos_contacts', { query: '5550199' })).whole, /Schmidt/, 'a masked field is not searched');
    const draft = await call('xos_mail_compose', { to: 'Max Schmidt', subject: 'Termin', body: 'Hallo Max' });
    assert.equal(draft.isError, false, draft.text);
    const sent = await call('xos_mail_send');
    assert.equal(sent.isError, false, sent.text);
    assert.equal(smtp.received.length, 1);
    await call('xos_system_status');
  });

  test('no reply of the whole workflow carries a kept value or a hidden field\'s name', () => {
    assert.ok(replies.length >= 27, `the workflow made ${replies.length} calls`);
    const values = [...Object.values(SECRETS), `${SECRETS.newNotes}-2`, '222333.44', 'NOT-A-NUMBER-3141', '5550199', 'xxxxxxxxxx'];
    for (const reply of replies) {
      for (const value of values) {
        // The one value the agent typed itself (a phone number to search for) may come back in its own echo.
        if (JSON.stringify(reply.args).includes(value)) continue;
        assert.ok(!reply.whole.includes(value), `${reply.tool} ${JSON.stringify(reply.args)} replied with the kept value ${value}: ${reply.text}`);
      }
      if (HIDDEN_NAMES.some((name) => JSON.stringify(reply.args).includes(name))) continue;
      for (const name of HIDDEN_NAMES) {
        assert.ok(!new RegExp(`\\b${name}\\b`).test(reply.whole), `${reply.tool} ${JSON.stringify(reply.args)} named the hidden field ${name}: ${reply.text}`);
      }
    }
    // The schema view the tool builds is the same one the unit tests see, after the handle (random, no data).
    const { handle, ...view } = JSON.parse(replies[0].text) as { handle: string };
    assert.match(handle, /^xos_h_[A-Za-z0-9_-]{36}$/);
    assert.deepEqual(view, buildSchemaView(guardedApp()));
  });
});
