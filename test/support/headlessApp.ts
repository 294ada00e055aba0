// An XosApp as the integration tests run it: no window, no page, the person's answers scripted
// through `ask`, English words. One place for the set-up the stored-approval tests share.
import type { AskPerson } from '../../src/board/confirmer.ts';
import { QuestionConfirmer } from '../../src/board/confirmer.ts';
import type { BoardSurface, BoardUi } from '../../src/board/controller.ts';
import { translator } from '../../src/board/texts.ts';
import { XosApp, type StoredApprovalsOptions } from '../../src/app/xosApp.ts';
import type { Mailer, XosClient } from '../../src/core/domain.ts';

export interface HeadlessAppOptions {
  readonly client: XosClient;
  /** The person's answer to each blocking question (the button's label, or undefined for none). */
  readonly ask: AskPerson;
  readonly storedApprovals?: StoredApprovalsOptions;
  readonly mailer?: Mailer;
  /** The browser Board's address the agent is told to decide at (default http://127.0.0.1:4711/; false: none, the Board in VS Code). */
  readonly boardUrl?: string | false;
  /** Where the Board shows (default: nowhere, never open); an open one is sent every change, as a page would be. */
  readonly surface?: BoardSurface;
}

/** A Board UI that tells nobody anything (the tests read the Board's state and the desk). */
export function silentUi(): BoardUi {
  return {
    t: translator('en'), tell: async () => undefined, askDiscard: async () => false, setLocale: () => {}, csvExport: async () => undefined,
    log: { info: () => {}, warn: () => {}, error: () => {} },
  };
}

export function headlessApp(options: HeadlessAppOptions): XosApp {
  const { client } = options;
  const ui = silentUi();
  return new XosApp({
    client,
    locale: () => 'en',
    surface: options.surface ?? { show: () => {}, isOpen: () => false, isVisible: () => false, setTitle: () => {} },
    ui: () => ui,
    confirmer: () => new QuestionConfirmer({
      ast: () => client.ast(), locale: () => 'en', t: ui.t, timeoutSeconds: () => 30, gapMs: 0, ask: options.ask, log: { info: () => {} },
    }),
    contacts: () => undefined,
    mailer: () => options.mailer,
    mailUndoSeconds: () => 0,
    ...(options.boardUrl === false ? {} : { boardUrl: () => options.boardUrl || 'http://127.0.0.1:4711/' }),
    ...(options.storedApprovals ? { storedApprovals: options.storedApprovals } : {}),
  });
}
