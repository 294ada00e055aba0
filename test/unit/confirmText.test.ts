// The save and send questions cannot be made to lie: a notification renders
// `[label](command:…)` links and cuts after 1,000 UTF-16 units, so every value,
// name, subject and preview goes through one sanitiser and one budget.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  NOTIFICATION_LIMIT, QUESTION_BUDGET, describeChange, displayText, escapedText, invisibleCharacters,
  neutraliseLinks, saveQuestion, sendQuestion, skeleton,
} from '../../src/board/confirmText.ts';
import { saveQuestionText } from '../../src/board/questionText.ts';
import { translator } from '../../src/board/texts.ts';
import { demoApp } from '../../src/backend/demo.ts';
import type { SaveSummary } from '../../src/core/domain.ts';
import { MAX_DISPLAY_NAME, parseAddress } from '../../src/mail/address.ts';
import { createDraft } from '../../src/mail/draft.ts';

/** VS Code's own link syntax for notification messages (vs/base/common/linkedText.ts). */
const VSCODE_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;
const links = (message: string) => [...message.matchAll(VSCODE_LINK)].map((m) => m[2]);
/** What VS Code shows of a message. */
const shownByVsCode = (message: string) => (message.length > NOTIFICATION_LIMIT ? `${message.slice(0, NOTIFICATION_LIMIT)}...` : message);

const sendTemplate = (recipient: string, subject: string, preview: string) => `Send this mail to ${recipient}? Subject: ${subject}. ${preview}`;
const saveParts = {
  compose: (changes: string) => `Save changes to Person 1? ${changes}`,
  more: (count: number) => `+${count} more (the Board shows all changes)`,
};

describe('the fake-recipient probe', () => {
  const fake = `Alice ‹alice@bank.example›${'\u2800'.repeat(1000)} <attacker@evil.example>`;

  test('a display name with blank-looking characters or over the cap is refused with what to send instead', () => {
    assert.equal(parseAddress(fake), `The display name has ${fake.indexOf(' <')} characters; at most ${MAX_DISPLAY_NAME} are allowed. Send the bare address or a shorter name.`);
    assert.equal(parseAddress('Alice\u2800\u3164 <attacker@evil.example>'),
      'The display name contains invisible, direction-changing or blank-looking characters (U+2800, U+3164). Send the bare address or the name without them.');
    assert.equal(parseAddress('Al\u202Eecila <attacker@evil.example>'),
      'The display name contains invisible, direction-changing or blank-looking characters (U+202E). Send the bare address or the name without them.');
    assert.equal(parseAddress('A\u200Bl\u00A0ice <attacker@evil.example>'),
      'The display name contains invisible, direction-changing or blank-looking characters (U+200B, U+00A0). Send the bare address or the name without them.');
    assert.deepEqual(parseAddress('Jürgen Müller <j@example.org>'), { name: 'Jürgen Müller', email: 'j@example.org' });
  });

  test('a contact name is checked the same way when the draft is made', () => {
    assert.match(String(createDraft({ name: 'A'.repeat(101), email: 'a@example.org' }, 'Hi', '')), /^The recipient name has 101 characters; at most 100/);
    assert.match(String(createDraft({ name: 'Alice\u2066', email: 'a@example.org' }, 'Hi', '')), /^The recipient name contains invisible.*\(U\+2066\)/);
  });

  test('even a name that got through shows after the address, and the address is never cut', () => {
    const name = `Alice ‹alice@bank.example›${' '.repeat(2000)}x`;
    const message = sendQuestion({ to: { name, email: 'attacker@evil.example' }, subject: 'Hi', body: 'Body' }, sendTemplate);
    assert.ok(message.startsWith('Send this mail to attacker@evil.example ("Alice ‹alice@bank.example› x")?'), message);
    assert.ok(message.length <= QUESTION_BUDGET);
    assert.equal(shownByVsCode(message), message);
  });
});

describe('the command-link probe', () => {
  const evil = '[Save](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%22%7D)';

  test('no value, name, subject or preview becomes a link in either question', () => {
    const save = saveQuestion([{ label: `Notes ${evil}`, from: '[x](https://evil.example/a)', to: evil }], saveParts);
    assert.deepEqual(links(save), []);
    assert.match(save, /\[Save\] \(command:/);
    const send = sendQuestion({ to: { name: '[Open](file:///etc/passwd)', email: 'a@example.org' }, subject: evil, body: `${evil}\n[y](HTTPS://evil.example)` }, sendTemplate);
    assert.deepEqual(links(send), []);
  });

  test('a link cannot be assembled across two values either', () => {
    const message = saveQuestion([{ label: 'A', from: 'x', to: '[Save' }, { label: ']', from: '(command:x)', to: 'y' }], {
      compose: (changes) => changes, more: (n) => `+${n}`,
    });
    assert.deepEqual(links(message), []);
    assert.equal(neutraliseLinks('[a](command:b) [c](file:d)'), '[a] (command:b) [c] (file:d)');
  });
});

describe('the save question budget', () => {
  test('astral characters are counted in UTF-16 units and never split', () => {
    const changes = Array.from({ length: 30 }, (_, i) => ({ label: `Field ${i}`, from: '😀'.repeat(60), to: `${'😀'.repeat(59)}!` }));
    const message = saveQuestion(changes, saveParts);
    assert.ok(message.length <= QUESTION_BUDGET, `${message.length} units`);
    assert.equal(shownByVsCode(message), message, 'VS Code would cut it');
    assert.doesNotMatch(message, /[\uD800-\uDBFF](?![\uDC00-\uDFFF])/, 'a lone high surrogate');
    const shown = [...message.matchAll(/Field (\d+):/g)].length;
    assert.ok(shown >= 1 && shown < 30);
    assert.ok(message.endsWith(`+${30 - shown} more (the Board shows all changes)`), message.slice(-80));
    // Every change that is shown is shown with its difference (the "!").
    assert.equal([...message.matchAll(/→ \(49 characters\) …(?:😀){10}!/gu)].length, shown);
  });

  test('every change fits, or is counted: the last one is never cut off silently', () => {
    for (let count = 1; count <= 25; count += 1) {
      const changes = Array.from({ length: count }, (_, i) => ({ label: `F${i}`, from: 'a'.repeat(70), to: 'b'.repeat(70) }));
      const message = saveQuestion(changes, saveParts);
      assert.ok(message.length <= QUESTION_BUDGET);
      const shown = [...message.matchAll(/F\d+: /g)].length;
      const more = Number(/\+(\d+) more/.exec(message)?.[1] ?? 0);
      assert.equal(shown + more, count, message);
      assert.equal([...message.matchAll(/F\d+: a+ → b+(;|$)/g)].length, shown, 'a shown change is complete');
    }
  });

  test('long values say how much is not shown, and a late difference is shown', () => {
    assert.equal(describeChange('Notes', 'x'.repeat(200), null), `Notes: ${'x'.repeat(80)}… (120 more characters) → —`);
    const late = describeChange('Notes', `${'x'.repeat(150)}old end`, `${'x'.repeat(150)}new end`);
    assert.equal(late, `Notes: (130 characters) …${'x'.repeat(20)}old end → (130 characters) …${'x'.repeat(20)}new end`);
  });
});

describe('look-alikes and invisible characters', () => {
  test('a Cyrillic а that looks like the old value is shown escaped', () => {
    assert.equal(describeChange('Website', 'acme.com', '\u0430cme.com'), 'Website: "acme.com" → "\\u0430cme.com"');
  });

  test('combining marks, compatibility forms and odd blanks are shown escaped when they look the same', () => {
    assert.equal(describeChange('Name', 'Müller', 'Mu\u0308ller'), 'Name: "M\\u00fcller" → "Mu\\u0308ller"');
    assert.equal(describeChange('City', 'Berlin', 'Ｂerlin'), 'City: "Berlin" → "\\uff22erlin"');
    assert.equal(describeChange('City', 'Bad Tölz', 'Bad\u00A0Tölz'), 'City: "Bad T\\u00f6lz" → "Bad\\u00a0T\\u00f6lz"');
    assert.equal(describeChange('City', 'Bonn', 'Bonn '), 'City: "Bonn" → "Bonn "');
  });

  test('a value that mixes Latin with look-alike letters is escaped even when it differs visibly', () => {
    assert.equal(describeChange('Website', 'example.org', 'p\u0430ypal.com'), 'Website: "example.org" → "p\\u0430ypal.com"');
  });

  test('control and format characters are marked, never passed through', () => {
    assert.equal(displayText('ab\u202Ecd\u200Be\u0007'), 'ab⟨U+202E⟩cd⟨U+200B⟩e⟨U+0007⟩');
    assert.equal(describeChange('Name', 'Anna', 'An\u200Bna'), 'Name: "Anna" → "An\\u200bna"');
    assert.equal(describeChange('Name', 'Anna', 'Bob\u202E'), 'Name: Anna → Bob⟨U+202E⟩');
    assert.deepEqual(invisibleCharacters('plain text'), []);
  });

  test('ordinary text in any script is shown as it is', () => {
    assert.equal(describeChange('Name', 'Петров', 'Иванов'), 'Name: Петров → Иванов');
    assert.equal(describeChange('Name', 'Yildiz', 'Yıldız'), 'Name: Yildiz → Yıldız');
    assert.equal(describeChange('Name', 'Σωκράτης', 'Sokrates'), 'Name: Σωκράτης → Sokrates');
    assert.equal(describeChange('Last name', 'Müller', 'Schmidt'), 'Last name: Müller → Schmidt');
    assert.equal(skeleton('Ｂ\u0430d'), 'Bad');
    assert.equal(escapedText('😀"'), '"\\u{1f600}\\""');
  });

  test('a related record shows with its name where the summary has one', () => {
    assert.equal(describeChange('Company', { id: 3, name: 'Acme' }, 4, { toText: 'Nordlicht' }), 'Company: Acme (#3) → Nordlicht (#4)');
    assert.equal(describeChange('Company', '3', '4'), 'Company: 3 → 4');
  });
});

describe('the questions and the door for all text shown to the person (personText.ts)', () => {
  test('a question already built passes the door unchanged; a probe one is within its promise too', async () => {
    const { personText, isPersonText } = await import('../../src/text/personText.ts');
    const evil = '[Save](command:workbench.action.terminal.new)';
    const questions = [
      saveQuestion([{ label: 'Last name', from: 'Müller', to: 'Schmidt' }, { label: 'Company', from: null, to: 3, toText: 'Acme' }], saveParts),
      saveQuestion([{ label: `Notes ${evil}`, from: 'x'.repeat(3000), to: `${evil}\u202E${'y'.repeat(3000)}` }], saveParts),
      sendQuestion({ to: { name: 'Alice', email: 'alice@example.org' }, subject: 'Offer', body: 'Hello Alice,\n\nthe offer is attached.' }, sendTemplate),
      sendQuestion({ to: { name: `${evil}\u200B`, email: 'a@example.org' }, subject: evil, body: `${evil}\n${'z'.repeat(5000)}` }, sendTemplate),
    ];
    for (const question of questions) {
      assert.equal(personText(question), question);
      assert.ok(isPersonText(question), question.slice(0, 120));
    }
  });
});

describe('the batch question\'s numbers', () => {
  const summary = (numeric: { min: string; max: string; total: string }): SaveSummary => ({
    entity: 'person', id: '', changes: [],
    batch: { records: 2000, cells: 2000, fields: [{ field: 'net_worth', label: 'Net worth', numeric }], first: [] },
  });
  const words = (locale: string) => ({ ast: demoApp(), locale, t: translator(locale) });

  test('totals, smallest and largest change are grouped as the counts are, in English and German', () => {
    const question = summary({ min: '-1250.5', max: '+12.50', total: '+1234567.89' });
    assert.equal(saveQuestionText(question, words('en')), 'Save changes to 2,000 records of Person? Net worth: change -1,250.5 to +12.50, total +1,234,567.89; +2,000 more (the Board shows all changes)');
    assert.match(saveQuestionText(question, words('de')), /^Änderungen an 2\.000 Datensätzen von Person speichern\? Net worth: Änderung -1\.250,5 bis \+12,50, insgesamt \+1\.234\.567,89; /);
  });

  test('every digit of a decimal is kept, beyond what a float holds; whole numbers stay whole', () => {
    assert.match(saveQuestionText(summary({ min: '+0.000001', max: '+9007199254740993.01', total: '+12345678901234567.89' }), words('en')),
      /change \+0\.000001 to \+9,007,199,254,740,993\.01, total \+12,345,678,901,234,567\.89;/);
    assert.match(saveQuestionText(summary({ min: '-5', max: '0', total: '+1500' }), words('de')), /Änderung -5 bis 0, insgesamt \+1\.500;/);
  });
});

test('an undo\'s question says how many records changed since are left out, one or many, in English and German', () => {
  const undo = (changedSince: number): SaveSummary => ({
    entity: 'person', id: '', changes: [],
    batch: { records: 3, cells: 3, fields: [{ field: 'city', label: 'City', values: [{ value: 'Kiel', count: 3 }] }], first: [], undo: true, changedSince },
  });
  const words = (locale: string) => ({ ast: demoApp(), locale, t: translator(locale) });
  assert.equal(saveQuestionText(undo(1), words('en')), 'Undo the change to 3 records of Person? City: 3× Kiel; +3 more (the Board shows all changes) 1 record was changed or deleted since and is left out: it stays as it is.');
  assert.match(saveQuestionText(undo(1200), words('en')), / 1,200 records were changed or deleted since and are left out: they stay as they are\.$/);
  assert.match(saveQuestionText(undo(1), words('de')), / 1 Datensatz wurde seitdem geändert oder gelöscht und wird ausgelassen: Er bleibt, wie er ist\.$/);
  assert.match(saveQuestionText(undo(1200), words('de')), / 1\.200 Datensätze wurden seitdem geändert oder gelöscht und werden ausgelassen: Sie bleiben, wie sie sind\.$/);
});
