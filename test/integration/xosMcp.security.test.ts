// xos-mcp's secrets and files, against the findings they answer:
//  - the MCP token never on the command line (--token is refused; --token-file only 0600);
//  - the Board's key never sent by the page: a challenge–response where the server proves the
//    key first, proofs bound to the address and to both nonces, sessions bound to one start;
//  - a reload within one start resumes with that start's key (K_start), which no other start,
//    and no proof of the other kind, fits;
//  - another page (with the key or resumed) cannot take the Board over while a question is open there;
//  - the data folder 0700, the database and its side files 0600, CSV exports 0600 and never
//    written through a symbolic link.
// The page in a real browser (a squatter on the port, storage and history): test/e2e/browserBoard.e2e.ts.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startBackend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { writeCsvFile } from '../../src/core/csv.ts';
import { SymlinkRefused } from '../../src/core/privateFiles.ts';
import { pageProofInput } from '../../src/standalone/boardHandshake.ts';
import { parseOptions } from '../../src/standalone/options.ts';
import { startXosMcp, type RunningXosMcp } from '../../src/standalone/xosMcp.ts';
import { answer, ask, boardSession, challenge, hmac, startKey, type Handshake } from '../support/boardSession.ts';
import { ScriptedPage } from '../support/scriptedBoardPage.ts';
import { tempDir, type TempDir } from '../support/tmp.ts';
import { until } from '../support/until.ts';

const root = join(import.meta.dirname, '..', '..');
const TOKEN = 'xos-mcp-security-token-0123456789';
const KEY = 'a-fixed-board-key-of-forty-characters-xx';
const DETAIL_FIELDS = 'id firstname lastname email phone street zip city age net_worth status birthday active notes company { id name }';
const mode = (path: string) => statSync(path).mode & 0o777;


/** A POST with exactly this Host (fetch would not let a test set it). */
function postWithHost(port: number, path: string, host: string, body: unknown): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'POST', headers: { host, 'content-type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/** A challenge as the server answered it, its proof unchecked (to send a page proof a real page would not). */
async function unchecked(base: string, startId?: string): Promise<Handshake> {
  const { response, pageNonce } = await ask(base, startId);
  assert.equal(response.status, 200);
  const reply = await response.json() as { serverNonce: string; serverProof: string; startId: string };
  return { pageNonce, ...reply, host: new URL(base).host, resume: startId !== undefined };
}

/** Runs the built CLI (dist/xos-mcp.mjs through bin/xos-mcp.mjs) and collects its exit. */
function runCli(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(root, 'bin', 'xos-mcp.mjs'), ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString('utf8'); });
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

describe('the MCP token stays off the command line', () => {
  let dir: TempDir;
  before(async () => { dir = await tempDir('xos-mcp-token'); });
  after(async () => { await dir?.remove(); });

  test('--token is refused with exit 2 and what to do instead', async () => {
    for (const args of [['--http', '--token', 'T0123456789'], ['--http', '--token=T0123456789'], ['--token']]) {
      assert.throws(() => parseOptions(args, {}), /--token would show the MCP token to every user of this machine \(command lines are public\): set XOS_MCP_TOKEN, or put the token in a file only you can read \(chmod 600 <file>\) and pass --token-file <file>/);
    }
    const { code, stderr } = await runCli(['--http', '--token', 'T0123456789'], { XDG_DATA_HOME: dir.path });
    assert.equal(code, 2, stderr);
    assert.match(stderr, /^xos-mcp: --token would show the MCP token to every user of this machine/);
    assert.ok(!existsSync(join(dir.path, 'xos-mcp')), 'refused before anything is created');
  });

  test('--token-file: only a file readable by its owner alone', () => {
    const file = join(dir.path, 'token');
    writeFileSync(file, `${TOKEN}\n`, { mode: 0o644 });
    chmodSync(file, 0o644);
    assert.throws(() => parseOptions(['--http', '--token-file', file], {}), new RegExp(`--token-file ${file} can be read by other users \\(mode 644\\): run chmod 600 ${file} and start again`));
    chmodSync(file, 0o640);
    assert.throws(() => parseOptions(['--http', '--token-file', file], {}), /mode 640\): run chmod 600/);
    chmodSync(file, 0o600);
    assert.equal(parseOptions(['--http', '--token-file', file], {})!.token, TOKEN);
    chmodSync(file, 0o400);
    assert.equal(parseOptions(['--http', '--token-file', file], { XOS_MCP_TOKEN: 'other' })!.token, TOKEN, 'the file wins over the environment');
    assert.throws(() => parseOptions(['--http', '--token-file', join(dir.path, 'missing')], {}), /--token-file .*missing: no such file/);
    assert.equal(parseOptions(['--http'], { XOS_MCP_TOKEN: TOKEN })!.token, TOKEN);
  });

  test('a fixed Board key must be long enough that a proof cannot be guessed back to it', () => {
    assert.throws(() => parseOptions([], { XOS_BOARD_KEY: 'short' }), /XOS_BOARD_KEY must be at least 32 characters of A-Z, a-z, 0-9, - and _ \(make one with: openssl rand -hex 32\)/);
    assert.throws(() => parseOptions([], { XOS_BOARD_KEY: `${KEY}+/` }), /XOS_BOARD_KEY must be/);
    assert.equal(parseOptions([], { XOS_BOARD_KEY: KEY })!.boardKey, KEY);
  });
});

describe('the Board key handshake', () => {
  let dir: TempDir;
  let running: RunningXosMcp;
  let client: Client;

  async function call(name: string, args: Record<string, unknown> = {}): Promise<{ text: string; isError: boolean }> {
    const result = await client.callTool({ name, arguments: args });
    return { text: (result.content as Array<{ text?: string }>).map((c) => c.text ?? '').join(''), isError: result.isError === true };
  }

  before(async () => {
    dir = await tempDir('xos-mcp-handshake');
    running = await startXosMcp({
      transport: 'http', port: 0, token: TOKEN, boardPort: 0, boardKey: KEY, locale: 'en', confirmTimeoutSeconds: 30,
      dataDir: join(dir.path, 'data'), exportDir: dir.path, log: () => {},
    });
    client = new Client({ name: 'xos-mcp-security', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(running.mcp!.url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }));
  });
  after(async () => {
    await client?.close();
    await running?.close();
    await dir?.remove();
  });

  test('the server proves the key first; the page\'s proof buys a session; the raw key opens nothing', async () => {
    const base = running.board.url;
    const events = (credential: string) => fetch(`${base}board/events`, { headers: { authorization: `Bearer ${credential}` } });
    assert.equal((await events(KEY)).status, 401, 'the key itself is no credential');
    await assert.rejects(challenge(base, 'another-key-of-at-least-thirty-two-chars'), /did not prove/, 'a page with another key sees the proof fail');
    const challenged = await challenge(base, KEY);
    assert.equal((await answer(base, 'another-key-of-at-least-thirty-two-chars', challenged)).status, 401, 'a wrong page proof is refused');
    assert.equal((await answer(base, KEY, challenged)).status, 401, 'a server nonce is answered once, even after a wrong proof');
    const fresh = await challenge(base, KEY);
    const accepted = await answer(base, KEY, fresh);
    assert.equal(accepted.status, 200);
    const { session } = await accepted.json() as { session: string };
    assert.equal((await answer(base, KEY, fresh)).status, 401, 'a page proof cannot be replayed');
    const stream = await events(session);
    assert.equal(stream.status, 200);
    await stream.body!.cancel();
    assert.equal((await events(session)).status, 401, 'a session opens one stream');
  });

  test('proofs are bound to the exact address: no relay from another port, no localhost (it may be ::1)', async () => {
    const base = running.board.url;
    const port = running.board.port;
    // A squatter on another port relays the page's handshake here: the page signs its own address.
    const relayed = await challenge(base, KEY);
    assert.equal((await answer(base, KEY, relayed, `127.0.0.1:${port + 1}`)).status, 401);
    assert.equal(await postWithHost(port, '/board/challenge', `localhost:${port}`, { pageNonce: 'p'.repeat(43) }), 403);
    const handshake = await challenge(base, KEY);
    const pageProof = hmac(KEY, pageProofInput(`localhost:${port}`, handshake.pageNonce, handshake.serverNonce));
    assert.equal(await postWithHost(port, '/board/session', `localhost:${port}`, { serverNonce: handshake.serverNonce, pageProof }), 403);
    assert.equal(await postWithHost(port, '/board/challenge', `127.0.0.1:${port}`, { pageNonce: 'short' }), 400);
  });

  test('a session belongs to one start: the same key on the next start does not take it', async () => {
    const other = await startXosMcp({
      transport: 'http', port: 0, token: TOKEN, boardPort: 0, boardKey: KEY, locale: 'en',
      dataDir: join(dir.path, 'other'), exportDir: dir.path, log: () => {},
    });
    try {
      const session = await boardSession(running.board.url, KEY);
      const elsewhere = await fetch(`${other.board.url}board/events`, { headers: { authorization: `Bearer ${session}` } });
      assert.equal(elsewhere.status, 401);
      // And the other way: a handshake answered for one server is refused by the other.
      const challenged = await challenge(other.board.url, KEY);
      assert.equal((await answer(running.board.url, KEY, challenged, new URL(running.board.url).host)).status, 401);
    } finally {
      await other.close();
    }
  });

  test('a reload within the start resumes with K_start; another start, another start\'s K_start and a proof of the other kind are refused', async () => {
    const base = running.board.url;
    const host = new URL(base).host;
    const events = (credential: string) => fetch(`${base}board/events`, { headers: { authorization: `Bearer ${credential}` } });
    // The key handshake names this start (covered by the server's proof); the page derives K_start from it.
    const { startId } = await challenge(base, KEY);
    assert.match(startId, /^[\w-]{22}$/);
    assert.equal((await challenge(base, KEY)).startId, startId, 'one id per start');
    const kStart = startKey(KEY, startId);
    const resumed = await boardSession(base, kStart, startId);
    const stream = await events(resumed);
    assert.equal(stream.status, 200, 'K_start opens the Board in this start');
    await stream.body!.cancel();

    // The other key is not accepted in either role.
    await assert.rejects(challenge(base, KEY, startId), /did not prove/, 'resuming, the server proves K_start, not the key');
    await assert.rejects(challenge(base, kStart), /did not prove/, 'with the key, the server proves the key, not K_start');
    // Labels: a resume proof never fits a key challenge, nor the other way round.
    const asResume = await challenge(base, kStart, startId);
    assert.equal((await answer(base, kStart, asResume, host, 'key')).status, 401, 'K_start with the key\'s label');
    const asKey = await challenge(base, KEY);
    assert.equal((await answer(base, kStart, asKey, host, 'resume')).status, 401, 'K_start for a key challenge');
    assert.equal((await answer(base, KEY, await challenge(base, KEY), host, 'resume')).status, 401, 'the key with the resume label');
    assert.equal((await answer(base, KEY, await unchecked(base, startId))).status, 401, 'the key for a resume challenge');
    assert.equal((await answer(base, startKey(KEY, 'x'.repeat(22)), await unchecked(base, startId))).status, 401, 'the K_start of another start id');
    // A start id this start does not have: gone, whatever the page holds.
    assert.equal((await ask(base, 'x'.repeat(22))).response.status, 410);
    assert.equal((await ask(base, 'short')).response.status, 400);

    // The next start with the same fixed key: its own id; the K_start kept from this one is of no use there.
    const other = await startXosMcp({
      transport: 'http', port: 0, token: TOKEN, boardPort: 0, boardKey: KEY, locale: 'en',
      dataDir: join(dir.path, 'other-start'), exportDir: dir.path, log: () => {},
    });
    try {
      const otherBase = other.board.url;
      const otherStart = (await challenge(otherBase, KEY)).startId;
      assert.notEqual(otherStart, startId, 'a new start, a new id');
      const gone = await ask(otherBase, startId);
      assert.equal(gone.response.status, 410, 'the new start refuses the old start id');
      assert.match(await gone.response.text(), /earlier start of xos-mcp; open the link xos-mcp printed/);
      // The old K_start under the new id: the server's proof does not check out, the page's is refused.
      await assert.rejects(challenge(otherBase, kStart, otherStart), /did not prove/);
      assert.equal((await answer(otherBase, kStart, await unchecked(otherBase, otherStart))).status, 401);
      // The new start's K_start is no use to the old start either.
      assert.equal((await ask(base, otherStart)).response.status, 410);
      // While the new start's own K_start works there.
      const fresh = await boardSession(otherBase, startKey(KEY, otherStart), otherStart);
      assert.equal((await fetch(`${base}board/events`, { headers: { authorization: `Bearer ${fresh}` } })).status, 401, 'its session is of that start only');
    } finally {
      await other.close();
    }
  });

  test('while a question is open, another page is refused and told why; the first page still answers Save', async () => {
    const first = new ScriptedPage(running.board.url, KEY);
    let second: ScriptedPage | undefined;
    let resumed: ScriptedPage | undefined;
    let third: ScriptedPage | undefined;
    try {
      await first.ready;
      await until('the first page connected', () => running.board.connected());
      assert.equal((await call('xos_schema')).isError, false);
      assert.equal((await call('xos_query', { context: 'person_detail', query: `{ person_detail(id: "6") { ${DETAIL_FIELDS} } }` })).isError, false);
      assert.equal((await call('xos_ui_change_required', { context: 'person_detail', changes: { city: 'Lübeck' } })).isError, false);
      first.answer = () => undefined;
      const saving = call('xos_ui_save');
      const question = await until('the question on the first page', () => first.asked.at(-1));
      second = new ScriptedPage(running.board.url, KEY);
      const refused = await until('the second page refused', () => second!.refused);
      assert.equal(refused.status, 409);
      assert.match(JSON.parse(refused.body).message, /asking a question in another tab or window\. Answer it there; then reload this tab/);
      await until('the first page told of the attempt', () => first.takeoverRefused);
      assert.equal(first.replaced, false, 'the first page keeps the Board');
      // A reload (resumed with K_start) is refused the same way.
      first.takeoverRefused = false;
      const { startId } = await challenge(running.board.url, KEY);
      resumed = new ScriptedPage(running.board.url, startKey(KEY, startId), startId);
      assert.equal((await until('the resumed page refused', () => resumed!.refused)).status, 409);
      await until('the first page told again', () => first.takeoverRefused);
      assert.equal(first.replaced, false);
      const id = first.received.filter((m) => m.method === 'board/ask').at(-1)!.id;
      assert.equal(await first.post({ id, result: { choice: question.buttons[0] } }), 204);
      const saved = await saving;
      assert.equal(saved.isError, false, saved.text);
      // Answered: now another page may take over, a resumed one like any other.
      third = new ScriptedPage(running.board.url, startKey(KEY, startId), startId);
      await third.ready;
      await until('the first page replaced', () => first.replaced);
    } finally {
      await first.close();
      await second?.close();
      await resumed?.close();
      await third?.close();
    }
    const check = await startBackend({ ast: demoApp(), dsn: `sqlite:${join(dir.path, 'data', 'xos.db')}` });
    try {
      const result = await check.api.run({ query: '{ person_detail(id: "6") { city } }' });
      assert.equal((result.data as any).person_detail.city, 'Lübeck');
    } finally {
      await check.close();
    }
  });
});

describe('xos-mcp\'s files are the person\'s alone', () => {
  let dir: TempDir;
  before(async () => { dir = await tempDir('xos-mcp-files'); });
  after(async () => { await dir?.remove(); });

  test('data folder 0700 (tightened when looser), database and its side files 0600, the Board link 0600 while running', async () => {
    const dataDir = join(dir.path, 'data');
    mkdirSync(dataDir, { mode: 0o755 });
    chmodSync(dataDir, 0o755);
    const running = await startXosMcp({
      transport: 'http', port: 0, token: TOKEN, boardPort: 0, locale: 'en',
      dataDir, exportDir: dir.path, log: () => {},
    });
    const linkFile = join(dataDir, 'board-link');
    try {
      assert.equal(mode(dataDir), 0o700);
      assert.equal(mode(join(dataDir, 'xos.db')), 0o600);
      // WAL mode: SQLite makes its side files with the database file's mode.
      for (const side of ['xos.db-wal', 'xos.db-shm']) assert.equal(mode(join(dataDir, side)), 0o600, side);
      assert.equal(mode(join(dataDir, 'board')), 0o700);
      assert.equal(readFileSync(linkFile, 'utf8'), `${running.board.link}\n`);
      assert.equal(mode(linkFile), 0o600);
    } finally {
      await running.close();
    }
    assert.ok(!existsSync(linkFile), 'the link goes with the process');
  });

  test('a CSV export is 0600 and never written through a symbolic link', async () => {
    const exportDir = join(dir.path, 'exports');
    mkdirSync(exportDir);
    const victim = join(dir.path, 'victim.txt');
    writeFileSync(victim, 'keep me\n');
    // A link planted where the export goes (pointing at an existing file, and a dangling one).
    symlinkSync(victim, join(exportDir, 'person_list.csv'));
    symlinkSync(join(dir.path, 'created-through-link.txt'), join(exportDir, 'person_list-2.csv'));
    const running = await startXosMcp({
      transport: 'http', port: 0, token: TOKEN, boardPort: 0, locale: 'en',
      dataDir: join(dir.path, 'data2'), exportDir, log: () => {},
    });
    const client = new Client({ name: 'xos-mcp-csv', version: '1.0.0' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(running.mcp!.url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }));
      await client.callTool({ name: 'xos_schema', arguments: {} });
      const shown = await client.callTool({ name: 'xos_query', arguments: { context: 'person_list', query: '{ person_list { id firstname lastname email city age net_worth } }' } });
      assert.equal(shown.isError, undefined);
      await running.controller.records.exportCsv();
      const written = join(exportDir, 'person_list-3.csv');
      await until('the export', () => existsSync(written));
      assert.equal(mode(written), 0o600);
      assert.match(readFileSync(written, 'utf8'), /^\uFEFF/);
      assert.equal(readFileSync(victim, 'utf8'), 'keep me\n', 'the link\'s target is untouched');
      assert.ok(!existsSync(join(dir.path, 'created-through-link.txt')), 'nothing created through the dangling link');
    } finally {
      await client.close();
      await running.close();
    }

    // The writer itself refuses a link at the target (a link planted between naming and opening).
    const planted = join(exportDir, 'planted.csv');
    symlinkSync(victim, planted);
    await assert.rejects(
      writeCsvFile(planted, async (sink) => { await sink('x\r\n'); return 1; }, new AbortController().signal, { private: true }),
      (error: Error) => error instanceof SymlinkRefused && /planted\.csv is a symbolic link; XOS does not write through links\. Remove it/.test(error.message),
    );
    assert.equal(readFileSync(victim, 'utf8'), 'keep me\n');
    // An existing file of the person's that was readable by others becomes 0600.
    const loose = join(exportDir, 'loose.csv');
    writeFileSync(loose, 'old', { mode: 0o644 });
    chmodSync(loose, 0o644);
    await writeCsvFile(loose, async (sink) => { await sink('a\r\n'); return 1; }, new AbortController().signal, { private: true });
    assert.equal(mode(loose), 0o600);
    assert.equal(readFileSync(loose, 'utf8'), '\uFEFFa\r\n');
  });
});
