// Where the person goes on the Board: a list from the start page or the palette, a row or a ref
// of the list, a form's link, Back and Forward, and where the Board was after a restart. Before
// the person leaves a form, unsaved work is only dropped when they answer Discard Changes.
import { appModel } from '../ast/appModel.ts';
import { hasUnsavedWork } from '../core/base.ts';
import { openFormLink } from '../core/formLinks.ts';
import { openContext } from '../core/openContext.ts';
import type { BoardOutcome, ShowOutcome } from '../core/outcomes.ts';
import { openRef, openRow } from '../core/show.ts';
import type { BoardHost, BoardPart } from './boardHost.ts';
import * as protocol from './protocol/navigation.ts';
import type { MessageEndpoint } from './protocol/messages.ts';
import { errorText, runAction } from './runAction.ts';
import { boardTexts } from './texts.ts';

export class NavigationPart implements BoardPart {
  private readonly host: BoardHost;
  private resuming = false;

  constructor(host: BoardHost) {
    this.host = host;
  }

  register(endpoint: MessageEndpoint): void {
    const { host } = this;
    endpoint.onNotification(protocol.openRow, ({ listId, key }) => {
      if (listId === host.listId()) void this.openFromList(key, () => openRow(host.deps(), key));
    });
    endpoint.onNotification(protocol.openRef, ({ listId, key, field }) => {
      if (listId === host.listId()) void this.openFromList(key, () => openRef(host.deps(), key, field));
    });
    endpoint.onNotification(protocol.openFormLink, ({ field, item }) => {
      const context = host.state.snapshot().context ?? '';
      void this.openFromList(item ?? field, () => openFormLink(host.deps(), field, item), context);
    });
    endpoint.onNotification(protocol.openContext, ({ context }) => void this.openContext(context));
    endpoint.onNotification(protocol.navigate, ({ direction }) => void this.mayLeaveForm().then(async (leave) => {
      if (leave) await this.navigate(direction);
    }));
  }

  /** Opens a list context for the person (start page, palette, XOS view): the agent's xos_query path. */
  async openContext(context: string): Promise<void> {
    const { host } = this;
    if (!(await this.mayLeaveForm())) return;
    host.open(true);
    host.setStatus({ kind: 'busy', text: boardTexts(host.locale()).loading });
    await runAction(host, async () => {
      this.throwUnlessOk(await openContext(host.deps(), context));
      host.ui.log.info(`Board opened ${context}`);
    }, {
      log: `opening ${context} failed`,
      status: (message) => boardTexts(host.locale()).openFailed(context, message),
      notice: ['XOS could not open {0}: {1}', context],
    });
  }

  /** A Board that shows nothing yet (a restored tab after a restart) shows where the person was. */
  async resume(): Promise<void> {
    const { host } = this;
    if (this.resuming || host.state.snapshot().kind !== undefined || !host.history.hasCurrent) return;
    this.resuming = true;
    try {
      this.throwUnlessOk(await host.history.showCurrent(host.deps()));
    } catch (error) {
      // The start page stays; Back and Forward still lead to the other steps.
      host.ui.log.warn(`the Board could not show where it was: ${errorText(error)}`);
    } finally {
      this.resuming = false;
    }
  }

  /** Back or Forward: the list as it was, or the record loaded again. */
  async navigate(direction: 'back' | 'forward'): Promise<void> {
    const { host } = this;
    const deps = host.deps();
    await runAction(host, async () => {
      this.throwUnlessOk(await (direction === 'back' ? host.history.back(deps) : host.history.forward(deps)));
    }, {
      log: `going ${direction} failed`,
      status: (message) => {
        const texts = boardTexts(host.locale());
        return texts.openFailed(direction === 'back' ? texts.back : texts.forward, message);
      },
    });
  }

  /** Opens a row's detail or a ref's record; a failure is said on the Board and in a notification. */
  private async openFromList(key: string, open: () => Promise<ShowOutcome>, from?: string): Promise<void> {
    const { host } = this;
    const context = from ?? host.state.list()?.context ?? '';
    if (!(await this.mayLeaveForm())) return;
    await runAction(host, async () => {
      this.throwUnlessOk(await open());
    }, {
      log: `opening row ${key} of ${context} failed`,
      status: (message) => boardTexts(host.locale()).openFailed(`${context} ${key}`, message),
      notice: ['XOS could not open {0} {1}: {2}', context, key],
    });
  }

  /** A failed outcome becomes an error in the Board's words, so it takes the action's failure path. */
  private throwUnlessOk(outcome: BoardOutcome): void {
    if (!outcome.ok) throw new Error(this.host.said(outcome));
  }

  /**
   * Before the person leaves a form for another list or record (Back, Forward, a link, a list from
   * the start page or the palette): unsaved edits, proposals or open conflicts are only dropped
   * when they answer Discard Changes. The agent's tools are not asked: their approvals hold.
   */
  private async mayLeaveForm(): Promise<boolean> {
    const { host } = this;
    const { ui } = host;
    const snapshot = host.state.snapshot();
    if (!hasUnsavedWork(snapshot)) return true;
    const label = (snapshot.context && appModel(host.ast(), host.locale()).context(snapshot.context)?.label) ?? '';
    const detail = ui.t('They are not saved yet. Save them first to keep them.');
    // A review, or cells of the list edited in the grid: named by the list.
    if (snapshot.kind === 'review' || snapshot.gridEdits) return ui.askDiscard(ui.t('Discard the unsaved changes to {0}?', label), detail, ui.t('Discard Changes'));
    if (!snapshot.detail) return true;
    // As the breadcrumb names a stored record ("Person Max"); a new one (not a step) by its context.
    const crumb = snapshot.detail.isNew ? undefined : host.history.view(host.ast(), host.locale()).crumbs.at(-1)?.label;
    // Asked like XOS's other questions: a notification, a modal dialog in production.
    return ui.askDiscard(ui.t('Discard the unsaved changes to {0}?', crumb ?? label), detail, ui.t('Discard Changes'));
  }
}
