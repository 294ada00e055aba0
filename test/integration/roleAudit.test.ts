// The audit trail read through a role names no field the role may not read: not in an entry's
// changes, and not in its approval text ("Save confirmed by the person (title, secret)" is read
// as "Save confirmed by the person (title)"), whatever front end wrote it and wherever it was cut.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { astFromObject } from '../../src/ast/load.ts';
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import type { Person } from '../../src/backend/people/person.ts';
import { approvalShownTo, approvalText, MAX_APPROVAL_LENGTH } from '../../src/backend/storage/audit.ts';
import { approvedText } from '../../src/core/approvalCommit.ts';
import { confirmedText } from '../../src/core/asking.ts';

const ast = astFromObject({
  xos: '1',
  app: 'team',
  locales: ['en'],
  entities: {
    deal: { fields: { id: { type: 'id' }, title: { type: 'string', required: true }, secret: { type: 'string' }, secretary: { type: 'string' } } },
  },
  contexts: {
    deal_list: { kind: 'list', entity: 'deal', list_fields: ['id', 'title'] },
    deal_detail: { kind: 'detail', entity: 'deal', list_fields: ['id', 'title', 'secret', 'secretary'], editable: ['title', 'secret', 'secretary'] },
  },
  roles: {
    Viewer: { contexts: { '*': ['read'] }, fields: { 'deal.secret': [] } },
  },
});
const viewer: Person = { name: 'vera', role: 'Viewer' };
let backend: Backend;

before(async () => {
  backend = await startBackend({ ast, dsn: 'sqlite::memory:' });
});
after(async () => {
  await backend?.close();
});

async function run(query: string, person?: Person, approval?: string): Promise<any> {
  const result = await backend.api.run({ query, ...(person ? { person } : {}), ...(approval ? { extensions: { xos: { path: 'board', approval } } } : {}) });
  assert.equal(result.errors, undefined, JSON.stringify(result.errors));
  return JSON.parse(JSON.stringify(result.data));
}

test('a role reads approval texts without the fields it may not read', async () => {
  const { insert_deal: deal } = await run('mutation { insert_deal(object: { title: "Deal", secret: "s0", secretary: "Sue" }) { id version } }', undefined, confirmedText('Create', [{ field: 'title' }, { field: 'secret' }, { field: 'secretary' }]));
  let version = deal.version as number;
  const save = async (set: string, approval: string) => {
    version = (await run(`mutation { update_deal(id: "${deal.id}", version: ${version}, set: { ${set} }) { version } }`, undefined, approval)).update_deal.version;
  };
  await save('title: "Deal 2", secret: "s1"', confirmedText('Save', [{ field: 'title' }, { field: 'secret' }]));
  await save('secret: "s2"', confirmedText('Save', [{ field: 'secret' }]));
  await save('title: "Deal 3", secret: "s3"', approvedText('Save', 'AbCdEfGhIjKlMnOpQrStUv', ['secret', 'title']));
  // A list cut at the length limit: the last name may be cut too ("secre…" of secret), never shown.
  const long = approvalText(`Undo of audit entry ${'9'.repeat(MAX_APPROVAL_LENGTH - 70)} confirmed by the person`, ['title', 'secretary', 'secret']);
  assert.ok(long.length === MAX_APPROVAL_LENGTH && !long.endsWith(')'), long);
  await save('title: "Deal 4", secretary: "Sam", secret: "s4"', long);
  await save('secret: "s5"', 'Changed the secret by hand');

  const all = await run(`{ xos_audit(entity: "deal", id: "${deal.id}") { approval changes { field } } }`);
  assert.ok(all.xos_audit.some((e: any) => /\bsecret\b/.test(e.approval ?? '')), 'the trail does name the field to those who read it');
  const read = await run(`{ xos_audit(entity: "deal", id: "${deal.id}") { approval changes { field } } }`, viewer);
  const approvals = read.xos_audit.map((e: any) => e.approval).reverse();
  assert.deepEqual(approvals.slice(0, 4), [
    'Create confirmed by the person (title, secretary)',
    'Save confirmed by the person (title)',
    'Save confirmed by the person',
    'Save approved by the person [approval AbCdEfGhIjKlMnOpQrStUv] (title)',
  ]);
  assert.match(approvals[4], /^Undo of audit entry 9+ confirmed by the person \(title, secretary\)$/);
  assert.equal(approvals[5], null, 'a text of another form that names the field is not shown');
  for (const entry of read.xos_audit) {
    assert.doesNotMatch(entry.approval ?? '', /\bsecret\b|secre\b/);
    assert.ok(entry.changes.every((c: any) => c.field !== 'secret'));
  }
});

test('approvalShownTo keeps what the reader may read', () => {
  const fields = ['title', 'secret'];
  const reads = (field: string) => field !== 'secret';
  assert.equal(approvalShownTo('Save confirmed by the person (title, secret)', fields, () => true), 'Save confirmed by the person (title, secret)');
  assert.equal(approvalShownTo('Undo of audit entry 12 confirmed by the person (secret)', fields, reads), 'Undo of audit entry 12 confirmed by the person');
  assert.equal(approvalShownTo('Send confirmed by the person', fields, reads), 'Send confirmed by the person');
  assert.equal(approvalShownTo('Save of 8 records confirmed by the person (title)', fields, reads), 'Save of 8 records confirmed by the person (title)');
  assert.equal(approvalShownTo('the secret was changed', fields, reads), null);
});
