// The Board live: what others write shows while the person looks at it, and who else has a
// record open shows where they look. The client's change feed (XosClient.feed) tells which
// records were written, whether it is connected, and the others' presence; this module turns
// that into the Board's updates — the shown list's windows read again in place, the form
// refreshed or turned into a conflict, a deleted record said — and announces the record this
// Board has open. Changes are gathered for BATCH_MS, so a burst of writes reads once. Writes by
// other programs name no record (outside): the Board compares what it shows with the rows — the
// open record's version, each window's rows against what the page was sent — and reads again
// only what differs.
import { createHash } from 'node:crypto';
import { appModel, type ContextModel } from '../ast/appModel.ts';
import { ownValue } from '../ast/lookup.ts';
import { hasUnsavedForm, readStored } from '../core/base.ts';
import { listWindow } from '../core/show.ts';
import { reviewRowsChanged } from '../core/batch.ts';
import { isDeepStrictEqual } from 'node:util';
import type { BoardRecord, BoardSnapshot, ListQuery } from '../core/domain.ts';
import type { ChangeFeed, ChangeFeedEvent, PresenceEntry, RecordChange } from '../graphql/types.ts';
import * as protocol from './protocol/live.ts';
import type { StatusLine } from './protocol/board.ts';
import type { BoardHost, BoardPart } from './boardHost.ts';
import type { BoardState } from './state.ts';
import { translator } from './texts.ts';
import { gridRows } from './view.ts';
import type { PresenceView } from './viewTypes.ts';

/** Changes arriving within this time are read as one. */
export const BATCH_MS = 100;
/** The most windows of the page re-read after a change (the ones it asked for last); older ones it asks again when scrolled to. */
export const WINDOWS_KEPT = 8;

/** Changes and resets waiting for the next read. */
export class ChangeBatch {
  private changes: RecordChange[] = [];
  private everything = false;
  private outside = new Set<string>();

  add(event: ChangeFeedEvent): void {
    if (event.kind === 'changes') this.changes.push(...event.changes);
    else if (event.kind === 'reset') this.everything = true;
    else if (event.kind === 'outside') for (const entity of event.entities) this.outside.add(entity);
  }

  /** Everything shown is to be read again (a reset, or the feed came back). */
  readAll(): void {
    this.everything = true;
  }

  get empty(): boolean {
    return !this.everything && this.changes.length === 0 && this.outside.size === 0;
  }

  /** `outside`: entities other programs wrote (what is shown of them is compared, not read whole). */
  take(): { changes: readonly RecordChange[]; everything: boolean; outside: ReadonlySet<string> } {
    const taken = { changes: this.changes, everything: this.everything, outside: this.outside };
    this.changes = [];
    this.everything = false;
    this.outside = new Set();
    return taken;
  }
}

/** The entities whose writes change what a list shows: its own, and those its ref columns name. */
export function listEntities(context: Pick<ContextModel, 'entity' | 'fields'>): ReadonlySet<string> {
  return new Set([context.entity, ...context.fields.flatMap((f) => (f.refEntity ? [f.refEntity] : []))]);
}

/** Whether any change touches one of these entities. */
export function touches(changes: readonly RecordChange[], entities: ReadonlySet<string>): boolean {
  return changes.some((c) => entities.has(c.entity));
}

/** The last change of one record in the batch, if any. */
export function lastChangeOf(changes: readonly RecordChange[], entity: string, id: string): RecordChange | undefined {
  return changes.findLast((c) => c.entity === entity && c.id === id);
}

/** The others' presence as the page shows it: everyone on the shown record, and the shown list's rows someone is editing. */
export function presenceView(presence: readonly PresenceEntry[], record: { entity: string; id: string } | undefined, listEntity: string | undefined): PresenceView {
  const detail = record ? presence.filter((p) => p.entity === record.entity && p.id === record.id).map(({ person, editing }) => ({ person, editing })) : [];
  const rows = new Map<string, string[]>();
  for (const p of presence) {
    if (!p.editing || p.entity !== listEntity) continue;
    rows.set(p.id, [...(rows.get(p.id) ?? []), p.person]);
  }
  return { detail, rows: [...rows].map(([key, people]) => ({ key, people })) };
}

/** What a window's rows look like, to tell whether a read again found them changed. */
export function rowsDigest(rows: unknown): string {
  return createHash('sha256').update(JSON.stringify(rows)).digest('base64');
}

/** What the live Board reads of the controller. */
type Open = { readonly entity: string; readonly id: string; readonly editing: boolean };

export class LiveBoard implements BoardPart {
  private readonly host: BoardHost;
  private readonly feed: ChangeFeed;
  private readonly unsubscribe: () => void;
  private readonly batch = new ChangeBatch();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  /** The windows the page asked for last, of one list and query (offset -> limit, most recent last), and the digest of the rows it was sent for each. */
  private windows: { listId: number; query: string; byOffset: Map<number, number>; sent: Map<number, string> } | undefined;
  private presence: readonly PresenceEntry[] = [];
  private announced: Open | undefined;
  /** The feed was lost: said on the status line until it is back. */
  private paused = false;
  private disposed = false;

  constructor(feed: ChangeFeed, host: BoardHost) {
    this.feed = feed;
    this.host = host;
    this.unsubscribe = feed.subscribe((event) => this.heard(event));
  }

  /** The status line while the feed is lost (kept when the Board shows something else), or null. */
  pausedStatus(): StatusLine | null {
    return this.paused ? { kind: 'info', text: translator(this.host.locale())('Live updates are paused: the connection to the change feed was lost, so what the Board shows may be out of date.') } : null;
  }

  /** The page read a window of the list (`rows`, as sent): it is read again when the list's rows change. */
  served(listId: number, offset: number, limit: number, query: ListQuery, rows: unknown): void {
    const key = JSON.stringify(query);
    if (this.windows?.listId !== listId || this.windows.query !== key) this.windows = { listId, query: key, byOffset: new Map(), sent: new Map() };
    const { byOffset, sent } = this.windows;
    byOffset.delete(offset);
    byOffset.set(offset, limit);
    sent.set(offset, rowsDigest(rows));
    for (const old of byOffset.keys()) {
      if (byOffset.size <= WINDOWS_KEPT) break;
      byOffset.delete(old);
      sent.delete(old);
    }
  }

  /** Names of the others editing this record now (for the Save question). */
  othersEditing(entity: string, id: string): string[] {
    return this.presence.filter((p) => p.editing && p.entity === entity && p.id === id).map((p) => p.person);
  }

  /** The Board changed (opened, edited, saved, discarded, closed): the others hear which record is open and whether it holds unsaved work. */
  stateChanged(): void {
    const open = this.openRecord();
    const was = this.announced;
    if (was?.entity === open?.entity && was?.id === open?.id && was?.editing === open?.editing) return;
    this.announced = open;
    this.feed.announce(open);
  }

  /** The page said ready: who else is on what it shows. */
  pageReady(): void {
    this.sendPresence();
  }

  /** The presence on what the Board shows now, to the page. */
  sendPresence(): void {
    if (!this.host.pageConnected()) return;
    const shown = this.openRecord();
    const list = this.host.state.list();
    const listEntity = list ? appModel(this.host.ast(), this.host.locale()).context(list.context)?.entity : undefined;
    this.host.notifyPage(protocol.presence, presenceView(this.presence, shown, listEntity));
  }

  /** Resolves once no change waits to be read and no read runs (tests). */
  async settled(): Promise<void> {
    while (this.timer !== undefined || this.running) {
      if (this.running) await this.running;
      else await new Promise((resolve) => setTimeout(resolve, BATCH_MS));
    }
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.unsubscribe();
    this.feed.announce(undefined);
  }

  private heard(event: ChangeFeedEvent): void {
    if (this.disposed) return;
    if (event.kind === 'presence') {
      this.presence = event.presence;
      this.sendPresence();
      return;
    }
    if (event.kind === 'connection') {
      this.connection(event.live, event.caughtUp ?? 0);
      return;
    }
    this.batch.add(event);
    this.schedule();
  }

  private connection(live: boolean, caughtUp: number): void {
    const t = translator(this.host.locale());
    if (!live) {
      this.paused = true;
      this.host.ui.log.warn('the change feed was lost: live updates are paused');
      this.host.setStatus(this.pausedStatus());
      return;
    }
    const wasPaused = this.paused;
    this.paused = false;
    // The first connection is no news (nor a line in the output for every Board).
    if (wasPaused || caughtUp > 0) {
      this.host.ui.log.info(`the change feed is back (${caughtUp} changes meanwhile)`);
      const text = caughtUp === 1 ? t('Up to date again: 1 change made meanwhile') : t('Up to date again: {0} changes made meanwhile', new Intl.NumberFormat(this.host.locale()).format(caughtUp));
      this.host.setStatus({ kind: 'info', text });
    }
    if (!wasPaused && caughtUp === 0) return;
    // What changed while away is not known record by record here: everything shown is read again.
    this.batch.readAll();
    this.schedule();
  }

  private schedule(): void {
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.run();
    }, BATCH_MS);
  }

  private async run(): Promise<void> {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        try {
          await this.read();
        } catch (error) {
          this.host.ui.log.warn(`reading what others changed failed: ${error instanceof Error ? error.message : String(error)}`);
        }
      } while (this.again && !this.disposed);
    })();
    try {
      await this.running;
    } finally {
      this.running = undefined;
    }
  }

  /** Reads again what the batch changed of what the Board shows. */
  private async read(): Promise<void> {
    if (this.batch.empty || this.disposed) return;
    const { changes, everything, outside } = this.batch.take();
    // Another program wrote the open record's table: its version (the row's state) says whether it was this record.
    const detailOutside = !everything && outside.has(this.openRecord()?.entity ?? '');
    await this.readDetail(changes, everything || detailOutside);
    await this.readReview(changes);
    if (!(await this.readList(changes, everything)) && outside.size) await this.compareList(outside);
  }

  /** Rows of the open review others changed or deleted: they become conflicts the person decides again (as when a save meets them). */
  private async readReview(changes: readonly RecordChange[]): Promise<void> {
    const { state } = this.host;
    const review = state.review();
    if (!review) return;
    const changed = changes.filter((c) => c.entity === review.entity).map((c) => ({ id: c.id, version: c.action === 'delete' ? null : c.version }));
    if (!changed.length) return;
    const current = await reviewRowsChanged(this.host.deps(), review, changed);
    if (current.length && state.review() === review) state.reviewConflicts(current);
  }

  /** The shown record: new values, a conflict with the person's unsaved work, or deleted. The echo of this Board's own save is no change. */
  private async readDetail(changes: readonly RecordChange[], everything: boolean): Promise<void> {
    const { state } = this.host;
    const snapshot = state.snapshot();
    const detail = snapshot.detail;
    const open = this.openRecord();
    if (!detail || !open || detail.version === undefined || detail.deleted || snapshot.context === undefined) return;
    const change = lastChangeOf(changes, open.entity, open.id);
    if (!change && !everything) return;
    if (change?.action === 'delete') {
      state.markDeleted();
      return;
    }
    // The version the form already shows (the echo of its own save, or read already). Only equal
    // says so: the version of a person's own row is its state (a digest on SQLite), not a count,
    // so a change may carry a smaller one; an older change costs one read that finds nothing new.
    if (!everything && change?.version !== null && change?.version !== undefined && change.version === detail.version) return;
    const context = snapshot.context;
    const current = await readStored(this.host.deps(), this.host.ast(), context, open.id);
    // The person may have moved on while it was read.
    const now = state.snapshot();
    if (now.context !== context || now.detail?.record.id !== detail.record.id || now.detail?.version !== detail.version) return;
    if (!current) {
      state.markDeleted();
      return;
    }
    if (current.version === detail.version) return;
    const view = { context, record: current.record, version: current.version };
    if (hasUnsavedForm(now) && storesTheForm(state, now, current.record)) return;
    if (hasUnsavedForm(now)) state.conflict(view);
    else state.refreshDetail(view);
  }

  /**
   * The shown list: the windows the page holds read again with its sort and filter, and the count.
   * True when the changes touched the list (it was read again, or the person moved on meanwhile).
   */
  private async readList(changes: readonly RecordChange[], everything: boolean): Promise<boolean> {
    const { state } = this.host;
    const list = state.list();
    const context = list && appModel(this.host.ast(), this.host.locale()).context(list.context);
    // Fixed results (a render) have nothing to read again.
    if (!list || !context || !list.source.refresh) return false;
    if (!everything && !touches(changes, listEntities(context))) return false;
    const listId = this.host.listId();
    const query = state.listQuery();
    const key = JSON.stringify(query);
    list.source.refresh();
    const read = await this.readWindows(listId, query);
    if (!read || !isSameQuery(state.listQuery(), key) || !this.host.pageConnected()) return true;
    for (const window of read.windows) this.windows?.sent.set(window.asked, rowsDigest(window.rows));
    this.host.notifyPage(protocol.listRows, { listId, query, total: read.total, windows: read.windows.map(({ offset, rows }) => ({ offset, rows })) });
    return true;
  }

  /**
   * Other programs wrote some of the list's entities: the windows the page holds are read again
   * as they were asked (the count kept, so this costs what the page's own scrolling does) and
   * compared with what the page was sent; only when one differs is the list read again whole.
   */
  private async compareList(outside: ReadonlySet<string>): Promise<void> {
    const { state } = this.host;
    const list = state.list();
    const context = list && appModel(this.host.ast(), this.host.locale()).context(list.context);
    if (!list || !context || !list.source.refresh) return;
    if (![...listEntities(context)].some((entity) => outside.has(entity))) return;
    const listId = this.host.listId();
    const query = state.listQuery();
    const sent = this.windows?.listId === listId && this.windows.query === JSON.stringify(query) ? this.windows.sent : undefined;
    // Before the page asked for a window it holds the list's first rows (taken before the read, which may replace them).
    const first = sent ? undefined : rowsDigest(gridRows(context.fields, list.source.first.records));
    const read = await this.readWindows(listId, query);
    if (!read) return;
    if (read.windows.every((window) => (sent ? sent.get(window.asked) : first) === rowsDigest(window.rows))) return;
    await this.readList([], true);
  }

  /** The windows the page asked for last (before it asked: the first rows the list came with), read now; undefined when the list changed meanwhile. */
  private async readWindows(listId: number, query: ListQuery): Promise<{ total: number; windows: { asked: number; offset: number; rows: ReturnType<typeof gridRows> }[] } | undefined> {
    const { state, board } = this.host;
    const list = state.list();
    const context = list && appModel(this.host.ast(), this.host.locale()).context(list.context);
    if (!list || !context) return undefined;
    const key = JSON.stringify(query);
    const asked = this.windows?.listId === listId && this.windows.query === key ? [...this.windows.byOffset] : [];
    const windows = asked.length ? asked : [[0, Math.max(1, list.source.first.records.length)] as const];
    const read: { asked: number; offset: number; rows: ReturnType<typeof gridRows> }[] = [];
    let total = 0;
    for (const [offset, limit] of windows) {
      const window = await listWindow(board, offset, limit, query);
      if (!window || state.list() !== list || this.host.listId() !== listId) return undefined;
      total = window.total;
      read.push({ asked: offset, offset: window.offset, rows: gridRows(context.fields, window.records) });
    }
    return { total, windows: read };
  }

  /** The stored record the Board's form shows, with whether it holds unsaved work. */
  private openRecord(): Open | undefined {
    const snapshot = this.host.state.snapshot();
    const detail = snapshot.detail;
    if (snapshot.kind !== 'detail' || !detail || detail.isNew || snapshot.context === undefined) return undefined;
    const id = detail.record.id;
    const entity = appModel(this.host.ast(), this.host.locale()).context(snapshot.context)?.entity;
    if (!entity || id === undefined || id === null || id === '') return undefined;
    return { entity, id: String(id), editing: hasUnsavedForm(snapshot) };
  }
}

/**
 * The stored record holds every unsaved value of the form: this Board's own save, read before the
 * save read its record back (which then shows it). No conflict with oneself.
 */
function storesTheForm(state: BoardState, snapshot: BoardSnapshot, record: BoardRecord): boolean {
  const form = state.formValues();
  const fields = [...(snapshot.edited ?? []), ...Object.keys(snapshot.pending)];
  return fields.every((field) => isDeepStrictEqual(plain(ownValue(form, field)), plain(ownValue(record, field))));
}

/** A ref as its id (the form may hold the related record, the read its id and name). */
function plain(value: unknown): unknown {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && 'id' in value ? (value as { id: unknown }).id : value ?? null;
}

function isSameQuery(query: ListQuery, key: string): boolean {
  return JSON.stringify(query) === key;
}
