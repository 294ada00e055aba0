// Many records, one review, in real VS Code (code-server, headless Chromium): the agent proposes
// a city and an age for 200 people in one xos_ui_change_required call (test/host/boardReview.host.ts,
// through VS Code's MCP client); the Board shows the review grid; the person rejects a row and a
// cell, edits a cell (F2), sees a wrong value's problem and cancels it, mends an invalid row from
// the Invalid filter, clicks Save and answers Save in VS Code's notification. The records read
// back from the extension's SQLite file hold exactly the accepted cells. Then someone else changes
// one of three proposed rows while the review is shown: the live Board marks the row under
// Conflicts at once and Save waits; the person decides it again and saves, and their value is stored.
//   npm run provision:vscode && node --test test/e2e/boardReview.e2e.ts
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { test } from 'node:test';
import { startBackend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import type { Locator, Page } from './support/browser.ts';
import { fileBrowser } from './support/fileBrowser.ts';
import { answerNotification } from './support/notifications.ts';
import { attributeOf, boardFrame, runSteppedHostSuite, screenshot, untilShown as until, type Frame } from './board.support.ts';

const browser = fileBrowser();

/** The proposal: every person up to id 200 moves to Zzreview and is 90 years older (over 150 is invalid). */
const PROPOSED = { city: 'Zzreview', add: 90, maxAge: 150, lastId: 200 };
// Columns of the review grid: 0 the row's box, 1–4 id, first name, last name, email, 5 city, 6 age (the changes), 7 the note.
const CITY = 5;
const AGE = 6;
const NOTE = 7;
/** The note's column in the second review, which changes the city only. */
const CITY_ONLY_NOTE = 6;

interface Person { id: number; city: string | null; age: number | null; version: number }

/** Playwright's calls this test uses beyond the harness's Locator. */
interface Target extends Locator {
  click(options?: { timeout?: number; position?: { x: number; y: number } }): Promise<void>;
  dblclick(options?: { position?: { x: number; y: number } }): Promise<void>;
  boundingBox(): Promise<{ x: number; y: number; width: number; height: number } | null>;
}

const review = (frame: Frame) => frame.locator('xos-review-grid');
const grid = (frame: Frame) => frame.locator('xos-review-grid [role="grid"]');
const row = (frame: Frame, id: number) => frame.locator(`xos-review-grid [role="row"][data-key="${id}"]`) as Target;
const cell = (frame: Frame, id: number, col: number) => row(frame, id).locator(`[aria-colindex="${col + 1}"]`) as Target;
const box = (frame: Frame, id: number) => row(frame, id).locator('[role="checkbox"]') as Target;
const filter = (frame: Frame, name: string) => frame.locator(`xos-review-grid button.filter[data-filter="${name}"]`) as Target;
const editor = (frame: Frame) => frame.locator('xos-review-grid .editor');
const problem = (frame: Frame) => frame.locator('xos-review-grid .editing .problem[role="alert"]');
const count = (frame: Frame) => frame.locator('xos-review-grid .count');

/** A click in a changed cell's text (its accept/reject mark is at its end). */
const clickText = (target: Target) => target.click({ position: { x: 12, y: 10 } });

/** A click on a changed cell's accept/reject mark, drawn at its end. */
async function clickMark(target: Target): Promise<void> {
  const bounds = await target.boundingBox();
  assert.ok(bounds, 'the cell is laid out');
  await target.click({ position: { x: bounds.width - 10, y: bounds.height / 2 } });
}

/** Every person as stored, read from the extension's SQLite file (read-only). */
function stored(dsn: string): Map<number, Person> {
  const db = new DatabaseSync(dsn.slice('sqlite:'.length), { readOnly: true, timeout: 10_000 });
  try {
    const rows = db.prepare('SELECT id, city, age, version FROM person ORDER BY id').all() as unknown as Person[];
    return new Map(rows.map((p) => [Number(p.id), { id: Number(p.id), city: p.city, age: p.age === null ? null : Number(p.age), version: Number(p.version) }]));
  } finally {
    db.close();
  }
}

/** Someone else changes a person's city: a GraphQL mutation through a second backend on the same file. */
async function changeElsewhere(dsn: string, id: number, version: number, city: string): Promise<void> {
  const backend = await startBackend({ ast: demoApp(), dsn });
  try {
    const result = await backend.api.run({ query: `mutation { update_person(id: "${id}", version: ${version}, set: { city: ${JSON.stringify(city)} }) { version } }` });
    assert.deepEqual(result.errors, undefined, JSON.stringify(result.errors));
  } finally {
    await backend.close();
  }
}

test('the review grid in real VS Code: 200 proposed rows reviewed, saved once, exactly the accepted cells written; a conflict decided again', { timeout: 480_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'xos-review-'));
  const factsPath = join(dir, 'facts.json');
  const dsn = () => {
    assert.ok(existsSync(factsPath), 'the suite named its database');
    return (JSON.parse(readFileSync(factsPath, 'utf8')) as { dsn: string }).dsn;
  };
  const seen: Record<string, unknown> = {};
  const people: { before?: Map<number, Person>; after?: Map<number, Person>; conflictBefore?: Map<number, Person>; conflictMarked?: Map<number, Person>; conflictAfter?: Map<number, Person> } = {};
  const picked: Record<'rejectedRow' | 'rejectedAge' | 'editedCity' | 'cancelled' | 'mended', number> = { rejectedRow: 0, rejectedAge: 0, editedCity: 0, cancelled: 0, mended: 0 };

  const reviewRound = async (page: Page) => {
    const frame = await boardFrame(page);
    const before = stored(dsn());
    people.before = before;
    const proposed = [...before.values()].filter((p) => p.id <= PROPOSED.lastId);
    const valid = proposed.filter((p) => p.age! + PROPOSED.add <= PROPOSED.maxAge);
    const invalid = proposed.filter((p) => p.age! + PROPOSED.add > PROPOSED.maxAge);
    Object.assign(picked, { rejectedRow: valid[0].id, rejectedAge: valid[1].id, editedCity: valid[2].id, cancelled: valid[3].id, mended: invalid[0].id });

    // The review in the list's place: only the valid rows under Changed, the header counted.
    await grid(frame).waitFor({ state: 'visible', timeout: 30_000 });
    await until('the review\'s row count', () => attributeOf(grid(frame), 'aria-rowcount'), String(valid.length + 1));
    seen.rowcount = await attributeOf(grid(frame), 'aria-rowcount');
    seen.counts = await count(frame).innerText();
    seen.filterPressed = await attributeOf(filter(frame, 'changed'), 'aria-pressed');
    await row(frame, picked.rejectedRow).waitFor({ state: 'visible', timeout: 20_000 });
    await screenshot(page, 'board-review-1-proposed');

    // A row rejected by its box.
    await box(frame, picked.rejectedRow).click();
    await until('the rejected row\'s box', () => attributeOf(box(frame, picked.rejectedRow), 'aria-checked'), 'false');
    // A cell rejected by its mark: the row is partly applied.
    await clickMark(cell(frame, picked.rejectedAge, AGE));
    await until('the row with a rejected age', () => attributeOf(box(frame, picked.rejectedAge), 'aria-checked'), 'mixed');
    seen.rejectedAgeLabel = await attributeOf(cell(frame, picked.rejectedAge, AGE), 'aria-label');
    // F2 on a city: the person's own value, kept with Enter.
    await clickText(cell(frame, picked.editedCity, CITY));
    await page.keyboard.press('F2');
    await editor(frame).waitFor({ state: 'visible', timeout: 10_000 });
    await page.keyboard.type('Kielerhof');
    await page.keyboard.press('Enter');
    await editor(frame).waitFor({ state: 'hidden', timeout: 10_000 });
    await until('the edited city', async () => /Kielerhof, accepted, your value$/.test(await attributeOf(cell(frame, picked.editedCity, CITY), 'aria-label') ?? ''), true);
    // F2 on an age, a value over the maximum: its problem shows, Enter keeps the editor open, Escape cancels.
    await clickText(cell(frame, picked.cancelled, AGE));
    await page.keyboard.press('F2');
    await editor(frame).waitFor({ state: 'visible', timeout: 10_000 });
    await page.keyboard.type('999');
    await problem(frame).waitFor({ state: 'visible', timeout: 10_000 });
    seen.typedProblem = await problem(frame).innerText();
    await page.keyboard.press('Enter');
    assert.equal(await editor(frame).count(), 1, 'a wrong value keeps the editor open');
    await screenshot(page, 'board-review-2-problem');
    await page.keyboard.press('Escape');
    await editor(frame).waitFor({ state: 'hidden', timeout: 10_000 });
    seen.cancelledLabel = await attributeOf(cell(frame, picked.cancelled, AGE), 'aria-label');

    // The Invalid filter: the rows left out, each saying why; one mended by a double click and a valid age.
    await filter(frame, 'invalid').click();
    await until('the invalid rows', () => attributeOf(grid(frame), 'aria-rowcount'), String(invalid.length + 1));
    seen.invalidPressed = [await attributeOf(filter(frame, 'invalid'), 'aria-pressed'), await attributeOf(filter(frame, 'changed'), 'aria-pressed')];
    await row(frame, picked.mended).waitFor({ state: 'visible', timeout: 20_000 });
    seen.invalidNote = await cell(frame, picked.mended, NOTE).innerText();
    seen.invalidRow = await attributeOf(row(frame, picked.mended), 'aria-invalid');
    await screenshot(page, 'board-review-3-invalid');
    await cell(frame, picked.mended, AGE).dblclick({ position: { x: 12, y: 10 } });
    await editor(frame).waitFor({ state: 'visible', timeout: 10_000 });
    await page.keyboard.type(String(PROPOSED.maxAge));
    await page.keyboard.press('Enter');
    await until('the mended row leaving the Invalid filter', () => attributeOf(grid(frame), 'aria-rowcount'), String(invalid.length));

    // Back to Changed: the mended row is there, with the person's value.
    await filter(frame, 'changed').click();
    await until('the changed rows', () => attributeOf(grid(frame), 'aria-rowcount'), String(valid.length + 2));
    await row(frame, picked.mended).waitFor({ state: 'visible', timeout: 20_000 });
    seen.mendedLabel = await attributeOf(cell(frame, picked.mended, AGE), 'aria-label');
    seen.countsBeforeSave = await count(frame).innerText();
    await screenshot(page, 'board-review-4-reviewed');

    // Save on the Board: VS Code asks once; Save there writes.
    await frame.locator('xos-review-grid vscode-button.save').click();
    seen.question = await answerNotification(page, /Save changes to [\d,]+ records of Person\?/, 'Save', 'board-review-5-question');
    await review(frame).waitFor({ state: 'hidden', timeout: 30_000 });
    await frame.locator('xos-list-grid [role="grid"]').waitFor({ state: 'visible', timeout: 30_000 });
    people.after = stored(dsn());
    await screenshot(page, 'board-review-6-saved');
  };

  const conflictRound = async (page: Page) => {
    const frame = await boardFrame(page);
    await until('the review of three rows', () => attributeOf(grid(frame), 'aria-rowcount'), '4');
    people.conflictBefore = stored(dsn());
    const theirs = people.conflictBefore.get(202)!;
    // Someone else changes person 202 while the person looks at the review: the live Board marks
    // the row at once, before any Save; the Conflicts filter appears and Save waits for the person.
    await changeElsewhere(dsn(), 202, theirs.version, 'Extern');
    await filter(frame, 'conflicts').waitFor({ state: 'visible', timeout: 30_000 });
    await until('the counts with the row changed meanwhile', () => count(frame).innerText(), '2 of 3 rows will change · 0 invalid · 1 changed meanwhile · 0 unchanged');
    people.conflictMarked = stored(dsn());
    seen.conflictSave = [await attributeOf(frame.locator('xos-review-grid vscode-button.save'), 'disabled'), await frame.locator('xos-review-grid #save-blocked').innerText()];
    seen.conflictNotifications = await page.locator('.notification-list-item', { hasText: /Save changes to/ }).count();
    await screenshot(page, 'board-review-7-conflict-marked');
    await filter(frame, 'conflicts').click();
    await until('the conflicting row', () => attributeOf(grid(frame), 'aria-rowcount'), '2');
    await row(frame, 202).waitFor({ state: 'visible', timeout: 20_000 });
    seen.conflictRow = {
      classes: (await attributeOf(row(frame, 202), 'class'))?.split(' ').filter((c) => c === 'conflict'),
      box: await attributeOf(box(frame, 202), 'aria-checked'),
      city: await attributeOf(cell(frame, 202, CITY), 'aria-label'),
      note: await cell(frame, 202, CITY_ONLY_NOTE).innerText(),
    };
    await screenshot(page, 'board-review-8-conflict');
    // Undecided, its box is empty: one click accepts it again and settles it; it stays in view under Conflicts.
    await box(frame, 202).click();
    await until('person 202 accepted again', () => attributeOf(box(frame, 202), 'aria-checked'), 'true');
    seen.stillShown = await attributeOf(grid(frame), 'aria-rowcount');
    seen.acceptedAgain = await attributeOf(cell(frame, 202, CITY), 'aria-label');
    await frame.locator('xos-review-grid vscode-button.save').click();
    seen.savedQuestion = await answerNotification(page, /Save changes to 3 records of Person\?/, 'Save', 'board-review-9-question');
    await review(frame).waitFor({ state: 'hidden', timeout: 30_000 });
    people.conflictAfter = stored(dsn());
  };

  try {
    const run = await runSteppedHostSuite(browser(), {
      name: 'board-review',
      entry: 'boardReview.host.ts',
      defines: { XOS_REVIEW_FACTS_PATH: factsPath },
      settings: { 'xos.locale': 'en' },
      onStep: async (step, page) => {
        if (step === 'review-shown') await reviewRound(page);
        if (step === 'conflict-review') await conflictRound(page);
      },
      timeoutMs: 420_000,
    });
    assert.deepEqual({ exitCode: run.exitCode, checks: run.outcome.checks, errors: run.errors }, {
      exitCode: 0,
      errors: [],
      checks: [
        'the extension runs on its embedded backend and the agent\'s tools are live',
        'one xos_ui_change_required proposes a city and an age for 200 people; the person reviews and saves on the Board',
        'someone else changes one of three proposed rows: nothing is written, the row is marked; accepted again, it is saved',
      ].map((name) => ({ name, ok: true })),
    });

    // The agent's reply counts; the grid shows the valid rows under Changed.
    const before = people.before!;
    const proposed = [...before.values()].filter((p) => p.id <= PROPOSED.lastId);
    const valid = proposed.filter((p) => p.age! + PROPOSED.add <= PROPOSED.maxAge);
    const invalid = proposed.length - valid.length;
    assert.ok(valid.length > 4 && invalid > 1, `the demo data gives valid and invalid rows (${valid.length} / ${invalid})`);
    assert.match(String(run.outcome.facts.proposeReply), new RegExp(`^Review on the Board, nothing saved yet: 200 person records would change \\(city, age\\); ${valid.length} valid, ${invalid} invalid \\(excluded\\), 0 matched but unchanged\\. Invalid, for example: person ${picked.mended}: `));
    assert.equal(seen.rowcount, String(valid.length + 1));
    assert.equal(seen.counts, `${valid.length} of 200 rows will change · ${invalid} invalid · 0 unchanged`);
    assert.equal(seen.filterPressed, 'true');

    // What the grid said along the way.
    const p = (id: number) => before.get(id)!;
    assert.equal(seen.rejectedAgeLabel, `Age: ${p(picked.rejectedAge).age} → ${p(picked.rejectedAge).age! + PROPOSED.add}, rejected`);
    assert.equal(seen.typedProblem, 'At most 150.');
    assert.equal(seen.cancelledLabel, `Age: ${p(picked.cancelled).age} → ${p(picked.cancelled).age! + PROPOSED.add}, accepted`, 'Escape left the proposal as it was');
    assert.deepEqual(seen.invalidPressed, ['true', 'false']);
    assert.equal(seen.invalidRow, 'true');
    assert.equal(seen.invalidNote, 'Not saved: Age: At most 150.');
    assert.equal(seen.mendedLabel, `Age: ${p(picked.mended).age} → 150, accepted, your value`);
    // Written: every valid row but the rejected one, and the mended one.
    const records = valid.length;
    assert.equal(seen.countsBeforeSave, `${records} of 200 rows will change · ${invalid - 1} invalid · 0 unchanged`);
    assert.match(String(seen.question), new RegExp(`^Save changes to ${records} records of Person\\? City: ${records - 1}× Zzreview, 1× Kielerhof; Age: change \\+${150 - p(picked.mended).age!} to \\+${PROPOSED.add}, total \\+${((records - 2) * PROPOSED.add + 150 - p(picked.mended).age!).toLocaleString('en-US')}; `));

    // Stored: exactly the accepted cells, each written record one version on; everything else untouched.
    const after = people.after!;
    for (const [id, was] of before) {
      const now = after.get(id)!;
      const expected = (() => {
        if (id > PROPOSED.lastId || id === picked.rejectedRow) return was;
        if (id === picked.mended) return { ...was, city: PROPOSED.city, age: 150, version: was.version + 1 };
        if (was.age! + PROPOSED.add > PROPOSED.maxAge) return was;
        return {
          ...was,
          city: id === picked.editedCity ? 'Kielerhof' : PROPOSED.city,
          age: id === picked.rejectedAge ? was.age : was.age! + PROPOSED.add,
          version: was.version + 1,
        };
      })();
      assert.deepEqual(now, expected, `person ${id}`);
    }
    assert.equal([...after.values()].filter((q, i) => q.version !== [...before.values()][i].version).length, records, 'one write per accepted row');

    // The conflict: nothing of the first Save was written; the row showed what is stored now.
    assert.match(String(run.outcome.facts.conflictReply), /^Review on the Board, nothing saved yet: 3 person records would change \(city\); 3 valid, 0 invalid/);
    const theirs = people.conflictBefore!.get(202)!;
    for (const id of [201, 203]) assert.deepEqual(people.conflictMarked!.get(id), people.conflictBefore!.get(id), `person ${id} was not written`);
    assert.deepEqual(people.conflictMarked!.get(202), { ...theirs, city: 'Extern', version: theirs.version + 1 });
    assert.equal(seen.conflictNotifications, 0, 'marked without a Save: no question was asked');
    assert.deepEqual(seen.conflictSave, ['', 'Someone else changed some rows meanwhile: accept or reject them again, then save.']);
    assert.deepEqual(seen.conflictRow, {
      classes: ['conflict'], box: 'false', city: 'City: Extern → Zzconflict, rejected',
      note: 'Changed by someone else meanwhile: accept or reject it again.',
    });
    assert.equal(seen.acceptedAgain, 'City: Extern → Zzconflict, accepted');
    assert.equal(seen.stillShown, '2', 'the decided row stays where the person decided it');
    assert.match(String(seen.savedQuestion), /^Save changes to 3 records of Person\? City: 3× Zzconflict; /);
    // Accepted again, written over their version; the other two as proposed.
    const conflictAfter = people.conflictAfter!;
    assert.deepEqual(conflictAfter.get(202), { ...theirs, city: 'Zzconflict', version: theirs.version + 2 });
    for (const id of [201, 203]) assert.deepEqual(conflictAfter.get(id), { ...people.conflictBefore!.get(id)!, city: 'Zzconflict', version: people.conflictBefore!.get(id)!.version + 1 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
