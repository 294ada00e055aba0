// What the webview renders, computed in the host from the Board state, the AST
// and the locale: labels resolved, values formatted, inputs chosen by field type,
// the agent's pending changes marked. Plain JSON, so it survives postMessage.
import { resolveText } from '../ast/locale.ts';
import type { Ast, ContextDef, FieldDef, FieldType } from '../ast/schema.ts';
import { displayField } from '../ast/view.ts';
import type { BoardRecord, BoardSnapshot } from '../mcp/ports.ts';
import { boardTexts, type BoardTexts } from './texts.ts';

export type InputKind = 'text' | 'textarea' | 'number' | 'date' | 'datetime' | 'checkbox' | 'select';

export interface Column {
  readonly field: string;
  readonly label: string;
  /** Numbers align right. */
  readonly numeric: boolean;
}

export interface ListBlock {
  readonly context: string;
  readonly label: string;
  readonly summary: string;
  readonly columns: readonly Column[];
  readonly rows: ReadonlyArray<readonly string[]>;
  /** A row opens a detail context (`navigate.row`). */
  readonly navigable: boolean;
}

export interface SelectOption {
  readonly value: string;
  readonly label: string;
}

export interface FormField {
  readonly field: string;
  readonly label: string;
  readonly type: FieldType | 'unknown';
  readonly input: InputKind;
  readonly editable: boolean;
  readonly required: boolean;
  /** The value the input shows: a string, or a boolean for checkboxes. */
  readonly value: string | boolean;
  /** Shown next to a read-only value or a ref id (e.g. the company's name). */
  readonly display: string;
  readonly options?: readonly SelectOption[];
  /** The agent's proposal: the stored value struck through, the new one shown. */
  readonly pending?: { readonly from: string; readonly to: string };
}

export interface DetailBlock {
  readonly context: string;
  /** Which record this is (`person_detail:12`): edits of another record are not carried over. */
  readonly key: string;
  readonly label: string;
  readonly summary: string;
  readonly fields: readonly FormField[];
  readonly canSave: boolean;
}

export interface MailBlock {
  readonly to: string;
  readonly subject: string;
  readonly body: string;
}

export type WebviewTexts = Omit<BoardTexts, 'records' | 'version'>;

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
  /** The records of a list view. */
  readonly records: readonly BoardRecord[];
  /** The form values over the loaded record (the person's edits and the agent's preview). */
  readonly form: Readonly<Record<string, unknown>>;
}

export function buildBoardView({ ast, locale, snapshot, records, form }: BoardViewInput): BoardView {
  const texts = boardTexts(locale);
  const { records: _records, version: _version, ...webviewTexts } = texts;
  const context = snapshot.context === undefined || !Object.hasOwn(ast.contexts, snapshot.context) ? undefined : ast.contexts[snapshot.context];
  const view: { -readonly [K in keyof BoardView]: BoardView[K] } = { locale, texts: webviewTexts };
  if (context && snapshot.kind === 'list') view.list = listBlock(ast, locale, texts, snapshot.context!, context, records);
  if (context && snapshot.kind === 'detail' && snapshot.detail) view.detail = detailBlock(ast, locale, texts, snapshot, context, form);
  if (snapshot.mail) {
    const { to, subject, body } = snapshot.mail;
    view.mail = { to: to.name ? `${to.name} <${to.email}>` : to.email, subject, body };
  }
  return view;
}

function contextLabel(ast: Ast, locale: string, name: string, context: ContextDef): string {
  return resolveText(context.label, locale, ast.locales) ?? resolveText(ast.entities[context.entity]?.label, locale, ast.locales) ?? name;
}

function fieldDefOf(ast: Ast, entity: string, field: string): FieldDef | undefined {
  const fields = ast.entities[entity]?.fields ?? {};
  return Object.hasOwn(fields, field) ? fields[field] : undefined;
}

function labelOf(ast: Ast, locale: string, entity: string, field: string): string {
  return resolveText(fieldDefOf(ast, entity, field)?.label, locale, ast.locales) ?? field;
}

function listBlock(ast: Ast, locale: string, texts: BoardTexts, name: string, context: ContextDef, records: readonly BoardRecord[]): ListBlock {
  const columns = context.list_fields.map((field) => {
    const def = fieldDefOf(ast, context.entity, field);
    return { field, label: labelOf(ast, locale, context.entity, field), numeric: def?.type === 'int' || def?.type === 'decimal' };
  });
  const rows = records.map((record) => context.list_fields.map((field) => formatValue(ast, locale, texts, fieldDefOf(ast, context.entity, field), record[field])));
  const target = context.navigate?.row?.context;
  return {
    context: name,
    label: contextLabel(ast, locale, name, context),
    summary: texts.records(records.length),
    columns,
    rows,
    navigable: target !== undefined && ast.contexts[target]?.kind === 'detail',
  };
}

function detailBlock(ast: Ast, locale: string, texts: BoardTexts, snapshot: BoardSnapshot, context: ContextDef, form: Readonly<Record<string, unknown>>): DetailBlock {
  const detail = snapshot.detail!;
  const editable = new Set(context.editable ?? []);
  const fields = context.list_fields.map((field): FormField => {
    const def = fieldDefOf(ast, context.entity, field);
    const stored = detail.record[field];
    const current = Object.hasOwn(form, field) ? form[field] : stored;
    const canEdit = editable.has(field) && def !== undefined && def.type !== 'id';
    const input = def ? inputKind(def) : 'text';
    const out: { -readonly [K in keyof FormField]: FormField[K] } = {
      field,
      label: labelOf(ast, locale, context.entity, field),
      type: def?.type ?? 'unknown',
      input,
      editable: canEdit,
      required: def?.required === true,
      value: inputValue(def, current),
      display: formatValue(ast, locale, texts, def, current),
    };
    if (def?.type === 'enum') out.options = enumOptions(ast, locale, def);
    if (Object.hasOwn(snapshot.pending, field)) {
      out.pending = { from: formatValue(ast, locale, texts, def, stored), to: formatValue(ast, locale, texts, def, snapshot.pending[field]) };
    }
    return out;
  });
  const name = snapshot.context!;
  const id = detail.record.id;
  const title = contextLabel(ast, locale, name, context);
  const summary = [id === undefined ? undefined : `#${String(id)}`, detail.version === undefined ? undefined : texts.version(detail.version)].filter(Boolean).join(' · ');
  return { context: name, key: `${name}:${String(id)}`, label: title, summary, fields, canSave: detail.version !== undefined && editable.size > 0 };
}

export function inputKind(def: FieldDef): InputKind {
  switch (def.type) {
    case 'int':
    case 'decimal':
      return 'number';
    case 'date':
      return 'date';
    case 'datetime':
      return 'datetime';
    case 'bool':
      return 'checkbox';
    case 'enum':
      return 'select';
    case 'text':
      return 'textarea';
    default:
      return 'text';
  }
}

/** A ref may arrive as its related object or as a bare id; the id is what an input edits. */
function refId(value: unknown): unknown {
  if (value !== null && typeof value === 'object' && 'id' in value) return (value as { id: unknown }).id;
  return value;
}

function inputValue(def: FieldDef | undefined, value: unknown): string | boolean {
  if (def?.type === 'bool') return value === true;
  const plain = def?.type === 'ref' ? refId(value) : value;
  if (plain === null || plain === undefined) return '';
  return typeof plain === 'object' ? JSON.stringify(plain) : String(plain);
}

function enumOptions(ast: Ast, locale: string, def: FieldDef): SelectOption[] {
  const values = def.values ?? [];
  return [{ value: '', label: '' }, ...values.map((value) => ({ value, label: resolveText(def.value_labels?.[value], locale, ast.locales) ?? value }))];
}

/** A value as a person reads it: enum labels, yes/no, a ref's name, a dash for nothing. */
export function formatValue(ast: Ast, locale: string, texts: Pick<BoardTexts, 'none' | 'yes' | 'no'>, def: FieldDef | undefined, value: unknown): string {
  if (value === null || value === undefined || value === '') return texts.none;
  if (def?.type === 'bool') return value === true ? texts.yes : value === false ? texts.no : String(value);
  if (def?.type === 'enum' && typeof value === 'string') return resolveText(def.value_labels?.[value], locale, ast.locales) ?? value;
  if (def?.type === 'ref' && def.entity) {
    if (typeof value === 'object' && value !== null) {
      const record = value as BoardRecord;
      const name = record[displayField(ast, def.entity)];
      return name === undefined || name === null ? `#${String(record.id)}` : String(name);
    }
    return `#${String(value)}`;
  }
  if (Array.isArray(value)) return String(value.length);
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** `Name <mail@host>` or a bare address, as the mail surface edits it. */
export function parseMailbox(text: string): { name?: string; email: string } {
  const match = /^\s*(.*?)\s*<([^<>]+)>\s*$/.exec(text);
  if (!match) return { email: text.trim() };
  const name = match[1].replace(/^"(.*)"$/, '$1').trim();
  return name ? { name, email: match[2].trim() } : { email: match[2].trim() };
}
