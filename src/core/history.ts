// The Board's Back and Forward: every list and record shown (by the agent or the person)
// is a step; Back and Forward show a step again, a list as it was (the agent's query,
// the person's sort and filter), a record freshly loaded by id so it is never stale.
// Lives in the host with the Board state, so hiding the panel loses nothing; `saved()` and
// `restore()` carry it over a window reload or a crash of the extension host.
import type { Ast } from '../ast/schema.ts';
import { displayName } from '../ast/display.ts';
import { appModel } from '../ast/appModel.ts';
import type { Board, BoardRecord, Crumb, HistoryView, ListOrigin, ListQuery, ListView } from './domain.ts';
import { QueryListSource } from './listSource.ts';
import { showRecord } from './show.ts';
import type { CoreDeps } from './base.ts';
import type { ShowOutcome } from './outcomes.ts';

type Step =
  /** `view` is absent for a list restored from disk until it is shown; `origin` opens it again. */
  | { readonly kind: 'list'; readonly context: string; view?: ListView; readonly origin?: ListOrigin; query?: ListQuery }
  /** `record` as last shown: it names the step in the breadcrumb. */
  | { readonly kind: 'detail'; readonly context: string; readonly id: string; record: BoardRecord };

/** The history as plain data: lists by their query, records by id (what `restore` takes back). */
export interface SavedHistory {
  readonly index: number;
  readonly steps: readonly SavedStep[];
}

export type SavedStep =
  | { readonly kind: 'list'; readonly context: string; readonly origin: ListOrigin; readonly query?: ListQuery }
  | { readonly kind: 'detail'; readonly context: string; readonly id: string; readonly record: BoardRecord };

/** What the history reads of the Board (src/board/state.ts's BoardState): what it shows, and each list's sort and filter. */
export interface HistoryBoard extends Pick<Board, 'list' | 'showList' | 'snapshot' | 'onChange'> {
  /** The person's sort and filter of a list shown before. */
  queryOf(view: ListView): ListQuery;
}

/** Steps kept; older ones fall off the front. */
const MAX_STEPS = 50;
const MAX_CRUMBS = 5;

export class BoardHistory {
  private steps: Step[] = [];
  private index = -1;
  /** Set while Back or Forward shows a step, so showing it is not a new step. */
  private moving = false;
  private readonly listeners = new Set<() => void>();
  private readonly subscription: { dispose(): void };
  private readonly state: HistoryBoard;

  constructor(state: HistoryBoard) {
    this.state = state;
    this.subscription = state.onChange((change) => {
      if (change === 'list' || change === 'detail') this.shown();
    });
  }

  /** The Board showed a list or a record: a new step, unless it is the current one again (a save reloads its record). */
  private shown(): void {
    if (this.moving) return;
    const current = this.steps[this.index];
    const snapshot = this.state.snapshot();
    const list = this.state.list();
    let step: Step | undefined;
    if (snapshot.kind === 'list' && list) step = { kind: 'list', context: list.context, view: list };
    else if (snapshot.kind === 'detail' && snapshot.detail) {
      const id = snapshot.detail.record.id;
      // Rendered records without an id cannot be loaded again; they are not a step.
      if (id !== undefined && id !== null && id !== '') step = { kind: 'detail', context: snapshot.detail.context, id: String(id), record: snapshot.detail.record };
    }
    if (!step) return;
    if (step.kind === 'detail' && current?.kind === 'detail' && current.context === step.context && current.id === step.id) {
      current.record = step.record;
      this.emit();
      return;
    }
    // The same list's query run again (the list as stored after a save of its rows): the same step.
    if (step.kind === 'list' && current?.kind === 'list' && current.context === step.context && sameOrigin(current.view?.source.origin ?? current.origin, step.view?.source.origin)) {
      current.view = step.view;
      this.emit();
      return;
    }
    this.steps = [...this.steps.slice(0, this.index + 1), step].slice(-MAX_STEPS);
    this.index = this.steps.length - 1;
    this.emit();
  }

  view(ast: Ast, locale: string): HistoryView {
    const model = appModel(ast, locale);
    const first = Math.max(0, this.index - MAX_CRUMBS + 1);
    const crumbs = this.steps.slice(first, this.index + 1).map((step, i): Crumb => {
      const context = model.context(step.context);
      const label = step.kind === 'list'
        ? context?.label ?? step.context
        : `${context?.label ?? step.context} ${this.recordName(ast, step)}`;
      return { label, current: first + i === this.index };
    });
    return { canBack: this.index > 0, canForward: this.index < this.steps.length - 1, crumbs };
  }

  /** A record's name for the breadcrumb (display.ts), else its id. */
  private recordName(ast: Ast, step: Extract<Step, { kind: 'detail' }>): string {
    const entity = ast.contexts[step.context]?.entity;
    return (entity === undefined ? undefined : displayName(ast, entity, step.record)) ?? `#${step.id}`;
  }

  back(deps: CoreDeps): Promise<ShowOutcome> {
    return this.go(deps, this.index - 1);
  }

  forward(deps: CoreDeps): Promise<ShowOutcome> {
    return this.go(deps, this.index + 1);
  }

  private async go(deps: CoreDeps, target: number): Promise<ShowOutcome> {
    const step = this.steps[target];
    if (!step) return { kind: 'no_step', ok: false, direction: target < this.index ? 'back' : 'forward' };
    this.moving = true;
    try {
      if (step.kind === 'list') {
        // The agent's query again, so records created or deleted meanwhile show; the person's sort and filter stay.
        const query = step.view ? this.state.queryOf(step.view) : step.query ?? {};
        const fresh = await this.reopened(deps, step);
        this.state.showList(fresh, query);
        step.view = fresh;
        this.index = target;
        this.emit();
        return { kind: 'shown', ok: true, context: step.context, count: fresh.source.total };
      }
      const outcome = await showRecord(deps, step.context, step.id);
      if (outcome.ok) {
        step.record = this.state.snapshot().detail?.record ?? step.record;
        this.index = target;
        this.emit();
      }
      return outcome;
    } finally {
      this.moving = false;
    }
  }

  /** A list step's query run again (or its fixed rows as they were). */
  private async reopened(deps: CoreDeps, step: Extract<Step, { kind: 'list' }>): Promise<ListView> {
    if (step.view) return step.view.source.reopen ? { context: step.context, source: await step.view.source.reopen() } : step.view;
    const ast = deps.client.ast();
    const context = appModel(ast, deps.locale ?? ast.locales[0]).context(step.context);
    if (!context || !step.origin) throw new Error(`The list ${step.context} is no longer in the app.`);
    return { context: step.context, source: await QueryListSource.open({ client: deps.client, context, ...step.origin }) };
  }

  /** The steps as plain data; lists of fixed rows (xos_render) cannot be opened again and are left out. */
  saved(): SavedHistory {
    const steps: SavedStep[] = [];
    let index = -1;
    this.steps.forEach((step, i) => {
      const saved = this.savedStep(step);
      if (saved) steps.push(saved);
      if (i <= this.index) index = steps.length - 1;
    });
    return { index, steps };
  }

  private savedStep(step: Step): SavedStep | undefined {
    if (step.kind === 'detail') return { kind: 'detail', context: step.context, id: step.id, record: step.record };
    const origin = step.view?.source.origin ?? step.origin;
    if (!origin) return undefined;
    const query = step.view ? this.state.queryOf(step.view) : step.query;
    return { kind: 'list', context: step.context, origin, ...(query && (query.sort || query.filter) ? { query } : {}) };
  }

  /** Takes back a saved history (after a restart), steps of contexts the app no longer has left out; nothing is shown yet. */
  restore(saved: SavedHistory, ast: Ast): void {
    const steps: Step[] = [];
    let index = -1;
    saved.steps.forEach((step, i) => {
      if (ast.contexts[step.context]) steps.push(step.kind === 'list' ? { ...step } : { ...step, record: structuredClone(step.record) });
      if (i <= saved.index) index = steps.length - 1;
    });
    this.steps = steps.slice(-MAX_STEPS);
    this.index = Math.min(index, this.steps.length - 1);
    this.emit();
  }

  /** Shows the current step again (a restored Board that shows nothing yet). */
  showCurrent(deps: CoreDeps): Promise<ShowOutcome> {
    return this.go(deps, this.index);
  }

  /** Whether there is a step to show (e.g. after `restore`). */
  get hasCurrent(): boolean {
    return this.index >= 0 && this.index < this.steps.length;
  }

  /** The person sorted or filtered the shown list: what is kept of its step changes now, not with the next step. */
  listQueryChanged(): void {
    this.emit();
  }

  onChange(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  private emit(): void {
    for (const listener of [...this.listeners]) listener();
  }

  dispose(): void {
    this.subscription.dispose();
    this.listeners.clear();
  }
}

/** Whether two lists come from the same query (fixed results never do). */
function sameOrigin(a: ListOrigin | undefined, b: ListOrigin | undefined): boolean {
  return a !== undefined && b !== undefined && JSON.stringify(a) === JSON.stringify(b);
}
