// The guarded writes as data: the hash binds exactly the payload (not how its keys happen to be
// ordered), and the versions a payload is bound to are those of the records it writes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { auditAction, boundVersions, payloadHash, writtenFields, type BoundPayload } from '../../src/core/boundWrites.ts';

const save: BoundPayload = { kind: 'save', context: 'person_detail', entity: 'person', id: '7', version: 3, set: { city: 'Kiel', age: 41 }, action: 'Save' };

test('the hash is SHA-256 of the canonical payload: key order does not matter, any value does', () => {
  const reordered: BoundPayload = { action: 'Save', set: { age: 41, city: 'Kiel' }, version: 3, id: '7', entity: 'person', context: 'person_detail', kind: 'save' };
  assert.match(payloadHash(save), /^[0-9a-f]{64}$/);
  assert.equal(payloadHash(reordered), payloadHash(save));
  for (const changed of [
    { ...save, version: 4 },
    { ...save, id: '8' },
    { ...save, set: { city: 'Kiel', age: 42 } },
    { ...save, set: { city: 'Kiel', age: '41' } },
    { ...save, set: { city: 'Kiel' } },
    { ...save, action: 'Undo of audit entry 1' },
  ] as BoundPayload[]) assert.notEqual(payloadHash(changed), payloadHash(save), JSON.stringify(changed));
  const mail: BoundPayload = { kind: 'send', draft: { to: { email: 'a@example.org' }, subject: 'Hi', body: 'Text' } };
  assert.notEqual(payloadHash({ ...mail, draft: { ...mail.draft, body: 'Text ' } }), payloadHash(mail));
  assert.notEqual(payloadHash({ ...mail, from: 'XOS <crm@xos.example>' }), payloadHash(mail));
});

test('bound versions, written fields and the audit action per kind', () => {
  assert.deepEqual(boundVersions(save), [{ entity: 'person', id: '7', version: 3 }]);
  const batch: BoundPayload = {
    kind: 'batch', context: 'person_list', entity: 'person', action: 'Save', fields: ['city'],
    rows: [{ id: '1', version: 2, set: { city: 'A' } }, { id: '2', version: 5, set: { city: 'B' } }],
  };
  assert.deepEqual(boundVersions(batch), [{ entity: 'person', id: '1', version: 2 }, { entity: 'person', id: '2', version: 5 }]);
  assert.deepEqual(boundVersions({ kind: 'delete', context: 'person_detail', entity: 'person', id: '9', version: 1 }), [{ entity: 'person', id: '9', version: 1 }]);
  assert.deepEqual(boundVersions({ kind: 'create', context: 'person_detail', entity: 'person', values: { lastname: 'Neu' } }), []);
  assert.deepEqual(writtenFields(save), ['city', 'age']);
  assert.equal(auditAction(batch), 'Save of 2 records');
  assert.equal(auditAction({ kind: 'delete', context: 'person_detail', entity: 'person', id: '9', version: 1 }), 'Delete');
});
