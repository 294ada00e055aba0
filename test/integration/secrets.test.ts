// Secrets stay secret: a full run with a PostgreSQL password in the DSN, an xos-server bearer
// token, the MCP endpoint's token, a CardDAV password, an SMTP password and OAuth tokens — the
// good paths and the failing ones (wrong password, refused token, broken server) — and then a
// scan of everything XOS said or wrote: the server's console, every log line, every tool reply
// and error, the Board's state and the mail draft, the messages as they reached the SMTP server,
// and the files in the run's directory. No secret appears, in plain text, base64 or URL-encoded.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { BoardState } from '../../src/board/state.ts';
import { CarddavProvider } from '../../src/contacts/carddav.ts';
import { ContactDirectory } from '../../src/contacts/directory.ts';
import { GoogleContactsProvider } from '../../src/contacts/google.ts';
import { MicrosoftContactsProvider } from '../../src/contacts/microsoft.ts';
import type { AccessTokenSource } from '../../src/contacts/tokens.ts';
import { connectRemoteClient } from '../../src/graphql/client.ts';
import { createSmtpMailer } from '../../src/mail/smtp.ts';
import { startMcpHttpServer, type McpHttpServer } from '../../src/mcp/http.ts';
import type { XosDeps } from '../../src/mcp/ports.ts';
import type { Confirmer } from '../../src/core/domain.ts';
import { startPostgres, type PostgresServer } from '../support/postgres.ts';
import { startRadicale, vcard, type RadicaleServer } from '../support/radicale.ts';
import { startTestSmtpServer, testCertificate, type TestCertificate, type TestSmtpServer } from '../support/smtp.ts';
import { tempDir, type TempDir } from '../support/tmp.ts';

const repoRoot = new URL('../../', import.meta.url).pathname;
const SECRETS = {
  database: 'Pg-Secret-7f3a9!x',
  serverToken: 'server-token-c81d2e9a77',
  mcpToken: 'mcp-token-5b0e44d1a9f3',
  smtp: 'Smtp-Secret-91ac',
  googleAccess: 'ya29.google-access-secret',
  googleRefresh: '1//google-refresh-secret',
  microsoftAccess: 'eyJ0eXAi.microsoft-access-secret',
};

/** Every form a secret could leak in. */
function forms(secret: string): string[] {
  return [secret, encodeURIComponent(secret), Buffer.from(secret).toString('base64'), Buffer.from(`erika:${secret}`).toString('base64')];
}

describe('secrets never appear in anything XOS says or writes', () => {
  let dir: TempDir;
  let postgres: PostgresServer;
  let radicale: RadicaleServer;
  let smtp: TestSmtpServer;
  let certificate: TestCertificate;
  let oauth: Server;
  const said: Array<[string, string]> = [];
  const say = (where: string) => (text: unknown) => { said.push([where, typeof text === 'string' ? text : JSON.stringify(text)]); };

  before(async () => {
    dir = await tempDir('xos-secrets');
    postgres = await startPostgres();
    radicale = await startRadicale();
    const book = await radicale.createAddressBook('work', 'Work');
    await radicale.uploadCards(book, [vcard({ uid: 'max', fn: 'Max Mustermann', emails: ['max@nordlicht.example'] })]);
    certificate = await testCertificate();
    smtp = await startTestSmtpServer({ certificate, credentials: { user: 'xos', pass: SECRETS.smtp } });
    // Google and Microsoft both refuse the stored tokens: the error paths are what could leak.
    oauth = createServer((req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 401, message: `invalid token ${req.headers.authorization?.slice(0, 6)}…`, status: 'UNAUTHENTICATED' } }));
    });
    await new Promise<void>((resolve) => oauth.listen(0, '127.0.0.1', resolve));
  });
  after(async () => {
    await new Promise<void>((resolve) => oauth?.close(() => resolve()));
    await smtp?.close();
    await radicale?.stop();
    await postgres?.stop();
    await dir?.remove();
  });

  test('a full run with every kind of secret, good and failing paths, then a scan', { timeout: 300_000 }, async () => {
    // xos-server on PostgreSQL with a password in the DSN and a bearer token.
    const base = await postgres.createDatabase('xos_secrets');
    const url = new URL(base);
    await setPassword(base, url.username, SECRETS.database);
    url.password = SECRETS.database;
    const serverProcess = spawn(process.execPath, [join(repoRoot, 'dist', 'xos-server.mjs'), '--dsn', url.toString(), '--seed', '--port', '0'],
      { cwd: dir.path, env: { ...process.env, XOS_TOKEN: SECRETS.serverToken }, stdio: ['ignore', 'pipe', 'pipe'] });
    let serverOutput = '';
    serverProcess.stdout.on('data', (chunk: Buffer) => { serverOutput += chunk; });
    serverProcess.stderr.on('data', (chunk: Buffer) => { serverOutput += chunk; });
    const endpoint = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`xos-server did not start:\n${serverOutput}`)), 30_000);
      const check = setInterval(() => {
        const found = serverOutput.match(/GraphQL\s+(http:\/\/\S+)\/graphql/)?.[1];
        if (found) { clearInterval(check); clearTimeout(timer); resolve(found); }
      }, 50);
    });
    try {
      // A wrong token first, then the right one.
      await connectRemoteClient({ endpoint, token: 'wrong-token' }).catch((error: Error) => say('remote client error')(error.message));
      const client = await connectRemoteClient({ endpoint, token: SECRETS.serverToken });
      say('status')(await client.status());

      // Contacts: CardDAV with a right and a wrong password, Google and Microsoft refusing their tokens.
      const tokens = (access: string, refresh: string): AccessTokenSource => ({ token: async () => access, refresh: async () => { throw new Error(`refresh refused for ${refresh.length}-character token; sign in again`); } });
      const oauthUrl = `http://127.0.0.1:${(oauth.address() as { port: number }).port}`;
      const contacts = new ContactDirectory([
        new CarddavProvider({ url: radicale.url, user: radicale.user, password: radicale.password }),
        new CarddavProvider({ url: radicale.url, user: radicale.user, password: `${SECRETS.smtp}-wrong` }),
        new GoogleContactsProvider({ tokens: tokens(SECRETS.googleAccess, SECRETS.googleRefresh), baseUrl: oauthUrl }),
        new MicrosoftContactsProvider({ tokens: tokens(SECRETS.microsoftAccess, SECRETS.googleRefresh), baseUrl: oauthUrl }),
      ]);
      // Mail with the right password, and a mailer with a wrong one.
      const mailLog = say('mail log');
      const mailer = createSmtpMailer({ host: '127.0.0.1', port: smtp.port, security: 'starttls', user: 'xos', from: 'XOS <crm@xos.example>', ca: certificate.cert }, { password: async () => SECRETS.smtp, log: mailLog });
      const board = new BoardState();
      const person: Confirmer = { confirmSave: async () => 'save', confirmSend: async () => 'send' };
      const deps: XosDeps = { client, board, confirmer: person, contacts, mailer };

      // The MCP endpoint with its token; one client with a wrong token, one with the right one.
      const mcp: McpHttpServer = await startMcpHttpServer(deps, { token: SECRETS.mcpToken });
      try {
        const wrong = await fetch(mcp.url, { method: 'POST', headers: { authorization: `Bearer ${SECRETS.mcpToken}x`, 'content-type': 'application/json' }, body: '{}' });
        say('mcp 401')(await wrong.text());
        const agent = new Client({ name: 'secrets', version: '1' });
        await agent.connect(new StreamableHTTPClientTransport(new URL(mcp.url), { requestInit: { headers: { Authorization: `Bearer ${SECRETS.mcpToken}` } } }));
        const call = async (name: string, args: Record<string, unknown> = {}) => say(`reply ${name}`)((await agent.callTool({ name, arguments: args })).content);
        await call('xos_schema');
        await call('xos_system_status');
        await call('xos_query', { context: 'person_list', query: '{ person_list { id firstname lastname email city age net_worth } }' });
        await call('xos_query', { context: 'person_detail', query: '{ person_detail(id: "1") { id firstname lastname email phone street zip city age net_worth status birthday active notes company { id name } } }' });
        await call('xos_ui_change_required', { context: 'person_detail', changes: { city: 'Potsdam' } });
        await call('xos_ui_save');
        await call('xos_contacts', { query: 'max' });
        await call('xos_mail_compose', { to: 'Max Mustermann', subject: 'Termin', body: 'Hallo Max' });
        await call('xos_mail_send');
        say('board')(board.snapshot());
        await agent.close();
      } finally {
        await mcp.close();
      }
      // A send with a wrong SMTP password fails: its error must not carry the password either.
      const wrongMailer = createSmtpMailer({ host: '127.0.0.1', port: smtp.port, security: 'starttls', user: 'xos', from: 'XOS <crm@xos.example>', ca: certificate.cert }, { password: async () => `${SECRETS.smtp}-old`, log: mailLog });
      await wrongMailer.send({ to: { email: 'max@nordlicht.example' }, subject: 'x', body: 'y' }).catch((error: Error) => say('mail error')(error.message));
    } finally {
      serverProcess.kill('SIGINT');
      await new Promise((resolve) => serverProcess.on('close', resolve));
    }
    say('xos-server console')(serverOutput);
    for (const mail of smtp.received) say('delivered mail')(mail.raw);
    for (const file of walk(dir.path)) say(`file ${file}`)(readFileSync(file, 'latin1'));

    const replies = Object.fromEntries(said.filter(([where]) => where.startsWith('reply ')).map(([where, text]) => [where, text.slice(0, 200)]));
    assert.match(replies['reply xos_ui_save'] ?? '', /Saved person 1/, JSON.stringify(replies));
    assert.equal(smtp.received.length, 1, JSON.stringify(replies));
    const leaks: string[] = [];
    for (const [name, secret] of Object.entries(SECRETS)) {
      for (const form of forms(secret)) {
        for (const [where, text] of said) if (text.includes(form)) leaks.push(`${name} (${form === secret ? 'plain' : 'encoded'}) in ${where}: …${text.slice(Math.max(0, text.indexOf(form) - 60), text.indexOf(form) + 60)}…`);
      }
    }
    assert.deepEqual(leaks, []);
    console.log(`scanned ${said.length} outputs (${said.reduce((n, [, t]) => n + t.length, 0)} characters) for ${Object.keys(SECRETS).length} secrets in 4 forms each: no leak`);
  });
});

function* walk(path: string): Generator<string> {
  for (const entry of readdirSync(path)) {
    const full = join(path, entry);
    if (statSync(full).isDirectory()) yield* walk(full);
    else yield full;
  }
}

async function setPassword(dsn: string, user: string, password: string): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: dsn });
  await client.connect();
  try {
    await client.query(`ALTER ROLE "${user}" PASSWORD '${password.replace(/'/g, "''")}'`);
  } finally {
    await client.end();
  }
}
