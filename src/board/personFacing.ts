// The door of src/text/personText.ts at the ports: whatever a front end shows the person (a VS Code
// notification, a question, its detail, the Board's status line, the browser page's dialog)
// reaches it only through these wrappers, so a new call site cannot skip the sanitiser.
// The callers keep their own words (an action's title, `choice === undo`); the wrappers map
// a clicked, sanitised action back to the caller's.
import type { BoardUi } from './ports.ts';
import type { AskPerson } from './confirmer.ts';
import { moreCharacters, personText, QUESTION_BUDGET, type PersonText } from '../text/personText.ts';
import type { StatusLine } from './protocol.ts';
import type { Translate } from './texts.ts';

/** An action button's title: short, whatever a translation says. */
const ACTION_BUDGET = 80;
/** A progress notification's title. */
const TITLE_BUDGET = 200;

export interface PersonDoor {
  /** Any text for the person, within `budget` (the notification budget by default). */
  text(text: string, budget?: number): PersonText;
  /** Action titles as shown, and the caller's title for the one clicked. */
  actions(actions: readonly string[]): { readonly shown: PersonText[]; original(choice: string | null | undefined): string | undefined };
  /** A status line with its text through the door. */
  status(status: StatusLine | null): StatusLine | null;
}

/** The door with its "more" marker in the front end's language (`t`), English without one. */
export function personDoor(t?: Translate): PersonDoor {
  const more = t ? (count: number) => t('… ({0} more characters)', count) : moreCharacters;
  const text = (value: string, budget: number = QUESTION_BUDGET) => personText(value, { budget, more });
  return {
    text,
    actions: (actions) => {
      const shown = actions.map((action) => text(action, ACTION_BUDGET));
      return {
        shown,
        original: (choice) => {
          if (choice === null || choice === undefined) return undefined;
          const index = shown.indexOf(choice as PersonText);
          return index < 0 ? undefined : actions[index];
        },
      };
    },
    status: (status) => status && { ...status, text: text(status.text) },
  };
}

/**
 * A question and its detail, shown together (a notification) or apart (a modal dialog):
 * the detail is the front end's own wording and stays whole; the question gets what is left.
 */
export function questionWithDetail(door: PersonDoor, question: string, detail: string): { question: PersonText; detail: PersonText } {
  const shownDetail = door.text(detail, Math.floor(QUESTION_BUDGET / 2));
  return { question: door.text(question, QUESTION_BUDGET - shownDetail.length - 1), detail: shownDetail };
}

/**
 * The Board's port to the person with every text through the door: `tell`'s message and
 * actions, `askDiscard`'s question, detail and button, the export's title. The front end's
 * implementation only ever receives sanitised text.
 */
export function personFacing(ui: BoardUi): BoardUi {
  const door = personDoor(ui.t);
  return {
    t: ui.t,
    tell: async (kind, text, ...actions) => {
      const { shown, original } = door.actions(actions);
      return original(await ui.tell(kind, door.text(text), ...shown));
    },
    askDiscard: (question, detail, discard) => {
      const shown = questionWithDetail(door, question, detail);
      return ui.askDiscard(shown.question, shown.detail, door.text(discard, ACTION_BUDGET));
    },
    setLocale: (locale) => ui.setLocale(locale),
    csvExport: (context, label) => ui.csvExport(context, door.text(label, TITLE_BUDGET)),
    log: ui.log,
  };
}

/** A question port (`AskPerson`) whose front end only receives sanitised message and buttons. */
export function personFacingAsk(ask: AskPerson, t?: Translate): AskPerson {
  const door = personDoor(t);
  return async (question, signal) => {
    const { shown, original } = door.actions(question.buttons);
    return original(await ask({ ...question, message: door.text(question.message), buttons: shown }, signal));
  };
}
