// XOS records with an email field are contacts: searched through the real
// embedded backend (demo CRM on SQLite), merged with another provider.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startBackend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { ContactDirectory } from '../../src/contacts/directory.ts';
import { xosRecordProviders } from '../../src/contacts/xosRecords.ts';
import type { XosClient } from '../../src/core/domain.ts';

test('people of the demo CRM are found by name and address, values in variables', async () => {
  const backend = await startBackend({ ast: demoApp(), dsn: 'sqlite::memory:', seed: true });
  const queries: Array<{ query: string; variables?: Record<string, unknown> }> = [];
  const client: XosClient = {
    run: async (query, variables) => {
      queries.push({ query, variables });
      return backend.api.run({ query, variables }) as ReturnType<XosClient['run']>;
    },
    ast: () => backend.api.ast,
    status: async () => ({ kind: 'sqlite', description: '', ok: true, latency_ms: 0 }),
  };
  try {
    const providers = xosRecordProviders(client);
    assert.deepEqual(providers.map((p) => p.source), ['xos:person']);
    const found = await providers[0].search('max muster');
    assert.deepEqual(found, [{ name: 'Max Mustermann', emails: ['max.mustermann@nordlicht-software.example'], phones: [found[0].phones[0]].filter(Boolean) }]);
    assert.deepEqual(queries.at(-1)!.variables, { w0: '%max%', w1: '%muster%' });
    assert.doesNotMatch(queries.at(-1)!.query, /max|muster/i);
    assert.deepEqual(await providers[0].search("o'; drop table person; --"), []);

    const other = { source: 'carddav:work', search: async () => [{ name: 'Max M.', emails: ['MAX.MUSTERMANN@nordlicht-software.example'], phones: ['0171 1234567'] }] };
    const merged = await new ContactDirectory([...providers, other], { country: 'DE' }).searchAll('max mustermann');
    assert.equal(merged.contacts.length, 1);
    assert.deepEqual(merged.contacts[0].sources, ['xos:person', 'carddav:work']);
    assert.equal(merged.contacts[0].email, 'max.mustermann@nordlicht-software.example');
    assert.ok(merged.contacts[0].phones!.includes('+491711234567'));
    assert.deepEqual(merged.failures, []);
  } finally {
    await backend.close();
  }
});
