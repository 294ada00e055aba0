// The Board's Back and Forward: every list and record shown (by the agent or the person)
// is a step; Back and Forward show a step again, a list as it was (the agent's query,
// the person's sort and filter), a record freshly loaded by id so it is never stale.
// Lives in the host with the Board state, so hiding the panel loses nothing.
import type { Ast } from '../ast/schema.ts';
import { displayField } from '../ast/view.ts';
import { appModel } from '../board/model.ts';
import type { BoardState } from '../board/state.ts';
import type { BoardRecord, ListView } from './domain.ts';
import { showRecord, type CoreDeps, type Outcome } from './useCases.ts';

type Step =
  | { readonly kind: 'list'; view: ListView }
  /** `record` as last shown: it names the step in the breadcrumb. */
  | { readonly kind: 'detail'; readonly context: string; readonly id: string; record: BoardRecord };

/** One entry of the breadcrumb, oldest first. */
export interface Crumb {
  readonly label: string;
  readonly current: boolean;
}

export interface HistoryView {
  readonly canBack: boolean;
  readonly canForward: boolean;
  /** The steps up to and including the current one (at most `MAX_CRUMBS`, the newest). */
  readonly crumbs: readonly Crumb[];
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
  private readonly state: BoardState;

  constructor(state: BoardState) {
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
    if (snapshot.kind === 'list' && list) step = { kind: 'list', view: list };
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
    this.steps = [...this.steps.slice(0, this.index + 1), step].slice(-MAX_STEPS);
    this.index = this.steps.length - 1;
    this.emit();
  }

  view(ast: Ast, locale: string): HistoryView {
    const model = appModel(ast, locale);
    const first = Math.max(0, this.index - MAX_CRUMBS + 1);
    const crumbs = this.steps.slice(first, this.index + 1).map((step, i): Crumb => {
      const context = model.context(step.kind === 'list' ? step.view.context : step.context);
      const label = step.kind === 'list'
        ? context?.label ?? step.view.context
        : `${context?.label ?? step.context} ${this.recordName(ast, step)}`;
      return { label, current: first + i === this.index };
    });
    return { canBack: this.index > 0, canForward: this.index < this.steps.length - 1, crumbs };
  }

  /** A record's name for the breadcrumb: the entity's display field, else its id. */
  private recordName(ast: Ast, step: Extract<Step, { kind: 'detail' }>): string {
    const entity = ast.contexts[step.context]?.entity;
    const field = entity ? displayField(ast, entity) : 'id';
    const name = step.record[field];
    return name === undefined || name === null || name === '' || field === 'id' || typeof name === 'object' ? `#${step.id}` : String(name);
  }

  back(deps: CoreDeps): Promise<Outcome> {
    return this.go(deps, this.index - 1);
  }

  forward(deps: CoreDeps): Promise<Outcome> {
    return this.go(deps, this.index + 1);
  }

  private async go(deps: CoreDeps, target: number): Promise<Outcome> {
    const step = this.steps[target];
    if (!step) return { ok: false, text: target < this.index ? 'There is nothing to go back to.' : 'There is nothing to go forward to.' };
    this.moving = true;
    try {
      if (step.kind === 'list') {
        // The agent's query again, so records created or deleted meanwhile show; the person's sort and filter stay.
        const query = this.state.queryOf(step.view);
        const fresh: ListView = step.view.source.reopen ? { context: step.view.context, source: await step.view.source.reopen() } : step.view;
        this.state.showList(fresh, query);
        step.view = fresh;
        this.index = target;
        this.emit();
        return { ok: true, text: '' };
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
