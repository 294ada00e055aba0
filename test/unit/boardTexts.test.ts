// The Board's texts: English written in src/board/texts.ts, every other language from the
// extension's l10n bundle (the same file vscode.l10n reads), so one list of texts serves both.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { boardLanguages, boardTexts, textsThrough } from '../../src/board/texts.ts';
import { fieldTypeRows } from '../../src/ast/fieldTypes.ts';

/** Every English text the Board can show, with the placeholders it fills. */
function englishTexts(): Map<string, number> {
  const seen = new Map<string, number>();
  const texts = textsThrough((english, ...args) => {
    seen.set(english, args.length);
    return english;
  });
  // The function texts, every branch.
  texts.records(1);
  texts.records(2);
  const typeCodes = fieldTypeRows().flatMap(([, row]) => (row.problem ? [row.problem.code] : []));
  for (const code of ['required', 'scale', 'min', 'max', 'minLength', 'maxLength', 'other', ...typeCodes]) {
    texts.problem({ code, limit: '1' } as Parameters<typeof texts.problem>[0]);
  }
  texts.openFailed('a', 'b');
  texts.exported(1, 'f');
  texts.reviewUndoOf(1);
  texts.reviewUndoOf(2);
  return seen;
}

test('every Board text has its German translation in l10n/bundle.l10n.de.json, with the same placeholders', () => {
  const bundle = JSON.parse(readFileSync(new URL('../../l10n/bundle.l10n.de.json', import.meta.url), 'utf8')) as Record<string, string>;
  const english = englishTexts();
  assert.ok(english.size >= 80, `${english.size} texts`);
  const missing = [...english.keys()].filter((text) => !Object.hasOwn(bundle, text));
  assert.deepEqual(missing, []);
  const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
  for (const text of english.keys()) assert.deepEqual(placeholders(bundle[text]), placeholders(text), text);
  assert.deepEqual(boardLanguages, ['en', 'de']);
});

test('the locale picks the bundle by language; placeholders are filled; unknown languages get English', () => {
  assert.equal(boardTexts('de-AT').back, 'Zurück');
  assert.equal(boardTexts('de').forward, 'Vor');
  assert.equal(boardTexts('de').openFailed('Person 7', 'weg'), 'Person 7 konnte nicht geöffnet werden: weg');
  assert.equal(boardTexts('de').problem({ code: 'maxLength', limit: '40' }), 'Höchstens 40 Zeichen.');
  assert.equal(boardTexts('de').records(1), '1 Datensatz');
  assert.equal(boardTexts('de').reviewUndoOf(10), 'Rückgängig: Änderung an 10 Datensätzen');
  assert.equal(boardTexts('en-US').records(12), '12 records');
  assert.equal(boardTexts('fr').back, 'Back');
  // A prototype key is no language.
  assert.equal(boardTexts('constructor').back, 'Back');
});

