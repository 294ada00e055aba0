// The parts of the Board the host sends, computed from the Board state and the
// resolved app model: the list's columns and first rows (raw typed values keyed by
// record id; the webview formats them per locale), the detail form (inputs by field
// kind, the agent's pending changes marked) and the mail draft. Plain JSON, so it
// survives postMessage.
import { isDeepStrictEqual } from 'node:util';
import type { Ast, FieldDef } from '../ast/schema.ts';
import { coerceFieldValue, FieldValueError, type ValueProblem } from '../ast/values.ts';
import type { BoardRecord, BoardSnapshot, ListQuery, ListView, MailDraft } from '../core/domain.ts';
import { createDraft } from '../mail/draft.ts';
import type { FormState } from './protocol.ts';
import { fieldKind, type FormatContext } from '../ast/fieldKinds.ts';
import { ownValue, refId } from '../ast/lookup.ts';
import { joinedName } from '../ast/display.ts';
import { appModel, creatingContext, enumOptions, type ContextModel, type FieldModel } from '../ast/appModel.ts';
import { boardTexts, translator } from './texts.ts';
import { whereText } from './whereText.ts';
import type { Review, ReviewRowState } from '../core/review.ts';
import type { Column, DetailBlock, FormField, GridEditsBlock, GridRow, ListBlock, MailBlock, ReviewBlock, ReviewCell, ReviewColumn, ReviewRow, WebviewTexts } from './viewTypes.ts';
import { gridEditable } from '../core/gridEdits.ts';

export function webviewTexts(locale: string): WebviewTexts {
  const { records: _r, saving: _s, openFailed: _o, exported: _e, problem: _p, mailGoesOut: _m, readOnly: _ro, reviewUndoOf: _u, ...texts } = boardTexts(locale);
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
    if (f.refFields?.length) column.refFields = f.refFields;
    if (f.refTarget) column.opens = true;
    if (f.width) column.width = f.width;
    if (f.widget) column.widget = f.widget;
    return column;
  });
}

/** Records as grid rows: the key and the raw values of the columns; refs keep `{ id, name }`. */
export function gridRows(fields: readonly Pick<FieldModel, 'field'>[], records: readonly BoardRecord[]): GridRow[] {
  return records.map((record) => ({ key: String(record.id), values: fields.map((f) => ownValue(record, f.field) ?? null) }));
}

export function listBlock({ ast, locale, list, listId, listQuery }: Pick<BoardViewInput, 'ast' | 'locale' | 'list' | 'listId' | 'listQuery'>): ListBlock | undefined {
  const context = list && contextOf(ast, locale, list.context);
  if (!list || !context) return undefined;
  // The first window is the agent's order; with a sort or filter of the person's the webview asks again.
  const unchanged = !listQuery.sort && !listQuery.filter;
  const columns = columnsOf(context);
  return {
    listId,
    context: list.context,
    label: context.label,
    columns,
    editors: Object.fromEntries(gridEditable(ast, list.context).map((field) => [field, editorColumn(ast, locale, list.context, field, columns.find((c) => c.field === field)!)])),
    total: list.source.total,
    rows: unchanged ? gridRows(context.fields, list.source.first.records) : [],
    navigable: context.rowTarget !== undefined,
    query: listQuery,
    canCreate: creatingContext(ast, list.context) !== undefined,
    ...narrowedBy(ast, locale, context.entity, list.source.origin?.where),
  };
}

/** The agent's condition of a list, when it has one. */
function narrowedBy(ast: Ast, locale: string, entity: string, where: unknown): { narrowed?: string } {
  const narrowed = whereText(ast, entity, where, locale, translator(locale));
  return narrowed ? { narrowed } : {};
}

export function detailBlock({ ast, locale, snapshot, form }: Pick<BoardViewInput, 'ast' | 'locale' | 'snapshot' | 'form'>): DetailBlock | undefined {
  const detail = snapshot.detail;
  const context = snapshot.kind === 'detail' ? contextOf(ast, locale, snapshot.context) : undefined;
  if (!detail || !context) return undefined;
  const texts = boardTexts(locale);
  const fields = context.fields.map((f): FormField => {
    const kind = fieldKind(f.type);
    const format: FormatContext = { locale, none: texts.none, yes: texts.yes, no: texts.no, enumLabels: f.enumLabels, widget: f.widget, refFields: f.refFields };
    const stored = ownValue(detail.record, f.field);
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
      const names = f.itemDisplay ?? [];
      out.items = (Array.isArray(stored) ? stored as BoardRecord[] : []).filter((item) => item && item.id !== undefined && item.id !== null).map((item) => ({
        key: String(item.id),
        label: joinedName(names.map((name) => (Object.hasOwn(item, name) ? item[name] : undefined))) ?? `#${String(item.id)}`,
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
  // A record is named by its id; its stored version is row state (a digest on the person's own
  // tables), never shown, only carried for what reads again when it changes.
  const summary = detail.isNew ? texts.newRecord : id === undefined ? '' : `#${String(id)}`;
  const proposals = fields.filter((f) => f.pending).length;
  return {
    context: context.name, key: `${context.name}:${String(id)}`, label: context.label, summary, fields,
    ...(detail.version === undefined ? {} : { version: detail.version }),
    canSave: !detail.deleted && context.editable.size > 0 && (detail.isNew ? def?.create === true : detail.version !== undefined),
    isNew: detail.isNew === true,
    canDelete: !detail.deleted && !detail.isNew && detail.version !== undefined && def?.delete === true,
    ...(detail.deleted ? { deleted: true } : {}),
    ...(context.readOnly !== undefined ? { readOnly: texts.readOnly(context.readOnly) } : {}),
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

// ---- the review of many proposed changes ----------------------------------------------------

/** The model of a field wherever a context of its entity shows it (the list first), for columns the review needs. */
function entityField(ast: Ast, locale: string, list: string, field: string): FieldModel | undefined {
  const model = appModel(ast, locale);
  const entity = ast.contexts[list]?.entity;
  const names = [list, ...Object.keys(ast.contexts).filter((c) => c !== list && ast.contexts[c].entity === entity)];
  for (const name of names) {
    const found = model.context(name)?.fields.find((f) => f.field === field);
    if (found) return found;
  }
  return undefined;
}

/** A column with what its cell editor needs (the review grid's changed columns, the list grid's editable ones). */
function editorColumn(ast: Ast, locale: string, listContext: string, field: string, column: Column): ReviewColumn {
  const model = entityField(ast, locale, listContext, field);
  const def = ast.entities[ast.contexts[listContext]?.entity ?? '']?.fields[field];
  const kind = fieldKind(column.type);
  return {
    ...column,
    input: model?.widget?.kind === 'textarea' ? 'textarea' : kind.input,
    required: def?.required === true,
    ...(column.type === 'enum' && model ? { options: enumOptions(model) } : {}),
    ...(kind.numeric && def?.min !== undefined ? { min: def.min } : {}),
    ...(kind.numeric && def?.max !== undefined ? { max: def.max } : {}),
  };
}

/** The person's edits in the list grid, for the page: each cell's value and what is wrong with it (gridEdits.ts). */
export function gridEditsBlock(locale: string, listId: number, edits: Review | undefined): GridEditsBlock | null {
  if (!edits) return null;
  const texts = boardTexts(locale);
  const tally = edits.tally();
  return {
    listId,
    cells: edits.cells().map(({ id, field, cell }) => ({ key: id, field, value: cell.to, ...(cell.problem ? { problem: texts.problem(cell.problem.problem) } : {}) })),
    canSave: tally.accepted > 0 && tally.invalid === 0,
  };
}

function columnOf(ast: Ast, locale: string, review: Review, field: string): Column {
  const model = entityField(ast, locale, review.context, field);
  const def = ast.entities[review.entity]?.fields[field];
  const type = model?.type ?? def?.type ?? 'string';
  return {
    field, label: model?.label ?? field, type, numeric: fieldKind(type).numeric, sortable: false,
    ...(model?.enumLabels ? { enumLabels: model.enumLabels } : {}),
    ...(model?.refFields?.length ? { refFields: model.refFields } : {}),
    ...(model?.widget ? { widget: model.widget } : {}),
  };
}

/** The review's rows as the grid gets them: values raw, problems in the Board's words. */
export function reviewRows(ast: Ast, locale: string, review: Review, rows: readonly ReviewRowState[]): ReviewRow[] {
  const texts = boardTexts(locale);
  const t = translator(locale);
  return rows.map((row) => {
    const problem = review.rowProblem(row);
    return {
      key: row.id,
      values: ['id', ...review.shown].map((f) => (f === 'id' ? row.id : ownValue(row.record, f) ?? null)),
      cells: review.fields.map((field): ReviewCell | null => {
        const cell = row.cells.get(field);
        if (!cell) return null;
        return {
          from: cell.from, to: cell.to, accepted: cell.accepted,
          ...(cell.by === 'person' ? { edited: true } : {}),
          ...(cell.problem ? { problem: texts.problem(cell.problem.problem) } : {}),
        };
      }),
      ...(problem === 'gone' ? { problem: t('Deleted meanwhile') }
        : problem ? { problem: `${columnOf(ast, locale, review, problem.field).label}: ${texts.problem(problem.problem)}` } : {}),
      ...(row.conflict ? { conflict: true } : {}),
    };
  });
}

export interface ReviewBlockInput {
  readonly ast: Ast;
  readonly locale: string;
  readonly review: Review;
  readonly reviewId: number;
  /** A question about this review is open (Save waits). */
  readonly asking: boolean;
}

/** What Save can do now: accepted rows, no open conflicts, no question open. */
export function reviewCanSave(review: Review, asking: boolean): boolean {
  const tally = review.tally();
  return !asking && tally.accepted > 0 && tally.conflicts === 0;
}

export function reviewBlock({ ast, locale, review, reviewId, asking }: ReviewBlockInput): ReviewBlock {
  const context = appModel(ast, locale).context(review.context);
  const rows = review.inFilter(review.filter);
  return {
    reviewId,
    revision: review.revision,
    context: review.context,
    label: context?.label ?? review.context,
    columns: ['id', ...review.shown].map((field) => columnOf(ast, locale, review, field)),
    changed: review.fields.map((field) => editorColumn(ast, locale, review.context, field, columnOf(ast, locale, review, field))),
    counts: review.tally(),
    filter: review.filter,
    total: rows.length,
    rows: reviewRows(ast, locale, review, rows.slice(0, REVIEW_FIRST_ROWS)),
    ...(review.undoOf ? { undoOf: boardTexts(locale).reviewUndoOf(review.undoOf.records) } : {}),
    canSave: reviewCanSave(review, asking),
  };
}

/** Rows sent with the review block, so they paint at once. */
export const REVIEW_FIRST_ROWS = 100;
