// The two XosClient implementations against a real backend: embedded (in this
// process) and remote (the XOS HTTP endpoint on loopback, with a bearer token).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { startHttpServer, type RunningHttpServer } from '../../src/backend/http.ts';
import { connectRemoteClient, embeddedClient, RemoteClientError } from '../../src/graphql/client.ts';

const TOKEN = 'graphql-client-test-token';
const QUERY = '{ person_list(limit: 2, order_by: [{ id: asc }]) { id lastname } }';

describe('XOS clients', () => {
  let backend: Backend;
  let http: RunningHttpServer;

  before(async () => {
    backend = await startBackend({ ast: demoApp(), dsn: 'sqlite::memory:', seed: true });
    http = await startHttpServer(backend.api, { token: TOKEN });
  });
  after(async () => {
    await http?.close();
    await backend?.close();
  });

  test('embedded: runs queries as plain JSON, reports the storage with its latency', async () => {
    const client = embeddedClient(backend);
    const result = await client.run(QUERY);
    assert.deepEqual(result, { data: { person_list: [{ id: '1', lastname: 'Mustermann' }, { id: '2', lastname: (result.data as any).person_list[1].lastname }] } });
    assert.equal(Object.getPrototypeOf((result.data as any).person_list[0]), Object.prototype);
    assert.equal(client.ast().app, 'crm');
    const status = await client.status();
    assert.deepEqual({ ...status, latency_ms: typeof status.latency_ms }, { kind: 'sqlite', description: backend.api.storage.description, ok: true, latency_ms: 'number', audit: { kept: true } });
  });

  test('remote: the AST from /xos/ast, queries over /graphql, errors as GraphQL errors, status from /healthz', async () => {
    const client = await connectRemoteClient({ endpoint: `${http.url}/`, token: TOKEN });
    assert.deepEqual(client.ast().contexts.person_list.list_fields, ['id', 'firstname', 'lastname', 'email', 'city', 'age', 'net_worth']);
    const embedded = await embeddedClient(backend).run(QUERY);
    assert.deepEqual(await client.run(QUERY), embedded);
    const variables = await client.run('query Q($id: ID!) { person_detail(id: $id) { lastname } }', { id: '1' });
    assert.deepEqual(variables, { data: { person_detail: { lastname: 'Mustermann' } } });
    const stale = await client.run('mutation { update_person(id: "1", version: 999, set: { city: "Bonn" }) { id } }');
    assert.equal(stale.errors?.[0].extensions?.code, 'CONFLICT');
    const status = await client.status();
    assert.deepEqual({ ...status, latency_ms: typeof status.latency_ms }, { kind: 'sqlite', description: http.url, ok: true, latency_ms: 'number' });
  });

  test('remote: a wrong token and an unreachable server are explained', async () => {
    await assert.rejects(connectRemoteClient({ endpoint: http.url, token: 'wrong' }), {
      name: 'RemoteClientError', message: `the XOS server at ${http.url} refused the bearer token (HTTP 401); set the right one with "XOS: Set Server Token".`,
    });
    const closed = await startHttpServer(backend.api);
    const url = closed.url;
    await closed.close();
    await assert.rejects(connectRemoteClient({ endpoint: url }), (error: unknown) => error instanceof RemoteClientError && error.message.startsWith(`the XOS server at ${url} is not reachable (`));
  });

  test('remote: a server that does not answer in time times out; status then says not ok', async () => {
    let calls = 0;
    const client = await connectRemoteClient({ endpoint: http.url, token: TOKEN, timeoutMs: 100 });
    const silent: Server = createServer(() => { calls++; });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    try {
      await assert.rejects(connectRemoteClient({ endpoint: silentUrl, timeoutMs: 100 }), { message: `the XOS server at ${silentUrl} did not answer in time` });
      const slow = await connectRemoteClient({ endpoint: http.url, token: TOKEN, timeoutMs: 100, fetch: (input, init) => (String(input).endsWith('/xos/ast') ? fetch(input, init) : fetch(String(input).replace(http.url, silentUrl), init)) });
      await assert.rejects(slow.run(QUERY), { message: `the XOS server at ${http.url} did not answer in time` });
      assert.deepEqual(await slow.status(), { kind: 'remote', description: http.url, ok: false, latency_ms: null });
      assert.ok(calls >= 2);
      assert.equal(client.ast().app, 'crm');
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
