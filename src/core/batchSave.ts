// Saving a reviewed batch (xos_ui_save and the Board's Save while a review is shown): one
// question naming the count, each field's summary and the first rows, bound to exactly the
// accepted cells; then one update_<entity>_many, every record against the version read. When any
// changed meanwhile nothing is written and the review marks those rows for the person. Undo of a
// batch is a batch too. No MCP, no VS Code.
import { isDeepStrictEqual } from 'node:util';
import type { Ast } from '../ast/schema.ts';
import { fieldDef, fieldLabel, ownValue } from '../ast/lookup.ts';
import { readAudit, type AuditEntry, type AuditPath } from '../graphql/audit.ts';
import { buildAuditQuery, buildReviewRowsQuery, MAX_REVIEW_ROWS } from '../graphql/requests.ts';
import { auditAction, writeRecords, type BatchPayload, type PreparedWrite } from './boundWrites.ts';
import { hasUnsavedForm, withoutVersion, type CoreDeps } from './base.ts';
import { storedRows } from './batch.ts';
import { compare, subtract, toDecimal, add, decimalText, type Decimal } from './decimal.ts';
import type { BatchSummary, BoardRecord, SaveSummary } from './domain.ts';
import type { SaveOutcome, UndoOutcome } from './outcomes.ts';
import type { BatchChange, CurrentRecord, Review } from './review.ts';
import { askBound, confirmedText } from './asking.ts';

/** First rows the question names. */
const FIRST_ROWS = 3;
/** Distinct values the question names per field. */
const VALUES_NAMED = 4;
/** Audit entries read per page when an undo collects its batch. */
const AUDIT_PAGE = 500;

/**
 * Saves the review on the Board after the person confirmed exactly its accepted cells. `leaveConflictsOut`:
 * rows changed or deleted meanwhile are left out (the question counts them) instead of holding the save back.
 */
export async function saveReview(deps: CoreDeps, review: Review, signal: AbortSignal, path: AuditPath = 'agent', approval = 'Save', leaveConflictsOut = false): Promise<SaveOutcome> {
  const prepared = prepareReview(deps, review, approval, leaveConflictsOut);
  if (!('payload' in prepared)) return prepared;
  if (review.asking) return { kind: 'review_asking', ok: false, entity: review.entity };
  const away = deps.confirmer.unavailable?.();
  if (away) return { kind: 'not_asked', ok: false, action: 'save', reason: away };
  const asked = review.accepted();
  review.asking = true;
  let answer: Awaited<ReturnType<typeof askBound>>;
  try {
    answer = await askBound(deps, prepared.summary, signal);
  } finally {
    review.asking = false;
  }
  if (answer === 'void' || deps.board.review() !== review || !isDeepStrictEqual(review.accepted(), asked)) {
    return { kind: 'changed_while_asked', ok: false, action: 'save' };
  }
  if (answer !== 'save') return { kind: 'declined', ok: false, action: 'save', answer };

  const { payload } = prepared;
  const fields = [...payload.fields];
  const cells = payload.rows.reduce((n, c) => n + Object.keys(c.set).length, 0);
  const claim = await deps.boardWriting?.();
  const write = await writeRecords(deps.client, payload, { path, approval: confirmedText(auditAction(payload), fields.map((field) => ({ field })), claim?.approvals) });
  if (write.kind !== 'written') await claim?.notWritten();
  if (write.kind === 'no_answer') {
    if (write.certainlyNotProcessed) return { kind: 'unavailable', ok: false, reason: (write.failure as Error).message };
    // Sent, but no answer: one transaction, so reading the records back tells all or nothing. Never retried.
    return unsettled(deps, astOf(deps), review, payload.rows, fields, cells, write.failure);
  }
  if (write.kind === 'conflict') {
    const conflicts = (write.error.extensions?.conflicts ?? []) as Array<{ id: string; current: Record<string, unknown> | null }>;
    deps.board.reviewConflicts(conflicts.map(({ id, current }) => ({ id: String(id), current: current ? currentRecord(astOf(deps), review, current) : null })));
    const gone = conflicts.filter((c) => !c.current).length;
    return {
      kind: 'batch_conflict', ok: false, entity: review.entity, records: payload.rows.length, conflicts: conflicts.length - gone, gone,
      ids: conflicts.slice(0, 10).map((c) => String(c.id)),
    };
  }
  if (write.kind === 'refused') return { kind: 'server_refused', ok: false, action: 'save', entity: review.entity, error: write.error };
  // The write names its audit batch; a server that does not is asked its trail.
  const batch = write.batch ?? await batchOf(deps, review.entity, payload.rows[0].id);
  const outcome: SaveOutcome = { kind: 'batch_saved', ok: true, entity: review.entity, records: payload.rows.length, cells, fields, ...(batch ? { batch } : {}) };
  await claim?.written(prepared, outcome);
  await showStoredReview(deps, review);
  deps.onBatchSaved?.(outcome);
  return outcome;
}

const astOf = (deps: CoreDeps): Ast => deps.client.ast();

/**
 * What saving the review would write now: exactly its accepted cells, every row against the
 * version read; or why nothing can be saved. `approval`: how the audit trail names it.
 */
export function prepareReview(deps: CoreDeps, review: Review, approval = 'Save', leaveConflictsOut = false): Extract<PreparedWrite, { kind: 'batch' }> | SaveOutcome {
  const tally = review.tally();
  const conflicts = { kind: 'review_conflicts', ok: false, entity: review.entity, count: tally.conflicts } as const;
  if (tally.conflicts && !leaveConflictsOut) return conflicts;
  const accepted = review.accepted();
  if (accepted.length === 0) return tally.conflicts ? conflicts : { kind: 'nothing_to_save', ok: false, why: 'unchanged' };
  const gone = leaveConflictsOut ? review.inFilter('invalid').filter((row) => review.rowProblem(row) === 'gone').length : 0;
  const leftOut = leaveConflictsOut ? tally.conflicts + gone : 0;
  const summary: SaveSummary = {
    entity: review.entity, id: '', changes: [],
    batch: { ...batchSummary(astOf(deps), deps.locale, review, accepted), ...(leftOut ? { changedSince: leftOut } : {}) },
  };
  const payload: BatchPayload = {
    kind: 'batch', context: review.context, entity: review.entity, action: approval,
    rows: accepted.map((c) => ({ id: c.id, version: c.version, set: { ...c.set } })),
    fields: review.fields.filter((f) => accepted.some((c) => Object.hasOwn(c.set, f))),
  };
  return { kind: 'batch', payload, summary };
}

/** After the write: the list as stored now, sorted and filtered as the person had it (the review is done). Also after a stored approval wrote the review. */
export async function showStoredReview(deps: CoreDeps, review: Review): Promise<void> {
  const list = deps.board.list();
  if (deps.board.review() !== review) return;
  if (list?.source.reopen) deps.board.showList({ context: list.context, source: await list.source.reopen() }, deps.board.listQuery());
  else deps.board.closeReview();
}

/** The batch id the audit trail gave the write (read from its first record's newest entry). */
async function batchOf(deps: CoreDeps, entity: string, id: string): Promise<string | undefined> {
  const [entry] = await readAudit(deps.client, { entity, id }, 1).catch((): AuditEntry[] => []);
  return entry?.batch;
}

/** A conflicting record as the API sent it, in the review's terms (refs by their field name). */
function currentRecord(ast: Ast, review: Review, current: Record<string, unknown>): { record: BoardRecord; version: number } {
  const record: BoardRecord = {};
  for (const field of review.fields) {
    const def = fieldDef(ast, review.entity, field);
    record[field] = (def?.type === 'ref' ? ownValue(current, `${field}_id`) ?? ownValue(current, field) : ownValue(current, field)) ?? null;
  }
  return { record, version: Number(current.version) };
}

/** What the person is asked: the count, a summary per field, the first rows. */
export function batchSummary(ast: Ast, locale: string | undefined, review: Review, accepted: readonly BatchChange[]): BatchSummary {
  const label = (field: string) => fieldLabel(ast, review.entity, field, locale);
  const fields = review.fields.filter((f) => accepted.some((c) => Object.hasOwn(c.set, f))).map((field) => {
    const type = fieldDef(ast, review.entity, field)?.type;
    if (type === 'int' || type === 'decimal') {
      let min: Decimal | undefined;
      let max: Decimal | undefined;
      let total: Decimal = { units: 0n, scale: 0 };
      for (const change of accepted) {
        if (!Object.hasOwn(change.set, field)) continue;
        const to = toDecimal(change.set[field]);
        const from = toDecimal(review.row(change.id)?.cells.get(field)?.from);
        if (!to || !from) continue;
        const delta = subtract(to, from);
        if (!min || compare(delta, min) < 0) min = delta;
        if (!max || compare(delta, max) > 0) max = delta;
        total = add(total, delta);
      }
      const signed = (d: Decimal) => `${d.units > 0n ? '+' : ''}${decimalText(d)}`;
      if (min && max) return { field, label: label(field), numeric: { min: signed(min), max: signed(max), total: signed(total) } };
    }
    const counts = new Map<string, { value: unknown; count: number }>();
    for (const change of accepted) {
      if (!Object.hasOwn(change.set, field)) continue;
      const value = change.set[field];
      const key = JSON.stringify(value);
      const entry = counts.get(key) ?? { value, count: 0 };
      entry.count++;
      counts.set(key, entry);
    }
    const values = [...counts.values()].sort((a, b) => b.count - a.count);
    return { field, label: label(field), values: values.slice(0, VALUES_NAMED), ...(values.length > VALUES_NAMED ? { moreValues: values.length - VALUES_NAMED } : {}) };
  });
  const first = accepted.slice(0, FIRST_ROWS).map((change) => ({
    id: change.id,
    changes: Object.entries(change.set).map(([field, to]) => ({ label: label(field), from: review.row(change.id)?.cells.get(field)?.from ?? null, to })),
  }));
  return {
    records: accepted.length, cells: accepted.reduce((n, c) => n + Object.keys(c.set).length, 0), fields, first,
    ...(review.undoOf ? { undo: true } : {}),
  };
}

/** The write's answer was lost: the records read back say whether the one transaction was stored. */
async function unsettled(deps: CoreDeps, ast: Ast, review: Review, asked: readonly BatchChange[], fields: readonly string[], cells: number, failure: unknown): Promise<SaveOutcome> {
  const reason = failure instanceof Error ? failure.message : String(failure);
  const lost = { kind: 'batch_answer_lost', ok: false, entity: review.entity, records: asked.length, reason } as const;
  try {
    const request = buildReviewRowsQuery(ast, review.context, { id: { _eq: asked[0].id } }, []);
    const result = await deps.client.run(request.query, request.variables);
    const row = (result.data?.[request.root] as BoardRecord[] | undefined)?.[0];
    if (!row) return { ...lost, found: 'unknown' };
    if (row.version === asked[0].version) return { ...lost, found: 'unchanged' };
    const batch = await batchOf(deps, review.entity, asked[0].id);
    await showStoredReview(deps, review);
    return { kind: 'batch_saved', ok: true, entity: review.entity, records: asked.length, cells, fields, lostAnswer: reason, ...(batch ? { batch } : {}) };
  } catch {
    return { ...lost, found: 'unknown' };
  }
}

/** Every entry of an audit batch (at most one batch write's worth), oldest first. */
async function batchEntries(deps: Pick<CoreDeps, 'client'>, batch: string): Promise<AuditEntry[]> {
  const entries: AuditEntry[] = [];
  for (let offset = 0; offset <= MAX_REVIEW_ROWS; offset += AUDIT_PAGE) {
    const page = await readAudit(deps.client, { batch }, AUDIT_PAGE, offset);
    entries.push(...page);
    if (page.length < AUDIT_PAGE) break;
  }
  return entries.reverse();
}

/** How many records an audit batch changed. */
export async function batchSize(deps: Pick<CoreDeps, 'client'>, batch: string): Promise<number> {
  const request = buildAuditQuery({ batch }, 0, 0, true);
  const result = await deps.client.run(request.query, request.variables);
  return Number(result.data?.xos_audit_count ?? 0);
}

/**
 * Undo of a batch: every record's old values as one review against the version the batch produced;
 * one question, one transaction. A record changed since is a conflict, never overwritten.
 */
export async function undoBatch(deps: CoreDeps, batch: string, signal: AbortSignal, path: AuditPath = 'board'): Promise<UndoOutcome> {
  if (hasUnsavedForm(deps.board.snapshot())) return { kind: 'unsaved_form', ok: false };
  const ast = deps.client.ast();
  const entries = (await batchEntries(deps, batch)).filter((e) => e.action === 'update' && e.entity && e.recordId && e.versionTo !== null);
  if (entries.length === 0) return { kind: 'batch_gone', ok: false, batch };
  const entity = entries[0].entity!;
  const fields = [...new Set(entries.flatMap((e) => Object.keys(e.changes)))];
  const context = Object.entries(ast.contexts).find(([, c]) => c.kind === 'list' && c.entity === entity)?.[0];
  const detail = Object.values(ast.contexts).find((c) => c.kind === 'detail' && c.entity === entity && fields.every((f) => (c.editable ?? []).includes(f)));
  if (!context || !detail) return { kind: 'not_undoable', ok: false, entity, fields };
  deps.board.showReview({
    context, entity, fields, unchanged: 0, undoOf: { batch, records: entries.length },
    rows: entries.map((entry) => ({
      id: entry.recordId!,
      version: entry.versionTo!,
      record: { id: entry.recordId!, ...Object.fromEntries(Object.entries(entry.changes).map(([f, c]) => [f, c.to])) },
      proposed: Object.fromEntries(Object.entries(entry.changes).map(([f, c]) => [f, c.from])),
    })),
  });
  const review = deps.board.review()!;
  // Records changed or deleted since the batch are found before the person is asked, so one question
  // says how many are left out (they show what is stored now, to accept again if the person wants).
  const stored = await storedRows(deps, review, entries.map((entry) => entry.recordId!));
  const since = entries.map((entry) => entry.recordId!).flatMap((id): CurrentRecord[] => {
    const record = stored.get(id);
    if (!record) return [{ id, current: null }];
    const now = withoutVersion(record);
    return now.version === review.row(id)!.version ? [] : [{ id, current: now }];
  });
  if (since.length) deps.board.reviewConflicts(since);
  return saveReview(deps, review, signal, path, `Undo of batch ${batch}`, true);
}
