// Many records, one review, in the browser Board of xos-mcp: the built CLI (bin/xos-mcp.mjs)
// started by the MCP SDK client over stdio, the Board page opened in headless Chromium from the
// link xos-mcp printed. The agent raises the net worth of 40 people by 5 % in one
// xos_ui_change_required call; the page shows the review grid; the person rejects a row, clicks
// Save and answers the page's own question: exactly the accepted rows are stored, in one write.
// Then someone else changes one of three proposed rows: the live page marks the row under Conflicts
// at once (undecided), the agent's xos_ui_save is refused and nothing is written; one click accepts
// it again and the agent's next xos_ui_save stores it.
//   npm run build && npm run provision:vscode && node --test test/e2e/browserBoardReview.e2e.ts
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, test, type TestContext } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import { startXosMcp, type StartedXosMcp } from './support/xosMcp.ts';
import { startBackend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { raised } from '../support/raised.ts';
import { saveFailureArtifacts, screenshot } from './support/artifacts.ts';
import { launchChromium, type Browser, type Locator, type Page } from './support/browser.ts';
import { vscodeServer } from './support/codeServer.ts';

const LIST_QUERY = '{ person_list { id firstname lastname email city age net_worth } }';

interface Reply { text: string; isError: boolean }
interface Person { id: number; city: string | null; net_worth: string | null; version: number }

let dir: string;
let client: Client;
let browser: Browser;
let page: Page;
let link: string;
let xosMcp: StartedXosMcp | undefined;
/** What xos-mcp said on stderr so far. */
const stderr = (): string => xosMcp?.log() ?? '';
const errors: string[] = [];

async function call(name: string, args: Record<string, unknown> = {}): Promise<Reply> {
  const result = await client.callTool({ name, arguments: args });
  const content = result.content as Array<{ type: string; text?: string }>;
  return { text: content.map((c) => c.text ?? '').join(''), isError: result.isError === true };
}

const dsn = () => `sqlite:${join(dir, 'xos-mcp', 'xos.db')}`;

/** Every person as stored, read from xos-mcp's SQLite file (read-only). */
function stored(): Map<number, Person> {
  const db = new DatabaseSync(join(dir, 'xos-mcp', 'xos.db'), { readOnly: true, timeout: 10_000 });
  try {
    const rows = db.prepare('SELECT id, city, net_worth, version FROM person ORDER BY id').all() as Array<Record<string, unknown>>;
    return new Map(rows.map((r) => [Number(r.id), { id: Number(r.id), city: r.city as string | null, net_worth: r.net_worth === null ? null : Number(r.net_worth).toFixed(2), version: Number(r.version) }]));
  } finally {
    db.close();
  }
}

const cents = (value: string) => BigInt(value.replace('.', ''));
const min = (values: bigint[]) => values.reduce((a, b) => (b < a ? b : a));
const max = (values: bigint[]) => values.reduce((a, b) => (b > a ? b : a));
/** Cents as the question shows a change: signed, grouped, two decimals. */
function signed(value: bigint): string {
  const text = (value < 0n ? -value : value).toString().padStart(3, '0');
  return `${value > 0n ? '+' : value < 0n ? '-' : ''}${BigInt(text.slice(0, -2)).toLocaleString('en-US')}.${text.slice(-2)}`;
}

async function until<T>(what: string, read: () => Promise<T>, expected: T, timeoutMs = 20_000): Promise<void> {
  let last: T | undefined;
  await vscodeServer.waitFor(async () => {
    last = await read().catch(() => undefined);
    return JSON.stringify(last) === JSON.stringify(expected) || undefined;
  }, { timeoutMs, intervalMs: 50, describe: () => `${what}: ${JSON.stringify(last)}, not ${JSON.stringify(expected)}; xos-mcp said:\n${stderr()}` });
}

/** An attribute of the first element a locator finds. */
const attr = (locator: Locator, name: string) => (locator as unknown as { getAttribute(name: string): Promise<string | null> }).getAttribute(name);
const grid = () => page.locator('xos-review-grid [role="grid"]');
const row = (id: number) => page.locator(`xos-review-grid [role="row"][data-key="${id}"]`);
const box = (id: number) => row(id).locator('[role="checkbox"]');
const filter = (name: string) => page.locator(`xos-review-grid button.filter[data-filter="${name}"]`);
const dialog = () => page.locator('[role="alertdialog"]');

/** Keeps a screenshot and what xos-mcp said when a test fails. */
async function keepingArtifacts(t: TestContext, name: string, body: () => Promise<void>): Promise<void> {
  try {
    await body();
    assert.deepEqual(errors, [], 'no page errors (CSP violations included)');
  } catch (error) {
    await saveFailureArtifacts(name, page, undefined);
    t.diagnostic(stderr());
    throw error;
  }
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'xos-mcp-review-'));
  xosMcp = await startXosMcp({ name: 'xos-browser-review-e2e', data: dir });
  client = xosMcp.client;
  link = xosMcp.link;
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1300, height: 800 } });
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => { if (message.type() === 'error') errors.push(message.text()); });
  await page.goto(link);
  assert.equal((await call('xos_schema')).isError, false);
  assert.equal((await call('xos_query', { context: 'person_list', query: LIST_QUERY })).isError, false);
  await page.locator('xos-list-grid [role="grid"][aria-rowcount="241"]').waitFor({ state: 'visible', timeout: 30_000 });
});

after(async () => {
  await page?.close().catch(() => {});
  await browser?.close();
  await client?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('many records, one review, in the browser Board of xos-mcp', () => {
  test('the person rejects a row and saves on the page; its own question asked once, exactly the accepted rows written', { timeout: 120_000 }, (t) => keepingArtifacts(t, 'browser-board-review', async () => {
    const people = stored();
    const proposed = [...people.values()].filter((p) => p.id <= 40 && p.net_worth !== null && raised(p.net_worth) !== p.net_worth);
    const reply = await call('xos_ui_change_required', { context: 'person_list', changes: { where: { id: { _lte: 40 } }, set: { net_worth: { _mul: 1.05 } } } });
    assert.equal(reply.isError, false, reply.text);
    assert.match(reply.text, new RegExp(`^Review on the Board, nothing saved yet: ${proposed.length} person records would change \\(net_worth\\)`));

    await until('the review\'s row count', () => attr(grid(), 'aria-rowcount'), String(proposed.length + 1));
    const rejected = proposed[0];
    await row(rejected.id).waitFor({ state: 'visible', timeout: 20_000 });
    await box(rejected.id).click();
    await until('the rejected row\'s box', () => attr(box(rejected.id), 'aria-checked'), 'false');
    await until('the counts', () => page.locator('xos-review-grid .count').innerText(), `${proposed.length - 1} of ${proposed.length} rows will change · 0 invalid · 0 unchanged`);
    await screenshot(page, 'browser-board-review-1-rejected');

    // Save on the page: the page asks, once; nothing is written before the answer.
    await page.locator('xos-review-grid vscode-button.save').click();
    await dialog().waitFor({ state: 'visible', timeout: 20_000 });
    const question = await dialog().innerText();
    const accepted = proposed.filter((p) => p.id !== rejected.id);
    const deltas = accepted.map((p) => cents(raised(p.net_worth!)) - cents(p.net_worth!));
    const first = accepted.slice(0, 3).map((p) => `#${p.id}: Net worth: ${p.net_worth} → ${raised(p.net_worth!)}`).join('; ');
    assert.equal(question, `Save changes to ${accepted.length} records of Person? Net worth: change ${signed(min(deltas))} to ${signed(max(deltas))}, `
      + `total ${signed(deltas.reduce((a, b) => a + b, 0n))}; ${first}; +${accepted.length - 3} more (the Board shows all changes)\n\nSave\nDiscard`);
    assert.deepEqual(stored(), people, 'nothing written while the question is open');
    await screenshot(page, 'browser-board-review-2-question');
    await dialog().locator('vscode-button.act').click();
    await dialog().waitFor({ state: 'hidden', timeout: 20_000 });
    await page.locator('xos-review-grid').waitFor({ state: 'hidden', timeout: 20_000 });
    await page.locator('xos-list-grid [role="grid"]').waitFor({ state: 'visible', timeout: 20_000 });

    const now = stored();
    for (const [id, was] of people) {
      const written = id !== rejected.id && proposed.some((p) => p.id === id);
      assert.deepEqual(now.get(id), written ? { ...was, net_worth: raised(was.net_worth!), version: was.version + 1 } : was, `person ${id}`);
    }
  }));

  test('someone else changes a row of the review: the row marked at once, the agent\'s save refused and nothing written; decided again on the page, the next save stores it', { timeout: 120_000 }, (t) => keepingArtifacts(t, 'browser-board-review-conflict', async () => {
    const reply = await call('xos_ui_change_required', { context: 'person_list', changes: [41, 42, 43].map((id) => ({ id: String(id), city: 'Zzbrowser' })) });
    assert.equal(reply.isError, false, reply.text);
    await until('the review of three rows', () => attr(grid(), 'aria-rowcount'), '4');
    const people = stored();
    const theirs = people.get(42)!;
    const outside = await startBackend({ ast: demoApp(), dsn: dsn() });
    try {
      const result = await outside.api.run({ query: `mutation { update_person(id: "42", version: ${theirs.version}, set: { city: "Extern" }) { version } }` });
      assert.equal(result.errors, undefined, JSON.stringify(result.errors));
    } finally {
      await outside.close();
    }

    // The live page marks the row at once, before anyone saves: under Conflicts, with the count; Save waits and says why.
    await filter('conflicts').waitFor({ state: 'visible', timeout: 20_000 });
    await until('the counts with the row changed meanwhile', () => page.locator('xos-review-grid .count').innerText(), '2 of 3 rows will change · 0 invalid · 1 changed meanwhile · 0 unchanged');
    assert.equal(await attr(page.locator('xos-review-grid vscode-button.save'), 'disabled'), '');
    assert.equal(await page.locator('xos-review-grid #save-blocked').innerText(), 'Someone else changed some rows meanwhile: accept or reject them again, then save.');
    // The agent's save is refused until the person decided, without a question; nothing is written.
    assert.match((await call('xos_ui_save')).text, /wait for the person's decision/);
    assert.equal(await dialog().count(), 0, 'no question while the row is undecided');
    const marked = stored();
    assert.deepEqual(marked.get(41), people.get(41));
    assert.deepEqual(marked.get(43), people.get(43));
    assert.deepEqual(marked.get(42), { ...theirs, city: 'Extern', version: theirs.version + 1 });
    await filter('conflicts').click();
    await until('the conflicting row', () => attr(grid(), 'aria-rowcount'), '2');
    await row(42).waitFor({ state: 'visible', timeout: 20_000 });
    assert.match(await attr(row(42), 'class') ?? '', /\bconflict\b/);
    assert.equal(await attr(row(42).locator('[role="gridcell"][data-field="city"]'), 'aria-label'), 'City: Extern → Zzbrowser, rejected');
    assert.equal(await attr(box(42), 'aria-checked'), 'false', 'undecided: its box is empty');
    await screenshot(page, 'browser-board-review-3-conflict');
    // One click accepts it again and settles it; the row stays in view under Conflicts.
    await box(42).click();
    await until('person 42 accepted again', () => attr(box(42), 'aria-checked'), 'true');
    assert.equal(await attr(grid(), 'aria-rowcount'), '2', 'the decided row stays where the person decided it');
    await until('Save enabled', () => attr(page.locator('xos-review-grid vscode-button.save'), 'disabled'), null);

    const again = call('xos_ui_save');
    await dialog().waitFor({ state: 'visible', timeout: 20_000 });
    await dialog().locator('vscode-button.act').click();
    const saved = await again;
    assert.equal(saved.isError, false, saved.text);
    assert.match(saved.text, /^Saved 3 person records in one transaction \(3 values; city\)\./);
    const now = stored();
    assert.deepEqual(now.get(42), { ...theirs, city: 'Zzbrowser', version: theirs.version + 2 });
    for (const id of [41, 43]) assert.deepEqual(now.get(id), { ...people.get(id)!, city: 'Zzbrowser', version: people.get(id)!.version + 1 });
  }));
});
