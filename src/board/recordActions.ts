// The person's actions on records, from the Board's form and list: save, delete, undo a save
// (the "saved" notification's Undo, "XOS: Undo Last Save", the History's Undo), a record's
// history, the CSV export, and the form's own edits. They run the use cases the agent's tools
// run. A part of the Board (boardHost.ts): it registers the page's record messages itself.
import type { AuditEntry } from '../graphql/audit.ts';
import { appModel } from '../ast/appModel.ts';
import type { SavedRecord } from '../core/base.ts';
import { writeCsv } from '../core/csv.ts';
import type { ListQuery } from '../core/domain.ts';
import type { BatchSaved, BoardOutcome, Saved } from '../core/outcomes.ts';
import { batchSize, undoBatch } from '../core/batchSave.ts';
import { deleteShown } from '../core/records.ts';
import { saveForm } from '../core/save.ts';
import { editGridCell, saveGridEdits } from '../core/gridEdits.ts';
import { auditTrail, lastSave, referencedNames, undoSave } from '../core/undo.ts';
import { keepsAudit } from '../ast/lookup.ts';
import { besideOpenConflicts, personText } from './outcomeText.ts';
import * as protocol from './protocol/records.ts';
import type { MessageEndpoint } from './protocol/messages.ts';
import { recordHistoryView, type RecordHistoryView } from './recordHistory.ts';
import type { BoardHost, BoardPart } from './boardHost.ts';
import { errorText, runAction } from './runAction.ts';
import { boardTexts } from './texts.ts';
import { detailBlock, formStateOf, gridEditsBlock } from './view.ts';

/** How many of a record's audit entries are read (its History, finding a save to undo). */
const TRAIL_ENTRIES = 50;
/** How long the page may take to send the person's latest form edits. */
const FORM_DATA_TIMEOUT_MS = 2_000;

export class RecordActions implements BoardPart {
  private readonly host: BoardHost;
  /** One save at a time: Save clicked again while one runs does nothing. */
  private saving = false;

  constructor(host: BoardHost) {
    this.host = host;
  }

  register(endpoint: MessageEndpoint): void {
    const { host } = this;
    endpoint.onNotification(protocol.edit, ({ field, value }) => this.applyEdit(field, value));
    endpoint.onNotification(protocol.formAction, ({ action, field }) => this.formAction(action, field));
    endpoint.onNotification(protocol.save, () => void this.save());
    endpoint.onNotification(protocol.deleteRecord, () => void this.delete());
    endpoint.onRequest(protocol.recordHistory, ({ key }) => this.history(key));
    endpoint.onNotification(protocol.undoSave, ({ entry }) => void this.undoFromHistory(entry));
    endpoint.onNotification(protocol.exportCsv, ({ listId, query }) => {
      if (listId === host.listId()) void this.exportCsv(query);
    });
    endpoint.onNotification(protocol.gridEdit, ({ listId, key, field, value }) => {
      if (listId === host.listId()) void this.editGridCell(key, field, value);
    });
    endpoint.onNotification(protocol.gridEditsAction, ({ listId, action }) => {
      if (listId !== host.listId()) return;
      if (action === 'save') void this.saveGridEdits();
      else host.state.discardGridEdits();
    });
  }

  /** The page said ready: the list grid's edits, if any. */
  pageReady(): void {
    this.sendGridEdits();
  }

  /** The list grid's edits as the host holds them (the page shows them over the stored values). */
  sendGridEdits(): void {
    const { host } = this;
    host.notifyPage(protocol.gridEdits, { gridEdits: gridEditsBlock(host.locale(), host.listId(), host.state.gridEdits()) });
  }

  /** The person's value for a cell of the list grid: kept with the grid's edits, checked like the form's. */
  private async editGridCell(key: string, field: string, value: unknown): Promise<void> {
    const { host } = this;
    await runAction(host, async () => {
      const outcome = await editGridCell(host.deps(), key, field, value);
      if (outcome && !outcome.ok) host.setStatus({ kind: 'error', text: host.said(outcome) });
    }, { log: 'Board grid edit failed', status: (message) => message });
  }

  /** Save of the list grid's edits: shown as one review and saved as one, the question included. */
  async saveGridEdits(): Promise<void> {
    await this.saveOnce('Board save of the grid\'s edits', (signal) => saveGridEdits(this.host.deps(), signal, 'board'));
  }

  /** Save on the form: the use case xos_ui_save runs, confirmation included. */
  async save(): Promise<void> {
    await this.saveOnce('Board save', (signal) => saveForm(this.host.deps(), signal, 'board'));
  }

  /** One save at a time ("Saving…" meanwhile), its outcome logged as `log` and reported; a failure takes the action's failure path. */
  private async saveOnce(log: string, save: (signal: AbortSignal) => Promise<BoardOutcome>): Promise<void> {
    if (this.saving) return;
    const { host } = this;
    this.saving = true;
    host.setStatus({ kind: 'busy', text: boardTexts(host.locale()).saving });
    try {
      await runAction(host, async () => {
        const outcome = await save(new AbortController().signal);
        host.ui.log.info(`${log}: ${host.logged(outcome)}`);
        this.reportSave(outcome);
      }, { log: 'Board save failed', stack: true, status: (message) => message, notice: ['XOS could not save: {0}'] });
    } finally {
      this.saving = false;
    }
  }

  /**
   * A save's outcome (Save, or an undo) for the person, in the Board's language (src/board/outcomeText.ts).
   * While the form shows open conflicts it says itself, beside Save, what to do: the line and the
   * notification then say only what happened. A stored save is announced by savedNotice (through the
   * deps' onSaved), with Undo.
   */
  private reportSave(outcome: BoardOutcome): void {
    const { host } = this;
    const conflicts = Object.keys(host.state.snapshot().conflicts ?? {}).length > 0;
    const wording = !outcome.ok && conflicts ? besideOpenConflicts : personText;
    host.setStatus({ kind: outcome.ok ? 'info' : 'error', text: host.said(outcome, wording) });
    if (!outcome.ok) void host.ui.tell('warning', host.told(outcome, wording));
  }

  /** The "saved" notification of every stored save (the Board's or the agent's), with Undo. */
  savedNotice(saved: SavedRecord, outcome: Saved): void {
    const { host } = this;
    // Without an audit trail there is no save to undo: the notice offers none.
    if (!keepsAudit(host.ast())) {
      void host.ui.tell('info', host.told(outcome));
      return;
    }
    const undo = host.ui.t('Undo');
    void host.ui.tell('info', host.told(outcome), undo).then(async (choice) => {
      if (choice !== undo) return;
      await runAction(host, async () => {
        const entries = await auditTrail(host.deps(), { entity: saved.entity, id: saved.id }, TRAIL_ENTRIES);
        const entry = entries.find((e) => e.action === 'update' && e.versionTo === saved.version);
        if (!entry) throw new Error(host.ui.t('that save is not in the audit trail'));
        await this.undo(entry);
      }, { notice: ['XOS could not undo: {0}'] });
    });
  }

  /** The notification of a stored batch, with Undo of the whole batch (one question, one transaction). */
  batchSavedNotice(outcome: BatchSaved): void {
    const { host } = this;
    if (!keepsAudit(host.ast()) || !outcome.batch) {
      void host.ui.tell('info', host.told(outcome));
      return;
    }
    const batch = outcome.batch;
    const undo = host.ui.t('Undo');
    void host.ui.tell('info', host.told(outcome), undo).then(async (choice) => {
      if (choice === undo) await this.undoBatch(batch);
    });
  }

  /** Undo of a batch: its records' old values as one review; saving asks once. */
  async undoBatch(batch: string): Promise<void> {
    const { host } = this;
    host.open(true);
    await runAction(host, async () => {
      const outcome = await undoBatch(host.deps(), batch, new AbortController().signal, 'board');
      host.ui.log.info(`Board undo of batch ${batch}: ${host.logged(outcome)}`);
      this.reportSave(outcome);
    }, { log: 'Board undo failed', status: (message) => message, notice: ['XOS could not undo: {0}'] });
  }

  /** Undo of a save: its old values go into the form against the version it produced; saving asks the person as always. */
  async undo(entry: AuditEntry): Promise<void> {
    const { host } = this;
    // A record's share of a batch is undone with the whole batch.
    if (entry.batch) return this.undoBatch(entry.batch);
    host.open(true);
    await runAction(host, async () => {
      const outcome = await undoSave(host.deps(), entry, new AbortController().signal, 'board');
      host.ui.log.info(`Board undo of audit entry ${entry.id}: ${host.logged(outcome)}`);
      this.reportSave(outcome);
    }, { log: 'Board undo failed', status: (message) => message, notice: ['XOS could not undo: {0}'] });
  }

  /** "XOS: Undo Last Save": the newest save in the audit trail. */
  async undoLastSave(): Promise<void> {
    const { host } = this;
    await runAction(host, async () => {
      const entry = await lastSave(host.deps());
      if (entry) await this.undo(entry);
      else void host.ui.tell('info', host.ui.t('Nothing to undo: no save is recorded yet.'));
    }, { notice: ['XOS could not undo: {0}'] });
  }

  /** The audit trail of the record the form shows (the Board's History). */
  async history(key: string): Promise<RecordHistoryView> {
    const { host } = this;
    const { detail, context } = host.state.snapshot();
    if (!detail || detail.isNew || !context || `${context}:${String(detail.record.id)}` !== key) return { key, entries: [] };
    const ast = host.ast();
    const entity = ast.contexts[context].entity;
    const entries = await auditTrail(host.deps(), { entity, id: String(detail.record.id) }, TRAIL_ENTRIES);
    const batches = new Map<string, number>();
    for (const batch of new Set(entries.flatMap((e) => (e.batch ? [e.batch] : [])))) batches.set(batch, await batchSize(host.deps(), batch));
    return recordHistoryView(ast, host.locale(), context, key, entries, await referencedNames(host.deps(), entries), batches);
  }

  /** Undo asked for on the Board's History: the entry is looked up again in the shown record's trail. */
  async undoFromHistory(entryId: number): Promise<void> {
    const { host } = this;
    const { detail, context } = host.state.snapshot();
    if (!detail || !context) return;
    const entity = host.ast().contexts[context].entity;
    // A failed look-up is told like any undo failure (it reaches the page as a notification, never as a rejection).
    await runAction(host, async () => {
      const entry = (await auditTrail(host.deps(), { entity, id: String(detail.record.id) }, TRAIL_ENTRIES)).find((e) => e.id === entryId);
      if (entry) await this.undo(entry);
    }, { log: 'Board undo from the History failed', notice: ['XOS could not undo: {0}'] });
  }

  /** Delete on the form: asked in VS Code, version-checked; afterwards the Board goes back to where the person came from. */
  async delete(): Promise<void> {
    const { host } = this;
    await runAction(host, async () => {
      const outcome = await deleteShown(host.deps(), new AbortController().signal);
      host.ui.log.info(`Board delete: ${host.logged(outcome)}`);
      host.setStatus({ kind: outcome.ok ? 'info' : 'error', text: host.said(outcome) });
      if (!outcome.ok) return;
      void host.ui.tell('info', host.told(outcome));
      if (host.history.view(host.ast(), host.locale()).canBack) await host.navigate('back');
      host.setStatus({ kind: 'info', text: host.said(outcome) });
    }, { log: 'Board delete failed', status: (message) => message, notice: ['XOS could not delete: {0}'] });
  }

  /** Writes the shown list (with the person's sort and filter) to a CSV file the person picks. */
  async exportCsv(query: ListQuery = this.host.state.listQuery()): Promise<void> {
    const { host } = this;
    const list = host.state.list();
    const context = list && appModel(host.ast(), host.locale()).context(list.context);
    if (!list || !context) {
      void host.ui.tell('warning', host.ui.t('The XOS Board shows no list to export.'));
      return;
    }
    const target = await host.ui.csvExport(list.context, context.label);
    if (!target) return;
    await runAction(host, async () => {
      const count = await target.run((sink, signal) => writeCsv(list.source, context.fields, query, sink, signal));
      const text = boardTexts(host.locale()).exported(count, target.where);
      host.ui.log.info(text);
      host.setStatus({ kind: 'info', text });
    }, { log: 'CSV export failed', notice: ['XOS could not export the list: {0}'] });
  }

  /** The person's form: a shown page sends their latest edits first; when it is hidden, the host state is current. */
  async formData(pageShown: boolean): Promise<Record<string, unknown>> {
    const { host } = this;
    const { state } = host;
    if (pageShown && host.pageConnected() && state.snapshot().detail) {
      try {
        const edits = await host.requestPage(protocol.formData, {}, FORM_DATA_TIMEOUT_MS);
        const known = await state.formData();
        for (const [field, value] of Object.entries(edits ?? {})) {
          if (JSON.stringify(known[field]) !== JSON.stringify(value)) this.applyEdit(field, value);
        }
      } catch (error) {
        host.ui.log.warn(`the Board did not send its form (${errorText(error)}); using the host state`);
      }
    }
    return state.formData();
  }

  /** The person's edit of a form field on the page. */
  applyEdit(field: string, value: unknown): void {
    const { host } = this;
    const { state } = host;
    if (!state.snapshot().detail) return;
    host.applyPageEdit(() => state.edit(field, value));
    // The form is not sent back while the person types; what is wrong with it and what is changed is.
    if (!host.pageConnected()) return;
    try {
      const block = detailBlock({ ast: host.ast(), locale: host.locale(), snapshot: state.snapshot(), form: state.formValues() });
      if (block) host.notifyPage(protocol.formState, formStateOf(block));
    } catch (error) {
      host.ui.log.warn(`checking the form failed: ${errorText(error)}`);
    }
  }

  /** Accept or revert a proposal or an edit, or discard them all; the form is sent back as it is now. */
  formAction(action: protocol.FormAction, field: string | undefined): void {
    const { state } = this.host;
    if (!state.snapshot().detail) return;
    if (action === 'accept' && field) state.accept(field);
    else if (action === 'revert' && field) state.revert(field);
    else if (action === 'keepMine' && field) state.settle(field, 'mine');
    else if (action === 'keepTheirs' && field) state.settle(field, 'theirs');
    else if (action === 'acceptAll') state.acceptAll();
    else if (action === 'revertAll') state.revertProposals();
    else if (action === 'discard') state.discard();
  }
}
