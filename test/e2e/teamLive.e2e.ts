// A team on one database, live: two people in two code-server windows (each its own profile with
// the packaged extension, one headless Chromium, two pages) work on ONE SQLite file the test
// prepared with the demo app and its data. Both open People and person 2's form; Anna edits the
// city (unsaved) and Ben's form says "Anna is editing"; Ben saves a new last name (his question
// names the other editor) and within moments Anna's form shows it: she did not touch the last
// name, so no field conflicts — her city stays her unsaved edit, the form is on Ben's version —
// and her Save stores both. Ben's form, holding nothing unsaved, shows her city at once. Back on
// the list Anna sees both values in row 2; while she has scrolled, Ben edits again (the row
// carries ✎) and saves: the row changes in place, her scroll position and the grid kept.
//   npm run build && npm run provision:vscode && node --test test/e2e/teamLive.e2e.ts
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { test } from 'node:test';
import { startBackend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import type { Locator, Page } from './support/browser.ts';
import { fileBrowser } from './support/fileBrowser.ts';
import { vscodeServer, type CodeServer } from './support/codeServer.ts';
import { saveFailureArtifacts, screenshot } from './support/artifacts.ts';
import { packagedExtension } from './support/packaged.ts';
import { answerNotification } from './support/notifications.ts';
import { runCommandUntil, waitForWorkbench } from './support/workbench.ts';
import { attributeOf, boardFrame, gridRowCount, untilShown as until, type Frame } from './board.support.ts';

const browser = fileBrowser();
const PERSON = 2;

interface Stored { lastname: string; city: string | null; version: number }

/** One person's window: code-server on its own profile, a page, the Board's frame. */
interface Window {
  readonly name: string;
  readonly server: CodeServer;
  readonly page: Page;
  readonly workspace: string;
  board?: Frame;
}

/** Runs in the page on the element a locator finds (Playwright's call; the harness's Locator type has none). */
function evaluate<T, A>(locator: Locator, fn: (element: HTMLElement, arg: A) => T, arg: A): Promise<T> {
  return (locator as unknown as { evaluate(fn: (element: HTMLElement, arg: A) => T, arg: A): Promise<T> }).evaluate(fn, arg);
}

const field = (board: Frame, name: string) => board.locator(`xos-field-editor[data-field="${name}"]`);
const input = (board: Frame, name: string) => field(board, name).locator('vscode-textfield input');
const summary = (board: Frame) => board.locator('xos-detail-form div.summary');
const presence = (board: Frame) => board.locator('xos-detail-form .presence[role="status"]');
const listRow = (board: Frame, id: number) => board.locator(`xos-list-grid [role="row"][data-key="${id}"]`);
const viewport = (board: Frame) => board.locator('xos-list-grid .viewport');

/** Replaces a field's text as a person does (select the line, type over it) until the form counts it as an edit. */
async function typeInto(window: Window, name: string, value: string): Promise<void> {
  await input(window.board!, name).click();
  // Not Ctrl+A: VS Code runs its own Select All in the webview a moment later, over the typing.
  await window.page.keyboard.press('End');
  await window.page.keyboard.press('Shift+Home');
  await window.page.keyboard.type(value);
  await field(window.board!, name).locator('vscode-badge.edited').waitFor({ state: 'visible', timeout: 15_000 });
}

/** The workbench, the Board from the palette, People from its start page. */
async function openPeople(window: Window): Promise<void> {
  const { page, server, workspace } = window;
  await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}`, { waitUntil: 'domcontentloaded' });
  await waitForWorkbench(page);
  await runCommandUntil(page, 'XOS: Open Board', async () => {
    const board = await boardFrame(page, { timeoutMs: 3_000 }).catch(() => undefined);
    return (await board?.locator('nav[aria-label="Open a list"] button', { hasText: 'People' }).count()) ? true : undefined;
  });
  const board = await boardFrame(page);
  window.board = board;
  await board.locator('nav[aria-label="Open a list"] button', { hasText: 'People' }).click();
  await vscodeServer.waitFor(async () => ((await gridRowCount(board).catch(() => undefined)) ?? 0) > 10 || undefined,
    { timeoutMs: 30_000, describe: () => `${window.name}: the People grid did not show its rows` });
  await listRow(board, PERSON).waitFor({ state: 'visible', timeout: 30_000 });
}

/** Person 2's form from the list (a click on the row, Enter). */
async function openPerson(window: Window): Promise<void> {
  const board = window.board!;
  await listRow(board, PERSON).click();
  await window.page.keyboard.press('Enter');
  await summary(board).waitFor({ state: 'visible', timeout: 30_000 });
  await until(`${window.name}: person ${PERSON}'s form`, async () => /^#(\d+)/.exec(await summary(board).innerText())?.[1], String(PERSON));
}

test('two people on one SQLite file in two code-server windows see each other live: presence, a change merged into unsaved work, a list row swapped in place', { timeout: 420_000 }, async () => {
  const root = mkdtempSync(join(tmpdir(), 'xos-team-live-'));
  const databasePath = join(root, 'team.db');
  const dsn = `sqlite:${databasePath}`;
  // An explicit xos.dsn is used as it is (not seeded): the demo records go in first, as `npm start` prepares them.
  const seeded = await startBackend({ ast: demoApp(), dsn, seed: true });
  await seeded.close();
  const stored = (): Stored => {
    const db = new DatabaseSync(databasePath, { readOnly: true, timeout: 10_000 });
    try {
      const row = db.prepare('SELECT lastname, city, version FROM person WHERE id = ?').get(PERSON) as { lastname: string; city: string | null; version: number };
      return { lastname: row.lastname, city: row.city, version: Number(row.version) };
    } finally {
      db.close();
    }
  };

  const vsix = await packagedExtension();
  const windows: Window[] = [];
  let failed = true;
  try {
    for (const name of ['anna', 'ben']) {
      const profile = join(root, name);
      const dirs = { extensionsDir: join(profile, 'extensions'), userDataDir: join(profile, 'user-data') };
      await vscodeServer.installExtension(vsix, dirs);
      const workspace = join(root, `${name}-workspace`);
      mkdirSync(workspace);
      writeFileSync(join(workspace, 'README.md'), '# XOS team e2e workspace\n');
      const server = await vscodeServer.startCodeServer({ workspace, settings: { 'xos.dsn': dsn, 'xos.locale': 'en', 'xos.person': name === 'anna' ? 'Anna' : 'Ben' }, ...dirs });
      const page = await browser().newPage({ viewport: { width: 1280, height: 800 } });
      windows.push({ name, server, page, workspace });
    }
    const [anna, ben] = windows as [Window, Window];
    for (const window of windows) await openPeople(window);
    await screenshot(anna.page, 'team-live-1-anna-people');

    // Both on person 2's form; Anna types a city she has not saved yet.
    const loaded = stored();
    await openPerson(ben);
    await openPerson(anna);
    assert.equal(await input(anna.board!, 'lastname').inputValue(), loaded.lastname);
    await typeInto(anna, 'city', 'Annastadt');
    // Ben's form says who else is editing this record: the other window's person (xos.person).
    await until('Ben sees Anna editing', async () => (await presence(ben.board!).innerText()).trim(), 'Anna is editing');
    const benSees = (await presence(ben.board!).innerText()).trim();
    await screenshot(ben.page, 'team-live-2-ben-sees-anna-editing');

    // Ben changes the last name and saves: his question names the other editor.
    await typeInto(ben, 'lastname', 'Bensohn');
    await ben.board!.locator('vscode-button.save').click();
    const benQuestion = await answerNotification(ben.page, /Save changes to Person/, 'Save', 'team-live-3-ben-question');
    assert.match(benQuestion, /Last name: .* → Bensohn/);
    assert.match(benQuestion, /Anna is editing this record too\./);
    await vscodeServer.waitFor(() => (stored().version === loaded.version + 1 || undefined), { timeoutMs: 30_000, describe: () => `Ben's save not stored: ${JSON.stringify(stored())}` });
    assert.deepEqual(stored(), { lastname: 'Bensohn', city: loaded.city, version: loaded.version + 1 });

    // Anna's form, live: the last name she did not touch shows Ben's value, her city stays her
    // unsaved edit, the form is on Ben's version; no field conflicts, so nothing is shown side by side.
    await until('Anna\'s form shows Ben\'s last name', () => input(anna.board!, 'lastname').inputValue(), 'Bensohn');
    await until('Anna\'s form on Ben\'s version', () => attributeOf(summary(anna.board!), 'data-version'), String(loaded.version + 1));
    assert.equal(await input(anna.board!, 'city').inputValue(), 'Annastadt');
    assert.equal(await field(anna.board!, 'city').locator('vscode-badge.edited').count(), 1, 'her city is still her unsaved edit');
    assert.equal(await anna.board!.locator('xos-detail-form .conflict').count(), 0, 'a field only Ben changed is no conflict');
    assert.equal(await attributeOf(anna.board!.locator('vscode-button.save'), 'disabled'), null, 'Save is offered');
    await screenshot(anna.page, 'team-live-4-anna-sees-ben-saved');

    // Anna saves her city on top of Ben's version: both values stored.
    await anna.board!.locator('vscode-button.save').click();
    const annaQuestion = await answerNotification(anna.page, /Save changes to Person/, 'Save', 'team-live-5-anna-question');
    assert.match(annaQuestion, /City: .* → Annastadt/);
    await vscodeServer.waitFor(() => (stored().version === loaded.version + 2 || undefined), { timeoutMs: 30_000, describe: () => `Anna's save not stored: ${JSON.stringify(stored())}` });
    assert.deepEqual(stored(), { lastname: 'Bensohn', city: 'Annastadt', version: loaded.version + 2 });
    // Ben's form holds nothing unsaved: it shows Anna's city at once.
    await until('Ben\'s form shows Anna\'s city', () => input(ben.board!, 'city').inputValue(), 'Annastadt');
    await screenshot(ben.page, 'team-live-6-ben-sees-anna-saved');

    // Anna goes Back to the list: row 2 shows both values.
    await anna.board!.locator('button[aria-label="Back"]').click();
    await listRow(anna.board!, PERSON).waitFor({ state: 'visible', timeout: 30_000 });
    await until('row 2 on Anna\'s list', async () => {
      const text = await listRow(anna.board!, PERSON).innerText();
      return text.includes('Bensohn') && text.includes('Annastadt');
    }, true);
    // She scrolls a little (row 2 stays in view); the grid is marked to tell it from a new one.
    const scrolled = await evaluate(viewport(anna.board!), (element, top) => {
      element.scrollTop = top;
      element.dataset.teamLive = 'kept';
      return element.scrollTop;
    }, 12);
    assert.ok(scrolled > 0, `the list scrolls (${scrolled})`);
    await screenshot(anna.page, 'team-live-7-anna-list');

    // Ben edits the last name again: Anna's row 2 carries ✎; Ben saves: the row changes in place.
    await typeInto(ben, 'lastname', 'Bensohn-Live');
    const mark = listRow(anna.board!, PERSON).locator('.editing-mark');
    await mark.waitFor({ state: 'visible', timeout: 20_000 });
    const markLabel = await attributeOf(mark, 'aria-label');
    await screenshot(anna.page, 'team-live-8-anna-list-ben-editing');
    await ben.board!.locator('vscode-button.save').click();
    await answerNotification(ben.page, /Save changes to Person/, 'Save', 'team-live-9-ben-question-again');
    await vscodeServer.waitFor(() => (stored().version === loaded.version + 3 || undefined), { timeoutMs: 30_000, describe: () => `Ben's second save not stored: ${JSON.stringify(stored())}` });
    await until('row 2 on Anna\'s list, live', async () => (await listRow(anna.board!, PERSON).innerText()).includes('Bensohn-Live'), true);
    await mark.waitFor({ state: 'hidden', timeout: 20_000 });
    const after = await evaluate(viewport(anna.board!), (element) => ({ top: element.scrollTop, kept: element.dataset.teamLive ?? null }), undefined);
    await screenshot(anna.page, 'team-live-10-anna-list-live');

    assert.equal(benSees, 'Anna is editing');
    assert.equal(markLabel, 'Ben is editing this record');
    assert.deepEqual(after, { top: scrolled, kept: 'kept' }, 'the rows were swapped in place: same grid, same scroll position');
    assert.deepEqual(stored(), { lastname: 'Bensohn-Live', city: 'Annastadt', version: loaded.version + 3 });
    failed = false;
  } finally {
    for (const window of windows) {
      if (failed) await saveFailureArtifacts(`team-live-${window.name}`, window.page, window.server.logPath);
      await window.page.close().catch(() => undefined);
      if (failed) await window.server.stop();
      else await window.server.dispose();
    }
    if (!failed) rmSync(root, { recursive: true, force: true });
  }
});
