// The consent model: generated sequences of what the agent and the person do, run against a real
// embedded backend (SQLite in memory) and checked against a model of the decisions. The agent
// proposes a bulk change (xos_ui_change_required with where/set) or a form change, and asks to save
// without an MCP session (a stored approval, as protocol 2026-07-28 requests are) or with one (the
// blocking question, answered Save or Discard). The person opens records, unchecks and rechecks rows
// and cells in the review grid, types values into the grid and the form, looks at the approval desk,
// approves (with the hash the desk showed, or one it showed earlier) and declines there.
// Invariants after every step: every write that reached the backend equals exactly the payload of
// one decision the model expects (rows, versions, values), in order; nothing is written without a
// decision and nothing twice (the stored records and versions equal the model's); the desk binds
// each approval's question to the hash of exactly what Approve writes.
// XOS_CONSENT_RUNS changes the number of runs (default 1,000; the seed is fixed).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { APPROVALS_FILE, SqliteApprovalStore } from '../../src/store/approvalStore.ts';
import { payloadHash, type BatchPayload, type SavePayload } from '../../src/core/boundWrites.ts';
import type { XosClient } from '../../src/core/domain.ts';
import { undoBatch } from '../../src/core/batchSave.ts';
import { showRecord } from '../../src/core/show.ts';
import { buildAuditQuery } from '../../src/graphql/requests.ts';
import { embeddedClient } from '../../src/graphql/client.ts';
import { startDecisionApp, type DecisionApp } from '../support/decisionApp.ts';
import { tempDir, type TempDir } from '../support/tmp.ts';

const RUNS = Number(process.env.XOS_CONSENT_RUNS ?? 1_000);
const SEED = 20_261_205;
const IDS = ['1', '2', '3', '4'] as const;
const FIELDS = ['zip', 'city'] as const; // the review's order: the detail context's editable order
const VALUES = { city: ['Kiel', 'Bonn', 'Ulm'], zip: ['10115', '80331', '50667'] } as const;
type Field = (typeof FIELDS)[number];
type Values = Record<Field, string | null>;

// ---- the model ------------------------------------------------------------------------------

interface StoredRow extends Values { version: number }
interface Cell { to: string; accepted: boolean }
interface ReviewRow { version: number; record: Values; cells: Map<Field, Cell>; conflict: boolean }
interface ModelReview { readonly token: number; readonly fields: readonly Field[]; readonly rows: Map<string, ReviewRow> }
interface ModelForm {
  token: number; readonly id: string; version: number; loaded: Values; readonly values: Map<Field, string>; readonly conflicts: Set<Field>;
  /** The agent's proposals the form shows (the person's own values are not in it). */
  readonly proposals: Map<Field, string>;
}
type Write = BatchPayload | SavePayload;
type Effective = { kind: 'write'; payload: Write } | { kind: 'nothing' } | { kind: 'not_ready' };
interface ModelApproval {
  readonly id: string; readonly requested: Write; readonly link: number | undefined;
  /** The agent's proposals on the form when it was asked: a new or changed one ends the link. */
  readonly proposals: ReadonlyMap<Field, string>;
}

interface Model {
  readonly db: Map<string, StoredRow>;
  review?: ModelReview;
  form?: ModelForm;
  tokens: number;
  readonly approvals: ModelApproval[];
  /** Every write the backend should have received, in order. */
  readonly writes: Write[];
  /** The batches written: per record the version it produced and each changed field's value before and after (the audit trail's). */
  readonly batches: Array<Array<{ id: string; versionTo: number; changes: Array<{ field: Field; from: string | null; to: string | null }> }>>;
  /** The desk's last listing: approval id → the payload it showed (undefined: nothing to write). */
  listing: Map<string, { hash?: string; payload?: Write }>;
}

interface Real {
  readonly decisions: DecisionApp;
  /** Every write that reached the backend, as sent. */
  readonly writes: Write[];
}

const canonical = (write: Write | undefined) => (write ? payloadHash(write) : undefined);

/** What Save (or Approve, linked) would write from what the Board shows now. */
function boardEffective(m: Model, leaveConflictsOut = false): Effective {
  if (m.review) {
    const review = m.review;
    const conflicts = [...review.rows.values()].some((r) => r.conflict);
    if (conflicts && !leaveConflictsOut) return { kind: 'not_ready' };
    const rows = [...review.rows.entries()].filter(([, r]) => !r.conflict && [...r.cells.values()].some((c) => c.accepted)).map(([id, r]) => ({
      id, version: r.version, set: Object.fromEntries([...r.cells.entries()].filter(([, c]) => c.accepted).map(([f, c]) => [f, c.to])),
    }));
    if (rows.length === 0) return { kind: 'nothing' };
    const fields = review.fields.filter((f) => rows.some((r) => Object.hasOwn(r.set, f)));
    return { kind: 'write', payload: { kind: 'batch', context: 'person_list', entity: 'person', rows, fields, action: 'Save' } };
  }
  if (m.form) {
    const form = m.form;
    if (form.conflicts.size) return { kind: 'not_ready' };
    const set = Object.fromEntries(FIELDS.filter((f) => form.values.has(f) && form.values.get(f) !== form.loaded[f]).map((f) => [f, form.values.get(f)!]));
    if (Object.keys(set).length === 0) return { kind: 'nothing' };
    return { kind: 'write', payload: { kind: 'save', context: 'person_detail', entity: 'person', id: form.id, version: form.version, set, action: 'Save' } };
  }
  return { kind: 'nothing' };
}

const currentToken = (m: Model) => m.review?.token ?? m.form?.token;

/** Whether the approval is one decision with what the Board shows: the same review or form, shaped by the person alone. */
function holds(m: Model, approval: ModelApproval): boolean {
  if (approval.link === undefined || approval.link !== currentToken(m)) return false;
  return [...(m.form?.proposals ?? new Map<Field, string>())].every(([field, value]) => approval.proposals.get(field) === value);
}

function approvalEffective(m: Model, approval: ModelApproval): Effective {
  if (holds(m, approval)) return boardEffective(m);
  return { kind: 'write', payload: approval.requested };
}

const rowsOf = (write: Write) => (write.kind === 'batch' ? write.rows : [{ id: write.id, version: write.version, set: write.set }]);

/** The backend's version check: written whole, or (a record at another version) not at all. */
function commit(m: Model, write: Write): 'written' | 'conflict' {
  const rows = rowsOf(write);
  if (rows.some((r) => m.db.get(r.id)!.version !== r.version)) return 'conflict';
  const batch: Model['batches'][number] = [];
  for (const row of rows) {
    const stored = m.db.get(row.id)!;
    const before = valuesOf(stored);
    for (const [field, value] of Object.entries(row.set)) stored[field as Field] = value as string;
    stored.version++;
    batch.push({ id: row.id, versionTo: stored.version, changes: FIELDS.filter((f) => before[f] !== stored[f]).map((f) => ({ field: f, from: before[f], to: stored[f] })) });
  }
  if (write.kind === 'batch') m.batches.push(batch);
  m.writes.push(write);
  return 'written';
}

const valuesOf = (row: StoredRow): Values => ({ city: row.city, zip: row.zip });

/** After a write the Board shows (its own Save, or an approval linked to it): the review is done, the form shows the stored record. */
function shownAsStored(m: Model): void {
  if (m.review) m.review = undefined;
  else if (m.form) openForm(m, m.form.id);
}

function openForm(m: Model, id: string): void {
  const row = m.db.get(id)!;
  m.review = undefined;
  m.form = { token: ++m.tokens, id, version: row.version, loaded: valuesOf(row), values: new Map(), conflicts: new Set(), proposals: new Map() };
}

/** A save of the Board met a newer version: the review marks those rows, the form takes the stored record with conflicts. */
function conflicted(m: Model, write: Write): void {
  if (m.review && write.kind === 'batch') {
    for (const row of write.rows) {
      const stored = m.db.get(row.id)!;
      const mine = m.review.rows.get(row.id)!;
      if (stored.version === row.version) continue;
      mine.version = stored.version;
      mine.record = valuesOf(stored);
      for (const cell of mine.cells.values()) cell.accepted = false;
      mine.conflict = true;
    }
  } else if (m.form && write.kind === 'save') {
    const form = m.form;
    const stored = m.db.get(form.id)!;
    form.conflicts.clear();
    for (const field of form.values.keys()) if (form.loaded[field] !== stored[field]) form.conflicts.add(field);
    form.token = ++m.tokens;
    form.version = stored.version;
    form.loaded = valuesOf(stored);
  }
}

const unsavedForm = (m: Model) => m.form !== undefined && (m.form.values.size > 0 || m.form.conflicts.size > 0);

// ---- the real side ------------------------------------------------------------------------------

async function stored(client: XosClient): Promise<Map<string, StoredRow>> {
  const result = await client.run('query ($ids: [ID!]) { person_list(where: { id: { _in: $ids } }) { id city zip version } }', { ids: [...IDS] });
  assert.equal(result.errors, undefined, JSON.stringify(result.errors));
  return new Map((result.data!.person_list as Array<StoredRow & { id: string }>).map((p) => [String(p.id), { city: p.city, zip: p.zip, version: p.version }]));
}

/** The writes the backend took, as the client sent them (an update of one record or of many). */
function recording(inner: XosClient, writes: Write[]): XosClient {
  return {
    ast: () => inner.ast(),
    status: () => inner.status(),
    async run(query, variables, audit, signal) {
      const result = await inner.run(query, variables, audit, signal);
      // A write the backend refused (a record at another version) wrote nothing.
      if (/^\s*mutation\b/.test(query) && !result.errors?.length) {
        const v = structuredClone(variables ?? {}) as Record<string, unknown>;
        if (/update_person_many/.test(query)) {
          const rows = (v.updates as Array<{ id: string; version: number; set: Record<string, unknown> }>).map((u) => ({ id: String(u.id), version: u.version, set: u.set }));
          writes.push({ kind: 'batch', context: 'person_list', entity: 'person', rows, fields: [], action: '' });
        } else if (/update_person\(/.test(query)) {
          writes.push({ kind: 'save', context: 'person_detail', entity: 'person', id: String(v.id), version: v.version as number, set: v.set as Record<string, unknown>, action: '' });
        } else {
          writes.push({ kind: 'save', context: 'unexpected', entity: query, id: '', version: 0, set: {}, action: '' });
        }
      }
      return result;
    },
  };
}

/** A write as the backend sees it: its records, versions and values. */
const sent = (write: Write) => rowsOf(write).map((r) => ({ id: r.id, version: r.version, set: r.set }));

async function checkInvariants(m: Model, r: Real, client: XosClient): Promise<void> {
  assert.deepEqual(r.writes.map(sent), m.writes.map(sent), 'every write is exactly one decision\'s payload, once, and none without a decision');
  assert.deepEqual(await stored(client), m.db, 'the stored records are what the decisions wrote');
}

// ---- the commands ------------------------------------------------------------------------------

type Command = fc.AsyncCommand<Model, Real>;
let client: XosClient;
/** How often each kind of decision happened over all runs: the generator must reach every one. */
const seen = new Map<string, number>();
const saw = (what: string) => seen.set(what, (seen.get(what) ?? 0) + 1);

class ProposeBulk implements Command {
  readonly ids: readonly string[];
  readonly city: string;
  readonly zip: string;
  constructor(ids: readonly string[], city: string, zip: string) {
    this.ids = ids;
    this.city = city;
    this.zip = zip;
  }
  check = () => true;
  async run(m: Model, r: Real) {
    const reply = await r.decisions.sessionless('xos_ui_change_required', { context: 'person_list', changes: { where: { id: { _in: this.ids } }, set: { city: this.city, zip: this.zip } } });
    const set: Values = { city: this.city, zip: this.zip };
    const rows = new Map<string, ReviewRow>();
    for (const id of [...this.ids].sort((a, b) => Number(a) - Number(b))) {
      const row = m.db.get(id)!;
      const cells = new Map(FIELDS.filter((f) => row[f] !== set[f]).map((f) => [f, { to: set[f]!, accepted: true }]));
      if (cells.size) rows.set(id, { version: row.version, record: valuesOf(row), cells, conflict: false });
    }
    if (unsavedForm(m) || rows.size === 0) {
      assert.equal(reply.isError, true, reply.text);
      return;
    }
    assert.equal(reply.isError, false, reply.text);
    m.form = undefined;
    m.review = { token: ++m.tokens, fields: FIELDS, rows };
    await checkInvariants(m, r, client);
  }
  toString = () => `ProposeBulk(${this.ids.join(',')}: ${this.city}, ${this.zip})`;
}

class OpenRecord implements Command {
  readonly id: string;
  constructor(id: string) {
    this.id = id;
  }
  check = () => true;
  async run(m: Model, r: Real) {
    await showRecord(r.decisions.app.deps(), 'person_detail', this.id);
    openForm(m, this.id);
    await checkInvariants(m, r, client);
  }
  toString = () => `OpenRecord(${this.id})`;
}

class ProposeForm implements Command {
  readonly field: Field;
  readonly value: string;
  constructor(field: Field, value: string) {
    this.field = field;
    this.value = value;
  }
  check = (m: Readonly<Model>) => m.form !== undefined;
  async run(m: Model, r: Real) {
    const reply = await r.decisions.sessionless('xos_ui_change_required', { context: 'person_detail', changes: { [this.field]: this.value } });
    assert.equal(reply.isError, false, reply.text);
    m.form!.values.set(this.field, this.value);
    m.form!.proposals.set(this.field, this.value);
    await checkInvariants(m, r, client);
  }
  toString = () => `ProposeForm(${this.field}=${this.value})`;
}

class SaveWithoutSession implements Command {
  check = () => true;
  async run(m: Model, r: Real) {
    const reply = await r.decisions.sessionless('xos_ui_save');
    const effective = boardEffective(m);
    if (effective.kind !== 'write') {
      assert.equal(reply.isError, true, reply.text);
    } else {
      assert.equal(reply.isError, false, reply.text);
      const id = /approval: "([^"]+)"/.exec(reply.text)?.[1];
      assert.ok(id, reply.text);
      // The same write asked again while it waits is the waiting approval, not a second one.
      const waiting = m.approvals.find((a) => canonical(a.requested) === canonical(effective.payload));
      if (waiting) {
        assert.equal(id, waiting.id, 'asked again: the waiting approval');
        saw('asked again: the waiting approval');
      } else {
        m.approvals.push({ id, requested: effective.payload, link: currentToken(m), proposals: new Map(m.form?.proposals) });
      }
    }
    await checkInvariants(m, r, client);
  }
  toString = () => 'SaveWithoutSession';
}

class SaveWithSession implements Command {
  readonly answer: 'save' | 'discard';
  constructor(answer: 'save' | 'discard') {
    this.answer = answer;
  }
  check = () => true;
  async run(m: Model, r: Real) {
    const { questions } = r.decisions;
    const asked = questions.asked.length;
    questions.answers = [this.answer];
    const reply = await r.decisions.withSession('xos_ui_save');
    questions.answers = [];
    const effective = boardEffective(m);
    assert.equal(questions.asked.length - asked, effective.kind === 'write' ? 1 : 0, `asked once exactly when there is something to write: ${reply.text}`);
    if (effective.kind === 'write' && this.answer === 'save') {
      const result = commit(m, effective.payload);
      saw(`blocking question: ${effective.payload.kind} ${result}`);
      if (result === 'written') {
        assert.equal(reply.isError, false, reply.text);
        // The approvals asked from what the Board showed are decided by this Save: they leave the desk, approved.
        for (const settled of m.approvals.filter((a) => holds(m, a))) {
          m.approvals.splice(m.approvals.indexOf(settled), 1);
          saw('blocking question: settles an approval');
        }
        shownAsStored(m);
      } else {
        assert.equal(reply.isError, true, reply.text);
        conflicted(m, effective.payload);
      }
    } else {
      assert.equal(reply.isError, true, reply.text);
    }
    await checkInvariants(m, r, client);
  }
  toString = () => `SaveWithSession(${this.answer})`;
}

class DecideRow implements Command {
  readonly accept: boolean;
  readonly id: string | undefined;
  readonly field?: Field;
  constructor(accept: boolean, id: string | undefined, field?: Field) {
    this.accept = accept;
    this.id = id;
    this.field = field;
  }
  check = (m: Readonly<Model>) => m.review !== undefined && (this.id === undefined || m.review.rows.has(this.id));
  async run(m: Model, r: Real) {
    r.decisions.app.state.reviewDecide(this.accept, this.id, this.field);
    // One row, or (no id) every row.
    for (const [rowId, row] of m.review!.rows) {
      if (this.id !== undefined && rowId !== this.id) continue;
      for (const [field, cell] of row.cells) if (this.field === undefined || field === this.field) cell.accepted = this.accept;
      row.conflict = false;
    }
    await checkInvariants(m, r, client);
  }
  toString = () => `${this.accept ? 'Accept' : 'Reject'}(${this.id ?? 'every row'}${this.field ? `.${this.field}` : ''})`;
}

class TypeCell implements Command {
  readonly id: string;
  readonly field: Field;
  readonly value: string;
  constructor(id: string, field: Field, value: string) {
    this.id = id;
    this.field = field;
    this.value = value;
  }
  check = (m: Readonly<Model>) => m.review?.rows.has(this.id) === true;
  async run(m: Model, r: Real) {
    r.decisions.app.state.reviewEdit(this.id, this.field, this.value);
    const row = m.review!.rows.get(this.id)!;
    row.cells.set(this.field, { to: this.value, accepted: true });
    await checkInvariants(m, r, client);
  }
  toString = () => `TypeCell(${this.id}.${this.field}=${this.value})`;
}

class TypeForm implements Command {
  readonly field: Field;
  readonly value: string;
  constructor(field: Field, value: string) {
    this.field = field;
    this.value = value;
  }
  check = (m: Readonly<Model>) => m.form !== undefined;
  async run(m: Model, r: Real) {
    r.decisions.app.controller.board.edit(this.field, this.value);
    m.form!.values.set(this.field, this.value);
    m.form!.proposals.delete(this.field);
    m.form!.conflicts.delete(this.field);
    await checkInvariants(m, r, client);
  }
  toString = () => `TypeForm(${this.field}=${this.value})`;
}

/** The person looks at the desk: each approval's question is bound to the hash of exactly what Approve writes now. */
class LookAtDesk implements Command {
  check = () => true;
  async run(m: Model, r: Real) {
    const views = await r.decisions.app.approvalDesk!.pending();
    assert.deepEqual(views.map((v) => v.id).sort(), m.approvals.map((a) => a.id).sort());
    m.listing = new Map();
    for (const view of views) {
      const effective = approvalEffective(m, m.approvals.find((a) => a.id === view.id)!);
      const payload = effective.kind === 'write' ? effective.payload : undefined;
      assert.equal(view.hash, canonical(payload), `the desk shows what Approve writes: ${view.question}`);
      if (effective.kind === 'nothing') assert.match(view.question, /^Nothing left to write/);
      m.listing.set(view.id, { ...(view.hash ? { hash: view.hash } : {}), ...(payload ? { payload } : {}) });
    }
    await checkInvariants(m, r, client);
  }
  toString = () => 'LookAtDesk';
}

class DecideOnDesk implements Command {
  /** `earlier`: the person clicks in the listing they saw last (its hash), not in a fresh one. */
  readonly pick: number;
  readonly decision: 'approve' | 'decline';
  readonly earlier: boolean;
  constructor(pick: number, decision: 'approve' | 'decline', earlier: boolean) {
    this.pick = pick;
    this.decision = decision;
    this.earlier = earlier;
  }
  check = (m: Readonly<Model>) => m.approvals.length > 0;
  async run(m: Model, r: Real) {
    const approval = m.approvals[this.pick % m.approvals.length];
    const desk = r.decisions.app.approvalDesk!;
    const seen = this.earlier ? m.listing.get(approval.id) : undefined;
    const hash = this.earlier ? seen?.hash : (await desk.pending()).find((v) => v.id === approval.id)?.hash;
    const outcome = await desk.decide(approval.id, this.decision, hash);
    const pendingStill = () => m.approvals;
    if (this.decision === 'decline') {
      assert.equal(outcome.kind, 'declined');
      saw('desk decline');
      m.approvals.splice(m.approvals.indexOf(approval), 1);
    } else {
      const effective = approvalEffective(m, approval);
      const linked = holds(m, approval);
      if (effective.kind !== 'write') {
        assert.equal(outcome.kind, 'failed', `nothing to write: nothing written (${JSON.stringify(outcome)})`);
        saw(`desk approve: ${effective.kind}, nothing written`);
      } else if (hash !== undefined && hash !== canonical(effective.payload)) {
        assert.equal(outcome.kind, 'failed', `a hash the approval no longer has: nothing written (${JSON.stringify(outcome)})`);
        saw('desk approve: changed since shown, nothing written');
      } else {
        m.approvals.splice(m.approvals.indexOf(approval), 1);
        if (commit(m, effective.payload) === 'written') {
          assert.equal(outcome.kind, 'approved', JSON.stringify(outcome));
          saw(`desk approve: ${effective.payload.kind} written ${linked ? 'with the Board\'s decisions' : 'as requested'}`);
          if (linked) shownAsStored(m);
          else if (effective.payload.kind === 'save' && m.form && !m.review) {
            // An approved change the form still shows exactly is shown as stored (not offered again).
            const now = boardEffective(m);
            const payload = effective.payload;
            const form = m.form;
            if (now.kind === 'write' && now.payload.kind === 'save' && form.id === payload.id && form.version === payload.version
              && canonical({ ...now.payload, version: payload.version }) === canonical({ ...payload, action: 'Save' })) openForm(m, form.id);
          }
        } else {
          assert.equal(outcome.kind, 'void', JSON.stringify(outcome));
          saw('desk approve: void');
        }
      }
    }
    assert.ok(pendingStill());
    await checkInvariants(m, r, client);
  }
  toString = () => `${this.decision}OnDesk(#${this.pick}${this.earlier ? ', as listed earlier' : ''})`;
}

/** History's Undo of the last batch written: its old values as a review, one blocking question (Save or Discard), one transaction. */
class UndoLastBatch implements Command {
  readonly answer: 'save' | 'discard';
  constructor(answer: 'save' | 'discard') {
    this.answer = answer;
  }
  check = (m: Readonly<Model>) => m.batches.length > 0;
  async run(m: Model, r: Real) {
    const written = m.batches.at(-1)!;
    const first = written[0];
    const request = buildAuditQuery({ entity: 'person', id: first.id }, 50);
    const trail = await client.run(request.query, request.variables);
    const entry = (trail.data!.xos_audit as Array<{ version_to: number | null; batch: string | null }>).find((e) => e.version_to === first.versionTo);
    assert.ok(entry?.batch, 'the batch is in the audit trail');
    const { questions } = r.decisions;
    const asked = questions.asked.length;
    questions.answers = [this.answer];
    const outcome = await undoBatch(r.decisions.app.deps(), entry.batch, AbortSignal.timeout(10_000));
    questions.answers = [];
    if (unsavedForm(m)) {
      assert.equal(outcome.kind, 'unsaved_form');
      await checkInvariants(m, r, client);
      return;
    }
    const fields = FIELDS.filter((f) => written.some((row) => row.changes.some((c) => c.field === f)));
    const rows = new Map(written.map((row) => [row.id, {
      version: row.versionTo,
      record: { city: null, zip: null, ...Object.fromEntries(row.changes.map((c) => [c.field, c.to])) } as Values,
      cells: new Map(row.changes.map((c) => [c.field, { to: c.from as string, accepted: true }])),
      conflict: false,
    }]));
    // Rows changed since the batch are found before the one question: shown as stored now, marked,
    // and left out of what it writes.
    for (const [rowId, row] of rows) {
      const stored = m.db.get(rowId)!;
      if (stored.version === row.version) continue;
      row.version = stored.version;
      row.record = valuesOf(stored);
      for (const cell of row.cells.values()) cell.accepted = false;
      row.conflict = true;
      saw('undo: a row changed since is left out');
    }
    m.form = undefined;
    m.review = { token: ++m.tokens, fields, rows };
    const effective = boardEffective(m, true);
    assert.equal(questions.asked.length - asked, effective.kind === 'write' ? 1 : 0, `asked once exactly when there is something to undo: ${outcome.kind}`);
    if (effective.kind === 'write' && this.answer === 'save') {
      const result = commit(m, effective.payload);
      saw(`undo: ${result}`);
      if (result === 'written') {
        assert.equal(outcome.kind, 'batch_saved', JSON.stringify(outcome));
        shownAsStored(m);
      } else {
        assert.equal(outcome.kind, 'batch_conflict', JSON.stringify(outcome));
        conflicted(m, effective.payload);
      }
    } else {
      assert.equal(outcome.ok, false, JSON.stringify(outcome));
    }
    await checkInvariants(m, r, client);
  }
  toString = () => `UndoLastBatch(${this.answer})`;
}

const id = fc.constantFrom(...IDS);
const field = fc.constantFrom(...FIELDS);
const valueOf = (f: Field) => fc.constantFrom(...VALUES[f]);
const bulk = fc.tuple(fc.uniqueArray(id, { minLength: 1, maxLength: IDS.length }), valueOf('city'), valueOf('zip')).map(([ids, city, zip]) => new ProposeBulk(ids, city, zip));
const decideRow = fc.tuple(fc.boolean(), fc.option(id, { nil: undefined, freq: 4 }), fc.option(field, { nil: undefined })).map(([accept, i, f]) => new DecideRow(accept, i, f));
const onDesk = fc.tuple(fc.nat(), fc.constantFrom('approve' as const, 'approve' as const, 'decline' as const), fc.boolean()).map(([pick, decision, earlier]) => new DecideOnDesk(pick, decision, earlier));
/** Weighted towards the steps that make decisions meet: proposals, requests, the grid, the desk. */
const commands = [
  bulk, bulk, bulk,
  id.map((i) => new OpenRecord(i)),
  field.chain((f) => valueOf(f).map((v) => new ProposeForm(f, v))),
  fc.constant(new SaveWithoutSession()), fc.constant(new SaveWithoutSession()), fc.constant(new SaveWithoutSession()),
  fc.constantFrom('save' as const, 'discard' as const).map((a) => new SaveWithSession(a)),
  decideRow, decideRow, decideRow,
  fc.tuple(id, field).chain(([i, f]) => valueOf(f).map((v) => new TypeCell(i, f, v))),
  field.chain((f) => valueOf(f).map((v) => new TypeForm(f, v))), field.chain((f) => valueOf(f).map((v) => new TypeForm(f, v))),
  fc.constant(new LookAtDesk()), fc.constant(new LookAtDesk()),
  onDesk, onDesk, onDesk,
  fc.constantFrom('save' as const, 'discard' as const).map((a) => new UndoLastBatch(a)),
];

let backend: Backend;
let dir: TempDir;
let store: SqliteApprovalStore;

before(async () => {
  const ast = demoApp();
  backend = await startBackend({ ast, dsn: 'sqlite::memory:', seed: true });
  // No change feed: every change of the Board in this model comes from a command, never from a timer.
  const embedded = embeddedClient(backend);
  client = { ast: () => embedded.ast(), status: () => embedded.status(), run: (...args) => embedded.run(...args) };
  dir = await tempDir('consent-model');
  store = new SqliteApprovalStore(join(dir.path, APPROVALS_FILE));
});
after(async () => {
  store?.close();
  await backend?.close();
  await dir?.remove();
});

let run = 0;

/** One run: a fresh app over the shared backend and approvals file (its own backend name and caller, so its approvals are its own), the model read from the records. */
async function runModel(cmds: Iterable<Command>): Promise<void> {
  run++;
  const writes: Write[] = [];
  const decisions = await startDecisionApp(recording(client, writes), { ...storeOf(store), close: () => {} }, { caller: `agent ${run}`, backend: `run ${run}` });
  const model: Model = { db: await stored(client), tokens: 0, approvals: [], writes: [], batches: [], listing: new Map() };
  try {
    await fc.asyncModelRun(() => ({ model, real: { decisions, writes } }), cmds);
  } finally {
    // What is left waiting is declined, so the next run starts with an empty desk.
    for (const waiting of await decisions.app.approvalDesk!.pending()) await decisions.app.approvalDesk!.decide(waiting.id, 'decline');
    await decisions.close();
  }
}

test('the rare meetings of two decisions, each once, through the same model', async () => {
  const scenarios: Command[][] = [
    // A form change asked for, then the Board shows another record: Approve writes it as requested.
    [new OpenRecord('1'), new TypeForm('city', 'Kiel'), new SaveWithoutSession(), new OpenRecord('2'), new LookAtDesk(), new DecideOnDesk(0, 'approve', false)],
    // The agent proposes on the form after its request: not the person's, so Approve writes the request as asked.
    [new OpenRecord('3'), new TypeForm('city', 'Bonn'), new SaveWithoutSession(), new ProposeForm('zip', '50667'), new LookAtDesk(), new DecideOnDesk(0, 'approve', true)],
    // A row unchecked after the desk showed the request: the click in the old listing writes nothing, a fresh one the rest.
    [new ProposeBulk(['1', '2'], 'Bonn', '50667'), new SaveWithoutSession(), new LookAtDesk(), new DecideRow(false, '1'), new DecideOnDesk(0, 'approve', true),
      new DecideOnDesk(0, 'approve', false)],
    // Every row rejected: nothing to write.
    [new ProposeBulk(['3', '4'], 'Ulm', '10115'), new SaveWithoutSession(), new DecideRow(false, undefined), new LookAtDesk(), new DecideOnDesk(0, 'approve', false)],
    // An earlier request written as requested makes a row of the shown review stale: its Save meets a conflict, the linked approval is not ready.
    [new ProposeBulk(['1'], 'Kiel', '80331'), new SaveWithoutSession(), new ProposeBulk(['1', '2'], 'Ulm', '10115'), new SaveWithoutSession(),
      new DecideOnDesk(0, 'approve', false), new SaveWithSession('save'), new LookAtDesk(), new DecideOnDesk(0, 'approve', false), new DecideRow(true, '1'),
      new DecideOnDesk(0, 'approve', false)],
    // A record of a batch changed since: its Undo leaves that record out and undoes the rest.
    [new ProposeBulk(['1', '2'], 'Bonn', '80331'), new SaveWithSession('save'), new OpenRecord('1'), new TypeForm('city', 'Kiel'), new SaveWithSession('save'),
      new UndoLastBatch('save')],
  ];
  for (const scenario of scenarios) await runModel(scenario);
});

test(`the person's decisions are what is written, on every surface: ${RUNS} generated runs (seed ${SEED})`, async () => {
  const started = Date.now();
  const before = run;
  await fc.assert(fc.asyncProperty(fc.commands(commands, { maxCommands: 16, size: 'max' }), (cmds) => runModel(cmds)), { numRuns: RUNS, seed: SEED, endOnFailure: true });
  console.log(`consent model: ${run - before} runs in ${((Date.now() - started) / 1000).toFixed(1)} s; ${JSON.stringify(Object.fromEntries([...seen].sort()))}`);
  if (RUNS >= 1_000) {
    for (const what of ['desk approve: batch written with the Board\'s decisions', 'desk approve: save written with the Board\'s decisions', 'desk approve: batch written as requested',
      'desk approve: save written as requested', 'desk approve: changed since shown, nothing written', 'desk approve: nothing, nothing written', 'desk approve: not_ready, nothing written',
      'desk approve: void', 'desk decline', 'blocking question: batch written', 'blocking question: save written', 'blocking question: batch conflict', 'blocking question: settles an approval', 'undo: written', 'undo: a row changed since is left out', 'asked again: the waiting approval']) {
      assert.ok((seen.get(what) ?? 0) > 0, `the runs reach "${what}"`);
    }
  }
});

/** The store's methods (the app closes its store when it stops; this one outlives the runs). */
function storeOf(s: SqliteApprovalStore) {
  return {
    insert: s.insert.bind(s), get: s.get.bind(s), update: s.update.bind(s), list: s.list.bind(s), deleteDecidedBefore: s.deleteDecidedBefore.bind(s),
  };
}
