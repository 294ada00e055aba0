// xos-server's front-end token, started the way a person starts it (the CLI from source):
// only XOS's own front ends, which hold that token, are recorded in the audit trail as
// the agent or the person with their approval; a client with the plain token that claims
// the same is recorded as `api` without approval, and is not refused. A front-end token
// that is too short or equals the token is a usage error before anything is opened.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { connectRemoteClient } from '../../src/graphql/client.ts';
import { gqlData } from '../support/http.ts';
import { tempDir } from '../support/tmp.ts';
import { XosServerCli } from '../support/xosServerCli.ts';

const CLI = new URL('../../src/backend/cli.ts', import.meta.url).pathname;
const TOKEN = 'plain-api-token-0123456789';
const FRONTEND = 'xos-frontend-token-0123456789';
const dir = await tempDir('xos-audit-frontend');
// The machine's own tokens stay out: every start says which it has.
const cli = new XosServerCli(CLI, { XOS_TOKEN: '', XOS_FRONTEND_TOKEN: '' });
after(async () => {
  cli.killAll();
  await dir.remove();
});

describe('xos-server --frontend-token', () => {
  test('only the front-end token makes a claim of agent or board count; the plain token is recorded as api', async () => {
    const dsn = `sqlite:${join(dir.path, 'crm.db')}`;
    const { child, url, stdout } = await cli.start(['--dsn', dsn, '--seed', '--port', '0'], { XOS_TOKEN: TOKEN, XOS_FRONTEND_TOKEN: FRONTEND });
    assert.match(stdout(), /audit trail: agent and board writes only from XOS front ends with the front-end token; all others are recorded as api/);
    assert.ok(!stdout().includes(FRONTEND) && !stdout().includes(TOKEN), 'no token in the start lines');
    const claim = { path: 'board', approval: 'Save confirmed by the person (city)' } as const;
    const frontEnd = await connectRemoteClient({ endpoint: url, token: FRONTEND });
    const plain = await connectRemoteClient({ endpoint: url, token: TOKEN });
    assert.equal((await plain.run('mutation { update_person(id: "1", version: 1, set: { city: "Kiel" }) { version } }', undefined, claim)).errors, undefined);
    assert.equal((await frontEnd.run('mutation { update_person(id: "1", version: 2, set: { city: "Husum" }) { version } }', undefined, claim)).errors, undefined);
    await plain.run('mutation { xos_audit_mail(to: "a@example.org", subject: "S", message_id: "<1@x>") { id } }', undefined, { path: 'agent', approval: 'Send confirmed by the person' });
    await frontEnd.run('mutation { xos_audit_mail(to: "b@example.org", subject: "S", message_id: "<2@x>") { id } }', undefined, { path: 'agent', approval: 'Send confirmed by the person' });
    const trail = await gqlData(url, '{ xos_audit(limit: 10) { path action approval } }', undefined, TOKEN);
    assert.deepEqual(trail.xos_audit, [
      { path: 'agent', action: 'mail', approval: 'Send confirmed by the person' },
      { path: 'api', action: 'mail', approval: null },
      { path: 'board', action: 'update', approval: 'Save confirmed by the person (city)' },
      { path: 'api', action: 'update', approval: null },
    ]);
    assert.equal(await cli.stop(child), 0);
  });

  test('without a front-end token every HTTP write is api, and the start line says how to change that', async () => {
    const { child, url, stdout } = await cli.start(['--dsn', 'sqlite::memory:', '--seed', '--port', '0'], { XOS_TOKEN: TOKEN });
    assert.match(stdout(), /audit trail: every write through HTTP is recorded as api \(set XOS_FRONTEND_TOKEN for XOS front ends\)/);
    const client = await connectRemoteClient({ endpoint: url, token: TOKEN });
    await client.run('mutation { update_person(id: "1", version: 1, set: { city: "Kiel" }) { version } }', undefined, { path: 'agent', approval: 'Save confirmed by the person (city)' });
    assert.deepEqual((await gqlData(url, '{ xos_audit(limit: 1) { path approval } }', undefined, TOKEN)).xos_audit, [{ path: 'api', approval: null }]);
    assert.equal(await cli.stop(child), 0);
  });

  test('a short front-end token, or one equal to the token, is refused before the database is created', async () => {
    const db = join(dir.path, 'never.db');
    const short = await cli.run(['--dsn', `sqlite:${db}`], { XOS_FRONTEND_TOKEN: 'short' });
    assert.equal(short.code, 2);
    assert.match(short.stderr, /the front-end token needs at least 16 characters/);
    const same = await cli.run(['--dsn', `sqlite:${db}`], { XOS_TOKEN: TOKEN, XOS_FRONTEND_TOKEN: TOKEN });
    assert.equal(same.code, 2);
    assert.match(same.stderr, /the front-end token must differ from the token/);
    assert.equal(existsSync(db), false);
  });
});
