// The parts of the Board the host sends, computed from the Board state and the
// resolved app model: the list's columns and first rows (raw typed values keyed by
// record id; the webview formats them per locale), the detail form (inputs by field
// kind, the agent's pending changes marked) and the mail draft. Plain JSON, so it
// survives postMessage.
import { isDeepStrictEqual } from 'node:util';
import type { Ast, FieldDef, WidgetDef } from '../ast/schema.ts';
import { coerceFieldValue, FieldValueError, type ValueProblem } from '../backend/values.ts';
import type { BoardRecord, BoardSnapshot, ListQuery, ListView, MailDraft } from '../core/domain.ts';
import { createDraft } from '../mail/draft.ts';
import type { FormState } from './protocol.ts';
import { fieldKind, refId, type BoardFieldType, type FormatContext, type InputKind } from './fieldKinds.ts';
import { appModel, creatingContext, enumOptions, type ContextModel, type FieldModel, type SelectOption } from './model.ts';
import { boardTexts, type BoardTexts } from './texts.ts';

export type { InputKind } from './fieldKinds.ts';
export type { SelectOption } from './model.ts';

export interface Column {
  readonly field: string;
  readonly label: string;
  readonly type: BoardFieldType;
  /** Numbers align right. */
  readonly numeric: boolean;
  /** enum value -> label in the locale */
  readonly enumLabels?: Readonly<Record<string, string>>;
  /** Whether a click on the header sorts (through the backend). */
  readonly sortable: boolean;
  /** A ref whose value is a link to the related record's detail. */
  readonly opens?: boolean;
  /** From the context's layout: the width in pixels, and money or percent display. */
  readonly width?: number;
  readonly widget?: WidgetDef;
}

/** One list row: the record's key (its id) and its raw values in column order. */
export interface GridRow {
  readonly key: string;
  readonly values: readonly unknown[];
}

export interface ListBlock {
  /** Which list this is; a new query or render gets a new id. */
  readonly listId: number;
  readonly context: string;
  readonly label: string;
  readonly columns: readonly Column[];
  /** Rows matching the agent's query (before the person's filter). */
  readonly total: number;
  /** The first rows, so they paint with the list. */
  readonly rows: readonly GridRow[];
  /** A row opens a detail context (`navigate.row`). */
  readonly navigable: boolean;
  /** The person's sort and filter, restored when the webview comes back. */
  readonly query: ListQuery;
  /** The person can create a record of the list's entity (a detail context allows "create"). */
  readonly canCreate: boolean;
}

export interface FormField {
  readonly field: string;
  readonly label: string;
  readonly type: BoardFieldType;
  readonly input: InputKind;
  readonly editable: boolean;
  readonly required: boolean;
  /** The value the input shows: a string, or a boolean for checkboxes. */
  readonly value: string | boolean;
  /** Shown next to a read-only value or a ref id (e.g. the company's name). */
  readonly display: string;
  readonly options?: readonly SelectOption[];
  /** A number's bounds from the AST (the input's min and max; the backend's rule says the same as the person types). */
  readonly min?: number;
  readonly max?: number;
  /** The agent's proposal: the stored value struck through, the new one shown. */
  readonly pending?: { readonly from: string; readonly to: string };
  /** A ref whose stored related record opens on a click (its name is a link). */
  readonly opens?: boolean;
  /** An inverse list's records (a company's employees), each a link when `opens`. */
  readonly items?: readonly { readonly key: string; readonly label: string }[];
  /** Why the value shown cannot be saved (the AST's rules, checked like the backend does), in the locale. */
  readonly problem?: string;
  /** The person changed this field (their edit, or a proposal they accepted) and it differs from the stored value. */
  readonly edited?: boolean;
  /** The AST keeps this field from the agent: it never sees it (`hidden`) or sees only •••. */
  readonly keptFromAgent?: 'hidden' | 'masked';
  /** Someone else stored another value meanwhile: the value as loaded, as stored now (theirs) and the pending one (mine). */
  readonly conflict?: { readonly base: string; readonly theirs: string; readonly mine: string };
}

export interface DetailBlock {
  readonly context: string;
  /** Which record this is (`person_detail:12`): edits of another record are not carried over. */
  readonly key: string;
  readonly label: string;
  readonly summary: string;
  readonly fields: readonly FormField[];
  readonly canSave: boolean;
  /** Something on the form is not saved yet (the person's edits or the agent's proposals). */
  readonly dirty: boolean;
  /** How many fields carry a proposal of the agent. */
  readonly proposals: number;
  /** How many fields wait for the person's choice after a save met a newer version. */
  readonly conflicts: number;
  /** A record being created (Save inserts it). */
  readonly isNew: boolean;
  /** The AST lets the person delete the shown record here. */
  readonly canDelete: boolean;
  /** The form's sections in order (the context's layout, or one untitled section). */
  readonly sections: readonly { readonly label?: string; readonly fields: readonly string[] }[];
}

export interface MailBlock {
  /** The sender as configured; null when mail is not set up (Send is then disabled and says why). */
  readonly from: string | null;
  readonly to: string;
  /** What is wrong with the recipient, if anything (Send waits). */
  readonly problem?: string;
  readonly subject: string;
  readonly body: string;
  /** A send is being confirmed or transferred: the actions wait. */
  readonly sending: boolean;
  /** The person confirmed Send: it goes out then (ISO, and as the person reads it) unless they click Undo. */
  readonly sendAt?: string;
  readonly sendAtText?: string;
}

/** The Board's own words as the webview gets them (no functions over postMessage). */
export type WebviewTexts = Omit<BoardTexts, 'records' | 'version' | 'saving' | 'openFailed' | 'exported' | 'problem' | 'mailGoesOut'>;

export function webviewTexts(locale: string): WebviewTexts {
  const { records: _r, version: _v, saving: _s, openFailed: _o, exported: _e, problem: _p, mailGoesOut: _m, ...texts } = boardTexts(locale);
  return texts;
}

/** Everything the Board shows now, in one object (what the in-host tests read). */
export interface BoardView {
  readonly locale: string;
  readonly texts: WebviewTexts;
  readonly list?: ListBlock;
  readonly detail?: DetailBlock;
  readonly mail?: MailBlock;
}

export interface BoardViewInput {
  readonly ast: Ast;
  readonly locale: string;
  readonly snapshot: BoardSnapshot;
  readonly list: ListView | undefined;
  readonly listId: number;
  readonly listQuery: ListQuery;
  /** The form values over the loaded record (the person's edits and the agent's preview). */
  readonly form: Readonly<Record<string, unknown>>;
  /** The configured mail sender (null or absent: mail is not set up) and whether a send is under way. */
  readonly mailFrom?: string | null;
  readonly mailSending?: boolean;
}

export function buildBoardView(input: BoardViewInput): BoardView {
  const view: { -readonly [K in keyof BoardView]: BoardView[K] } = { locale: input.locale, texts: webviewTexts(input.locale) };
  const list = listBlock(input);
  const detail = detailBlock(input);
  const mail = mailBlock({ snapshot: input.snapshot, locale: input.locale, from: input.mailFrom ?? null, sending: input.mailSending ?? false });
  if (list) view.list = list;
  if (detail) view.detail = detail;
  if (mail) view.mail = mail;
  return view;
}

function contextOf(ast: Ast, locale: string, name: string | undefined): ContextModel | undefined {
  return name === undefined ? undefined : appModel(ast, locale).context(name);
}

export function columnsOf(context: ContextModel): Column[] {
  return context.fields.map((f) => {
    const column: { -readonly [K in keyof Column]: Column[K] } = {
      field: f.field, label: f.label, type: f.type, numeric: fieldKind(f.type).numeric, sortable: f.orderKey !== undefined,
    };
    if (f.enumLabels) column.enumLabels = f.enumLabels;
    if (f.refTarget) column.opens = true;
    if (f.width) column.width = f.width;
    if (f.widget) column.widget = f.widget;
    return column;
  });
}

/** Records as grid rows: the key and the raw values of the columns; refs keep `{ id, name }`. */
export function gridRows(fields: readonly Pick<FieldModel, 'field'>[], records: readonly BoardRecord[]): GridRow[] {
  return records.map((record) => ({ key: String(record.id), values: fields.map((f) => record[f.field] ?? null) }));
}

export function listBlock({ ast, locale, list, listId, listQuery }: Pick<BoardViewInput, 'ast' | 'locale' | 'list' | 'listId' | 'listQuery'>): ListBlock | undefined {
  const context = list && contextOf(ast, locale, list.context);
  if (!list || !context) return undefined;
  // The first window is the agent's order; with a sort or filter of the person's the webview asks again.
  const unchanged = !listQuery.sort && !listQuery.filter;
  return {
    listId,
    context: list.context,
    label: context.label,
    columns: columnsOf(context),
    total: list.source.total,
    rows: unchanged ? gridRows(context.fields, list.source.first.records) : [],
    navigable: context.rowTarget !== undefined,
    query: listQuery,
    canCreate: creatingContext(ast, list.context) !== undefined,
  };
}

export function detailBlock({ ast, locale, snapshot, form }: Pick<BoardViewInput, 'ast' | 'locale' | 'snapshot' | 'form'>): DetailBlock | undefined {
  const detail = snapshot.detail;
  const context = snapshot.kind === 'detail' ? contextOf(ast, locale, snapshot.context) : undefined;
  if (!detail || !context) return undefined;
  const texts = boardTexts(locale);
  const fields = context.fields.map((f): FormField => {
    const kind = fieldKind(f.type);
    const format: FormatContext = { locale, none: texts.none, yes: texts.yes, no: texts.no, enumLabels: f.enumLabels, widget: f.widget };
    const stored = detail.record[f.field];
    const current = Object.hasOwn(form, f.field) ? form[f.field] : stored;
    const out: { -readonly [K in keyof FormField]: FormField[K] } = {
      field: f.field,
      label: f.label,
      type: f.type,
      input: f.widget?.kind === 'textarea' ? 'textarea' : kind.input,
      editable: context.editable.has(f.field) && f.def !== undefined && f.type !== 'id',
      required: f.required,
      value: kind.inputValue(current),
      display: kind.format(current, format),
    };
    if (f.type === 'enum') out.options = enumOptions(f);
    if (f.keptFromAgent) out.keptFromAgent = f.keptFromAgent;
    if (kind.numeric && f.def?.min !== undefined) out.min = f.def.min;
    if (kind.numeric && f.def?.max !== undefined) out.max = f.def.max;
    const changed = !isDeepStrictEqual(f.type === 'ref' ? refId(current) : current, f.type === 'ref' ? refId(stored) : stored);
    if (changed && snapshot.edited?.includes(f.field)) out.edited = true;
    if (out.editable && f.def && changed) {
      const problem = valueProblem(context.entity, f.field, f.def, current);
      if (problem) out.problem = texts.problem(problem);
    }
    if (f.refTarget && stored !== null && stored !== undefined && stored !== '') out.opens = true;
    if (f.type === 'list') {
      const name = f.itemDisplay ?? 'id';
      out.items = (Array.isArray(stored) ? stored as BoardRecord[] : []).filter((item) => item && item.id !== undefined && item.id !== null).map((item) => ({
        key: String(item.id),
        label: item[name] === undefined || item[name] === null || item[name] === '' ? `#${String(item.id)}` : String(item[name]),
      }));
      if (f.itemTarget) out.opens = true;
    }
    const conflict = snapshot.conflicts?.[f.field];
    if (conflict) out.conflict = { base: kind.format(conflict.base, format), theirs: kind.format(conflict.theirs, format), mine: kind.format(current, format) };
    if (Object.hasOwn(snapshot.pending, f.field)) {
      out.pending = { from: kind.format(stored, format), to: kind.format(snapshot.pending[f.field], format) };
    }
    return out;
  });
  const id = detail.record.id;
  const def = ast.contexts[context.name];
  const summary = detail.isNew ? texts.newRecord
    : [id === undefined ? undefined : `#${String(id)}`, detail.version === undefined ? undefined : texts.version(detail.version)].filter(Boolean).join(' · ');
  const proposals = fields.filter((f) => f.pending).length;
  return {
    context: context.name, key: `${context.name}:${String(id)}`, label: context.label, summary, fields,
    canSave: context.editable.size > 0 && (detail.isNew ? def?.create === true : detail.version !== undefined),
    isNew: detail.isNew === true,
    canDelete: !detail.isNew && detail.version !== undefined && def?.delete === true,
    sections: context.sections.map((section) => (section.label ? { label: section.label, fields: section.fields } : { fields: section.fields })),
    dirty: proposals > 0 || fields.some((f) => f.edited), proposals, conflicts: fields.filter((f) => f.conflict).length,
  };
}

/** What the form's fields say of themselves: problems, the person's changes, unsaved or not (sent while the person types). */
export function formStateOf(block: DetailBlock): FormState {
  return {
    key: block.key,
    problems: Object.fromEntries(block.fields.filter((f) => f.problem).map((f) => [f.field, f.problem!])),
    edited: block.fields.filter((f) => f.edited).map((f) => f.field),
    dirty: block.dirty,
  };
}

/** Why a value of the form cannot be saved, by the same rules the backend applies; undefined when it can. */
export function valueProblem(entity: string, field: string, def: FieldDef, value: unknown): ValueProblem | undefined {
  try {
    coerceFieldValue(entity, field, def, def.type === 'ref' ? refId(value) : value);
    return undefined;
  } catch (error) {
    if (error instanceof FieldValueError) return error.problem;
    throw error;
  }
}

export interface MailBlockInput {
  readonly snapshot: BoardSnapshot;
  readonly locale: string;
  /** The configured sender, or null without a usable mailer. */
  readonly from: string | null;
  readonly sending: boolean;
}

export function mailBlock({ snapshot, locale, from, sending }: MailBlockInput): MailBlock | undefined {
  if (!snapshot.mail) return undefined;
  const { to, subject, body } = snapshot.mail;
  const problem = mailProblem(snapshot.mail, locale);
  const waiting = snapshot.mailSendAt
    ? { sendAt: snapshot.mailSendAt, sendAtText: boardTexts(locale).mailGoesOut(new Intl.DateTimeFormat(locale, { timeStyle: 'medium' }).format(new Date(snapshot.mailSendAt))) }
    : {};
  return { from, to: to.name ? `${to.name} <${to.email}>` : to.email, ...(problem ? { problem } : {}), subject, body, sending, ...waiting };
}

/** Why the draft's recipient cannot get mail, in the Board's words; undefined when it can. */
export function mailProblem(draft: MailDraft, locale: string): string | undefined {
  return typeof createDraft(draft.to, draft.subject, draft.body) === 'string' ? boardTexts(locale).mailToInvalid : undefined;
}

/** `Name <mail@host>` or a bare address, as the mail surface edits it. */
export function parseMailbox(text: string): { name?: string; email: string } {
  const match = /^\s*(.*?)\s*<([^<>]+)>\s*$/.exec(text);
  if (!match) return { email: text.trim() };
  const name = match[1].replace(/^"(.*)"$/, '$1').trim();
  return name ? { name, email: match[2].trim() } : { email: match[2].trim() };
}
