// What the Board shows: the active context, the shown records, the loaded
// detail record with its version, the agent's pending preview changes, the
// person's own edits and the mail draft. The host renders it; the tools read
// and change it. It knows nothing of the AST: values are kept as shown.
import type {
  Board, BoardChange, BoardRecord, BoardSnapshot, DetailView, ListView, MailDraft,
} from '../mcp/ports.ts';

type Author = 'agent' | 'person';

export class BoardState implements Board {
  private context: string | undefined;
  private kind: BoardSnapshot['kind'];
  private records: readonly BoardRecord[] = [];
  private detail: DetailView | undefined;
  /** Form values over the loaded record; the latest write of a field wins, whoever made it. */
  private form = new Map<string, { value: unknown; by: Author }>();
  private mail: MailDraft | undefined;
  private readonly listeners = new Set<(change: BoardChange) => void>();

  showList(view: ListView): void {
    this.context = view.context;
    this.kind = 'list';
    this.records = structuredClone([...view.records]);
    this.detail = undefined;
    this.form.clear();
    this.emit('list');
  }

  showDetail(view: DetailView): void {
    this.context = view.context;
    this.kind = 'detail';
    this.records = [];
    this.detail = structuredClone(view);
    this.form.clear();
    this.emit('detail');
  }

  showMail(draft: MailDraft): void {
    this.mail = structuredClone(draft);
    this.emit('mail');
  }

  clearMail(): void {
    this.mail = undefined;
    this.emit('mail');
  }

  preview(changes: Readonly<Record<string, unknown>>): void {
    if (!this.detail) throw new Error('preview needs a loaded detail record');
    for (const [field, value] of Object.entries(changes)) this.form.set(field, { value: structuredClone(value), by: 'agent' });
    this.emit('form');
  }

  /** The person typed into the form. */
  edit(field: string, value: unknown): void {
    if (!this.detail) throw new Error('edit needs a loaded detail record');
    this.form.set(field, { value: structuredClone(value), by: 'person' });
    this.emit('form');
  }

  async formData(): Promise<Record<string, unknown>> {
    return this.formValues();
  }

  /** The loaded record with every edit and preview applied (what the form shows). */
  formValues(): Record<string, unknown> {
    const data: Record<string, unknown> = structuredClone(this.detail?.record ?? {});
    for (const [field, { value }] of this.form) data[field] = structuredClone(value);
    return data;
  }

  /** The records of the list view (empty otherwise). */
  shownRecords(): readonly BoardRecord[] {
    return this.records;
  }

  snapshot(): BoardSnapshot {
    const pending: Record<string, unknown> = {};
    for (const [field, { value, by }] of this.form) if (by === 'agent') pending[field] = value;
    return { context: this.context, kind: this.kind, detail: this.detail, pending, mail: this.mail };
  }

  onChange(listener: (change: BoardChange) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  private emit(change: BoardChange): void {
    for (const listener of [...this.listeners]) listener(change);
  }
}
