// Stored secrets only go to the server they were entered for: keys are bound
// to that server, plain http to another machine is refused, settings declare
// who may set them, and a DSN shown to the agent or a log has no user info.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse as parseConnectionString } from 'pg-connection-string';
import { dsnHasPassword, dsnSecretKey, dsnTarget, redactDsn, withDsnPassword } from '../../src/backend/dsn.ts';
import type { Backend } from '../../src/backend/backend.ts';
import { connectRemoteClient, embeddedClient, endpointProblem, endpointSecretKey, RemoteClientError } from '../../src/graphql/client.ts';
import { mailPasswordKey } from '../../src/mail/smtp.ts';

const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, { scope?: string }> }; commands: Array<{ command: string }> };
};
const properties = manifest.contributes.configuration.properties;

describe('settings scopes', () => {
  test('every setting declares a scope', () => {
    const missing = Object.entries(properties).filter(([, p]) => !p.scope).map(([name]) => name);
    assert.deepEqual(missing, []);
  });

  test('personal accounts and machine ports cannot come from a repository', () => {
    for (const name of ['xos.contacts.carddav', 'xos.contacts.google.enabled', 'xos.contacts.google.clientId', 'xos.contacts.microsoft.enabled', 'xos.contacts.microsoft.clientId', 'xos.confirm.timeoutSeconds']) {
      assert.equal(properties[name].scope, 'application', name);
    }
    // The server token goes where xos.endpoint points: only the person's own settings may say where.
    assert.equal(properties['xos.endpoint'].scope, 'machine');
    assert.equal(properties['xos.mcp.port'].scope, 'machine');
  });

  test('the servers a workspace may name (npm start writes xos.dsn and xos.mail.*) stay settable there; their secrets are bound', () => {
    for (const name of ['xos.dsn', 'xos.mail.host', 'xos.mail.port', 'xos.mail.security', 'xos.mail.user', 'xos.mail.from']) {
      assert.equal(properties[name].scope, 'machine-overridable', name);
    }
    assert.equal(properties['xos.ast'].scope, 'resource');
  });

  test('the secret commands are contributed', () => {
    const commands = manifest.contributes.commands.map((c) => c.command);
    for (const command of ['xos.setDatabasePassword', 'xos.setEndpointToken', 'xos.setMailPassword', 'xos.setCarddavPassword']) assert.ok(commands.includes(command), command);
  });
});

describe('secret keys are bound to their server', () => {
  test('mail password: user, host and port', () => {
    const mine = { host: 'smtp.example.org', port: 587, user: 'erika' };
    assert.equal(mailPasswordKey(mine), 'xos.mail.password:erika@smtp.example.org:587');
    assert.equal(mailPasswordKey({ ...mine, host: ' SMTP.Example.ORG ' }), mailPasswordKey(mine));
    assert.notEqual(mailPasswordKey({ ...mine, host: 'smtp.evil.example' }), mailPasswordKey(mine));
    assert.notEqual(mailPasswordKey({ ...mine, port: 2525 }), mailPasswordKey(mine));
    assert.notEqual(mailPasswordKey({ ...mine, user: 'eve' }), mailPasswordKey(mine));
  });

  test('server token: the endpoint origin', () => {
    assert.equal(endpointSecretKey('https://xos.example.org/'), 'xos.endpoint.token:https://xos.example.org');
    assert.equal(endpointSecretKey('https://XOS.example.org:443/api'), endpointSecretKey('https://xos.example.org'));
    assert.notEqual(endpointSecretKey('https://xos.example.org:8443'), endpointSecretKey('https://xos.example.org'));
    assert.notEqual(endpointSecretKey('http://xos.example.org'), endpointSecretKey('https://xos.example.org'));
    assert.notEqual(endpointSecretKey('https://xos.evil.example'), endpointSecretKey('https://xos.example.org'));
  });

  test('database password: user, host, port and database', () => {
    assert.equal(dsnSecretKey('postgres://app@db.example:5433/crm'), 'xos.dsn.password:app@db.example:5433/crm');
    assert.equal(dsnSecretKey('postgresql://app@DB.example/crm'), 'xos.dsn.password:app@db.example:5432/crm');
    assert.notEqual(dsnSecretKey('postgres://app@evil.example:5433/crm'), dsnSecretKey('postgres://app@db.example:5433/crm'));
    assert.notEqual(dsnSecretKey('postgres://app@db.example:5433/other'), dsnSecretKey('postgres://app@db.example:5433/crm'));
    assert.equal(dsnSecretKey('sqlite:./x.db'), undefined);
    assert.equal(dsnTarget('postgres://app@db.example/'), 'app@db.example:5432/app');
  });
});

describe('the endpoint', () => {
  test('plain http is refused for another machine, with what to use instead', () => {
    assert.equal(endpointProblem('http://xos.example.org:4000'),
      'xos.endpoint http://xos.example.org:4000 uses plain http to another machine, so the token and all data would cross the network unencrypted. Use https://xos.example.org:4000, or plain http only for 127.0.0.1 or localhost.');
    assert.equal(endpointProblem('http://10.0.0.5:4000')?.startsWith('xos.endpoint http://10.0.0.5:4000 uses plain http'), true);
    for (const ok of ['https://xos.example.org', 'http://127.0.0.1:4000', 'http://localhost:4000', 'http://[::1]:4000']) assert.equal(endpointProblem(ok), undefined, ok);
  });

  test('user info, other schemes and non-URLs are refused without echoing a password', () => {
    const problem = endpointProblem('https://admin:hunter2@xos.example.org')!;
    assert.match(problem, /must not contain a user or password/);
    assert.doesNotMatch(problem, /hunter2|admin/);
    assert.match(endpointProblem('ftp://xos.example.org')!, /must start with https:\/\//);
    assert.match(endpointProblem('xos.example.org:4000')!, /must start with https:\/\/|is not a URL/);
  });

  test('the remote client refuses such an endpoint before sending anything, and follows no redirect', async () => {
    let fetched = 0;
    const spy: typeof fetch = async () => { fetched += 1; throw new Error('must not be called'); };
    await assert.rejects(connectRemoteClient({ endpoint: 'http://xos.example.org:4000', token: 'secret', fetch: spy }), (error: unknown) => {
      assert.ok(error instanceof RemoteClientError);
      assert.match(error.message, /uses plain http to another machine/);
      return true;
    });
    assert.equal(fetched, 0);
    const seen: Array<RequestRedirect | undefined> = [];
    const recording: typeof fetch = async (_input, init) => { seen.push(init?.redirect); return new Response('{}', { status: 500 }); };
    await assert.rejects(connectRemoteClient({ endpoint: 'http://127.0.0.1:9', fetch: recording }));
    assert.deepEqual(seen, ['error']);
  });
});

describe('DSNs shown to the agent or logged', () => {
  const tricky = 'postgres://alice:p@ss:w/rd@db.example:5432/crm?sslmode=require&password=other';

  test('user info and password parameters are dropped entirely', () => {
    assert.equal(redactDsn('postgres://alice:s3cret@db.example:5432/crm'), 'postgres://db.example:5432/crm');
    assert.equal(redactDsn('postgres://alice:s3cret@db.example:5432/crm?sslmode=require&password=x&sslpassword=y'), 'postgres://db.example:5432/crm?sslmode=require');
    assert.equal(redactDsn('sqlite:/tmp/x.db'), 'sqlite:/tmp/x.db');
    for (const part of ['alice', 'p@ss', 'ss:w', 'rd@', 'other']) assert.ok(!redactDsn(tricky).includes(part), `${redactDsn(tricky)} shows ${part}`);
    assert.equal(redactDsn('postgres://a:b@[::1'), 'postgres://(hidden: the DSN could not be read as a URL)');
  });

  test('a password in the DSN is noticed', () => {
    assert.equal(dsnHasPassword('postgres://alice:x@db/crm'), true);
    assert.equal(dsnHasPassword('postgres://db/crm?password=x'), true);
    assert.equal(dsnHasPassword('postgres://alice@db/crm'), false);
    assert.equal(dsnHasPassword('sqlite:./a:b@c.db'), false);
  });

  test('the password from secret storage reaches the driver exactly, whatever characters it has', () => {
    const password = 'p@ss:w/rd%?#&= ü';
    const dsn = withDsnPassword('postgres://alice@db.example:5432/crm', password);
    const parsed = parseConnectionString(dsn);
    assert.deepEqual({ user: parsed.user, password: parsed.password, host: parsed.host, port: parsed.port, database: parsed.database },
      { user: 'alice', password, host: 'db.example', port: '5432', database: 'crm' });
    assert.equal(redactDsn(dsn), 'postgres://db.example:5432/crm');
    assert.throws(() => withDsnPassword('postgres://db.example/crm', 'x'), /names no user/);
    const fromParam = parseConnectionString(withDsnPassword('postgres://db.example/crm?user=bob&sslmode=disable', 'pw'));
    assert.deepEqual([fromParam.user, fromParam.password, fromParam.database], ['bob', 'pw', 'crm']);
    assert.equal(dsnSecretKey('postgres://db.example/crm?user=bob'), 'xos.dsn.password:bob@db.example:5432/crm');
  });

  test('the status the agent reads never carries user info', async () => {
    const backend = {
      api: { ast: {}, storage: { kind: 'postgres', description: 'postgres://alice:s3cret@db.example:5432/crm', ping: async () => 1 } },
      migration: { audit: { kept: true } },
    } as unknown as Backend;
    const status = await embeddedClient(backend).status();
    assert.equal(status.description, 'postgres://db.example:5432/crm');
  });
});
