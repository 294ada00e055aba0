// Document caps of the XOS API over real HTTP: aliases, field selections and
// literal limit values are
// refused before anything runs, with an error that names the cap.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import type { XosApi } from '../../src/backend/graphql/api.ts';
import { DEFAULT_DOCUMENT_LIMITS } from '../../src/backend/graphql/limits.ts';
import { startHttpServer, type RunningHttpServer } from '../../src/backend/http.ts';

const TOKEN = 'limits-test-token-0123456789';
const { maxAliases, maxFields, maxLimit } = DEFAULT_DOCUMENT_LIMITS;

describe('document caps', () => {
  let backend: Backend;
  let http: RunningHttpServer;
  let resolverRuns = 0;

  before(async () => {
    backend = await startBackend({ ast: demoApp(), dsn: 'sqlite::memory:', seed: true });
    const counting: XosApi = { ...backend.api, run: async (request) => { resolverRuns += 1; return backend.api.run(request); } };
    http = await startHttpServer(counting, { token: TOKEN, maxBodyBytes: 4 * 1024 * 1024 });
  });
  after(async () => {
    await http?.close();
    await backend?.close();
  });

  const post = async (query: string, variables?: Record<string, unknown>) => {
    const response = await fetch(`${http.url}/graphql`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` }, body: JSON.stringify({ query, variables }),
    });
    return { status: response.status, size: Number(response.headers.get('content-length')), body: await response.json() as { data?: unknown; errors?: Array<{ message: string; extensions: Record<string, unknown> }> } };
  };

  test('1,000 aliased lists are refused quickly and small, naming the cap', async () => {
    const query = `{ ${Array.from({ length: 1000 }, (_, i) => `a${i}: person_list { id firstname lastname email }`).join(' ')} }`;
    const started = performance.now();
    const { body, size } = await post(query);
    const ms = performance.now() - started;
    assert.equal(body.data, undefined);
    assert.equal(body.errors![0].message, `The query uses 1000 aliases; at most ${maxAliases} are allowed. Ask for each field once and page with limit and offset.`);
    assert.deepEqual(body.errors![0].extensions, { code: 'GRAPHQL_VALIDATION_FAILED', limit: 'aliases', max: maxAliases });
    assert.ok(size < 10_000, `${size} bytes`);
    assert.ok(ms < 1000, `${ms} ms`);
  });

  test('up to the alias cap works', async () => {
    const query = `{ ${Array.from({ length: maxAliases }, (_, i) => `a${i}: person_list_count`).join(' ')} }`;
    const { body } = await post(query);
    assert.equal(body.errors, undefined);
    assert.equal((body.data as Record<string, number>).a99, 240);
  });

  test('a document with too many field selections is refused, naming the cap', async () => {
    const query = `{ person_list(limit: 1) { ${'id '.repeat(maxFields + 1)}} }`;
    const { body } = await post(query);
    assert.equal(body.errors![0].message, `The query selects ${maxFields + 2} fields; at most ${maxFields} are allowed. Select fewer fields or split the query.`);
  });

  test('a literal limit over the cap is refused; the cap itself is fine', async () => {
    const over = await post(`{ person_list(limit: ${maxLimit + 1}) { id } }`);
    assert.equal(over.body.errors![0].message, `limit ${maxLimit + 1} is over the cap of ${maxLimit} records per list. Page with limit (at most ${maxLimit}) and offset.`);
    assert.equal(over.body.errors![0].extensions.code, 'BAD_USER_INPUT');
    const nested = await post(`{ company_list(limit: 1) { employees(limit: 99999999) { id } } }`);
    assert.match(nested.body.errors![0].message, /^limit 99999999 is over the cap/);
    const ok = await post(`{ person_list(limit: ${maxLimit}) { id } }`);
    assert.equal(ok.body.errors, undefined);
    assert.equal((ok.body.data as { person_list: unknown[] }).person_list.length, 240);
  });

  test('a limit given through a variable is capped too', async () => {
    const over = await post('query ($n: Int) { person_list(limit: $n) { id } }', { n: maxLimit + 1 });
    assert.equal(over.body.errors![0].message, `limit ${maxLimit + 1} is over the cap of ${maxLimit} records per list. Page with limit (at most ${maxLimit}) and offset.`);
    assert.equal(over.body.errors![0].extensions.code, 'BAD_USER_INPUT');
  });

  test('the embedded API (the extension\'s backend) has the same caps', async () => {
    const result = await backend.api.run({ query: `{ ${Array.from({ length: maxAliases + 1 }, (_, i) => `a${i}: person_list_count`).join(' ')} }` });
    assert.match(result.errors![0].message, /^The query uses 101 aliases; at most 100 are allowed\./);
    assert.ok(resolverRuns >= 4);
  });
});
