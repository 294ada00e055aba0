// The one door for text shown to the person (src/text/personText.ts) and its wrappers at the
// ports (src/board/personFacing.ts): VS Code renders `[label](command:…)` in a notification as
// a link that runs a command and cuts the message after 1,000 UTF-16 units.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as confirmText from '../../src/board/confirmText.ts';
import type { BoardUi } from '../../src/board/controller.ts';
import { personDoor, personFacing, personFacingAsk, questionWithDetail } from '../../src/board/personFacing.ts';
import { INVISIBLE, NOTIFICATION_LIMIT, QUESTION_BUDGET, displayText, fitText, isPersonText, personText } from '../../src/text/personText.ts';
import { translator } from '../../src/board/texts.ts';

/** VS Code's own link syntax for notification messages (vs/base/common/linkedText.ts). */
const VSCODE_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;
const links = (message: string) => [...message.matchAll(VSCODE_LINK)].map((m) => m[2]);

const COMMAND = '[x](command:workbench.action.terminal.new)';
const WEB = '[y](https://evil.example)';
const EVIL = `${COMMAND} ${WEB} Anna\u202Egnp.exe Zero\u200Bwidth\u2066 ${'L'.repeat(5000)}`;

describe('personText', () => {
  test('links are broken up, invisible and bidi characters marked, blanks collapsed', () => {
    const shown = personText(`Saved ${COMMAND}\n\t${WEB} Al\u202Eice a\u200Bb`);
    assert.equal(shown, 'Saved [x] (command:workbench.action.terminal.new) [y] (https://evil.example) Al⟨U+202E⟩ice a⟨U+200B⟩b');
    assert.deepEqual(links(shown), []);
    assert.ok(isPersonText(shown));
  });

  test('a link cannot be assembled across a line break or from escapes', () => {
    assert.deepEqual(links(personText('[x]\n(command:a)')), []);
    assert.deepEqual(links(personText('[x]\u200B(command:a)')), []);
    assert.deepEqual(links(personText('[x](\u200Bcommand:a)')), []);
  });

  test('a word mixing Latin letters with look-alikes is shown escaped, as the questions show such a value', () => {
    assert.equal(personText('Mail to \u0430cme.com sent'), 'Mail to "\\u0430cme.com" sent');
    // A word in one script is ordinary writing.
    assert.equal(personText('Иван Müller Ελένη'), 'Иван Müller Ελένη');
  });

  test('a long text is fitted into the notification budget with an explicit marker, never cut by VS Code', () => {
    const shown = personText(`Saved: ${'x'.repeat(5000)}`);
    assert.equal(shown.length, QUESTION_BUDGET);
    assert.ok(QUESTION_BUDGET < NOTIFICATION_LIMIT);
    const [, head, more] = /^(Saved: x+)… \((\d+) more characters\)$/.exec(shown)!;
    assert.equal(head.length + Number(more), `Saved: ${'x'.repeat(5000)}`.length);
  });

  test('the marker speaks the front end\'s language', () => {
    const door = personDoor(translator('de'));
    assert.match(door.text('y'.repeat(2000)), /^y+… \(\d+ weitere Zeichen\)$/);
    assert.ok(door.text('y'.repeat(2000)).length <= QUESTION_BUDGET);
  });

  test('a surrogate pair is never split, and the count is in characters', () => {
    const shown = fitText('😀'.repeat(600), 100);
    assert.ok(shown.length <= 100);
    assert.doesNotMatch(shown, /[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    assert.match(shown, /… \(\d+ more characters\)$/);
    const kept = [...shown.slice(0, shown.indexOf('…'))].length;
    assert.equal(Number(/\((\d+) more/.exec(shown)![1]) + kept, 600);
  });

  test('the door is idempotent: a text that passed passes again unchanged', () => {
    for (const text of [EVIL, `${COMMAND}\u0430cme`, 'plain', '😀'.repeat(700), `a${'\u200B'.repeat(400)}`]) {
      const once = personText(text);
      assert.equal(personText(once), once);
      assert.ok(isPersonText(once), once.slice(0, 80));
    }
  });

  test('the questions use the same sanitiser (confirmText re-exports it, no second copy)', () => {
    assert.equal(confirmText.displayText, displayText);
    assert.equal(confirmText.QUESTION_BUDGET, QUESTION_BUDGET);
    assert.equal(confirmText.neutraliseLinks('[a](b)'), '[a] (b)');
  });
});

describe('personFacing: the Board\'s port behind the door', () => {
  /** A BoardUi whose every method records its arguments (a Proxy, so a new method is recorded too). */
  function recordingUi(answer: (method: string, args: unknown[]) => unknown = () => undefined) {
    const calls: Array<{ method: string; args: unknown[] }> = [];
    const own: Partial<BoardUi> = { t: translator('en'), log: { info: () => {}, warn: () => {}, error: () => {} } };
    const ui = new Proxy(own as BoardUi, {
      get(target, property) {
        if (typeof property === 'symbol' || property === 'then') return undefined;
        if (Object.hasOwn(target, property)) return (target as unknown as Record<string, unknown>)[property];
        return (...args: unknown[]) => {
          calls.push({ method: property, args });
          return Promise.resolve(answer(property, args));
        };
      },
    });
    return { ui, calls };
  }
  const strings = (value: unknown): string[] => (typeof value === 'string' ? [value] : Array.isArray(value) ? value.flatMap(strings) : []);

  test('every method of the wrapped port receives only sanitised text, whatever it is called with', async () => {
    const { ui, calls } = recordingUi();
    const wrapped = personFacing(ui);
    const methods = Object.keys(wrapped).filter((key) => typeof (wrapped as unknown as Record<string, unknown>)[key] === 'function' && key !== 't');
    assert.deepEqual(methods.sort(), ['askDiscard', 'csvExport', 'setLocale', 'tell']);
    for (const method of methods) {
      await (wrapped as unknown as Record<string, (...args: unknown[]) => unknown>)[method]('info', EVIL, `${EVIL} 2`, `${EVIL} 3`);
    }
    assert.deepEqual(calls.map((c) => c.method).sort(), ['askDiscard', 'csvExport', 'setLocale', 'tell']);
    for (const call of calls) {
      // setLocale passes the locale on (it is no text shown), and csvExport's first argument is the context's file name.
      const shown = call.method === 'setLocale' ? [] : call.method === 'csvExport' ? strings(call.args.slice(1)) : strings(call.args);
      for (const text of shown) {
        assert.ok(isPersonText(text), `${call.method}: ${text.slice(0, 80)}`);
        assert.deepEqual(links(text), []);
        assert.ok(!INVISIBLE.test(text));
      }
    }
  });

  test('the action the person clicks is answered with the caller\'s own title', async () => {
    const { ui } = recordingUi((method, args) => (method === 'tell' ? args[3] : undefined));
    const wrapped = personFacing(ui);
    assert.equal(await wrapped.tell('info', 'Saved', 'Keep', `Undo ${COMMAND}`), `Undo ${COMMAND}`);
    const ask = personFacingAsk(async (question) => question.buttons[1], translator('en'));
    assert.equal(await ask({ kind: 'save', message: EVIL, buttons: ['Save', `Discard\u202E`] }, new AbortController().signal), 'Discard\u202E');
    const unknown = personFacingAsk(async () => 'something else');
    assert.equal(await unknown({ kind: 'save', message: 'x', buttons: ['Save'] }, new AbortController().signal), undefined);
  });

  test('a question and its detail fit together, the detail whole', () => {
    const door = personDoor(translator('en'));
    const { question, detail } = questionWithDetail(door, `Discard the unsaved changes to ${EVIL}?`, 'They are not saved yet.');
    assert.equal(detail, 'They are not saved yet.');
    assert.ok(question.length + 1 + detail.length <= QUESTION_BUDGET);
    assert.match(question, /… \(\d+ more characters\)$/);
  });
});
