// The data of an inline card, built from what a tool just put on the Board. It goes in
// the result's `_meta` (never in the text or structuredContent, which reach the model)
// and follows the AST's agent policy like every reply: hidden fields never appear,
// masked ones as •••. Small by construction: ten rows, cut texts, about 8 KB at most.
import type { AgentResult } from '../result.ts';
import type { Ast } from '../../ast/schema.ts';
import { agentListFields, agentPolicy, MASKED_VALUE } from '../../ast/agentPolicy.ts';
import { appModel, type ContextModel, type FieldModel } from '../../ast/appModel.ts';
import { joinedName } from '../../ast/display.ts';
import { formatAddress } from '../../mail/address.ts';
import type { XosDeps } from '../ports.ts';
import type { BoardRecord, MailDraft } from '../../core/domain.ts';
import { fieldLabel, findContext, ownValue } from '../../ast/lookup.ts';
import type { Review } from '../../core/review.ts';
import { namedToAgent } from '../agentText.ts';
import { CARD_META_KEY, type Card, type CardBody, type CardField, type CardOpen } from './cardTypes.ts';

/** Rows of a list the card shows. */
export const CARD_ROWS = 10;
/** Fields of a record the card shows. */
const CARD_FIELDS = 24;
/** Longest text of a cell, a field value or a changed value. */
const CELL_LIMIT = 80;
const SUBJECT_LIMIT = 200;
const BODY_LIMIT = 600;
/** The most a card's JSON may take. */
export const CARD_MAX_BYTES = 8 * 1024;

/**
 * The result with its card in `_meta`; the result itself (text, isError, structuredContent) is
 * unchanged. A card is an extra: when it cannot be made, the reply goes out without it.
 */
export function withCard(result: AgentResult, card: () => Card | undefined): AgentResult {
  if (result.isError) return result;
  let made: Card | undefined;
  try {
    made = card();
  } catch {
    made = undefined;
  }
  return made ? { ...result, _meta: { ...result._meta, [CARD_META_KEY]: made } } : result;
}

/**
 * What xos_query or xos_render just showed: the list's first rows with the count, or the record.
 * Open in Board may call the same read-only tool again: that only shows the same data again.
 */
export function shownCard(deps: XosDeps, tool: string, context: string): Card | undefined {
  const model = contextModelOf(deps, context);
  if (!model) return undefined;
  const ast = deps.client.ast();
  const open = openWith(deps, { kind: 'reshow' });
  if (model.kind === 'list') {
    const list = deps.board.list();
    if (!list || list.context !== context) return undefined;
    const names = new Set(agentListFields(ast, context));
    const fields = model.fields.filter((f) => names.has(f.field));
    const rows = list.source.first.records.slice(0, CARD_ROWS).map((record) => fields.map((f) => cellText(ast, model.entity, f, record[f.field])));
    return fit({ kind: 'list', tool, context, title: model.label, columns: fields.map(labelOf), rows, total: list.source.total }, open);
  }
  const detail = deps.board.snapshot().detail;
  if (!detail || detail.context !== context) return undefined;
  const fields = model.fields.filter((f) => namedToAgent(ast, model.entity, f.field)).slice(0, CARD_FIELDS);
  return fit({
    kind: 'record', tool, context, title: model.label,
    fields: fields.map((f) => ({ ...labelOf(f), value: cellText(ast, model.entity, f, detail.record[f.field]) })),
  }, open);
}

/** The agent's pending changes of the loaded record, old -> new, or a review's first rows. Re-showing is not offered: the Board in VS Code shows them. */
export function changesCard(deps: XosDeps, tool: string, context: string): Card | undefined {
  const model = contextModelOf(deps, context);
  const snapshot = deps.board.snapshot();
  const review = deps.board.review();
  if (model && review && snapshot.kind === 'review' && review.context === context) return reviewCard(deps, tool, model, review);
  const detail = snapshot.detail;
  if (!model || !detail || detail.context !== context) return undefined;
  const ast = deps.client.ast();
  const byName = new Map(model.fields.map((f) => [f.field, f]));
  const changes = Object.entries(snapshot.pending).filter(([field]) => namedToAgent(ast, model.entity, field)).map(([field, to]) => {
    const f = byName.get(field) ?? { field, label: field, type: 'text', required: false, def: undefined } as FieldModel;
    return { ...labelOf(f), from: cellText(ast, model.entity, f, ownValue(detail.record, field)), to: cellText(ast, model.entity, f, to) };
  });
  return fit({ kind: 'changes', tool, context, title: model.label, record: `${model.entityLabel} ${cut(String(detail.record.id ?? ''), CELL_LIMIT)}`, changes }, openWith(deps, { kind: 'none' }));
}

/**
 * A review of many changes: how many rows, the first ones with each visible changed field as
 * "old → new" (what the agent may not see stays •••). The person decides on the Board.
 */
function reviewCard(deps: XosDeps, tool: string, model: ContextModel, review: Review): Card {
  const ast = deps.client.ast();
  const fieldModel = (field: string) => model.fields.find((f) => f.field === field) ?? { field, label: fieldLabel(ast, model.entity, field, deps.locale), type: 'text', required: false, def: undefined } as FieldModel;
  const fields = review.fields.filter((f) => namedToAgent(ast, model.entity, f)).map(fieldModel);
  const rows = review.inFilter('all').slice(0, CARD_ROWS).map((row) => [
    cut(row.id, CELL_LIMIT),
    ...fields.map((f) => {
      const cell = row.cells.get(f.field);
      return cell ? `${cellText(ast, model.entity, f, cell.from)} → ${cellText(ast, model.entity, f, cell.to)}` : '';
    }),
  ]);
  const tally = review.tally();
  return fit({
    kind: 'list', tool, context: review.context, title: `${model.label}: ${tally.accepted} / ${tally.rows}`,
    columns: [{ field: 'id', label: 'ID' }, ...fields.map(labelOf)], rows, total: review.size,
  }, openWith(deps, { kind: 'none' }));
}

/** The mail draft: recipient, subject, the beginning of the body. Nothing is sent from a card. */
export function mailCard(deps: XosDeps, tool: string, draft: MailDraft): Card {
  return fit({ kind: 'mail', tool, to: cut(formatAddress(draft.to), SUBJECT_LIMIT), subject: cut(draft.subject, SUBJECT_LIMIT), body: cut(draft.body, BODY_LIMIT) }, openWith(deps, { kind: 'none' }));
}

function contextModelOf(deps: XosDeps, context: string): ContextModel | undefined {
  const ast = deps.client.ast();
  if (!findContext(ast, context)) return undefined;
  return appModel(ast, deps.locale ?? ast.locales[0]).context(context);
}

/** The browser Board when the server knows one; otherwise what the tool allows. */
function openWith(deps: XosDeps, otherwise: CardOpen): CardOpen {
  const url = deps.boardUrl?.();
  return url && /^https?:\/\//.test(url) ? { kind: 'url', url } : otherwise;
}

function labelOf(f: FieldModel): CardField {
  return { field: f.field, label: cut(f.label, CELL_LIMIT) };
}

/** A value as the card shows it, as the agent may know it: masked as •••; callers leave hidden fields out. */
function cellText(ast: Ast, entity: string, f: FieldModel, value: unknown): string {
  if (agentPolicy(ast, entity, f.field) !== 'visible') return MASKED_VALUE;
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return String(value.length);
  if (typeof value === 'object') return cut(refText(ast, f, value as BoardRecord), CELL_LIMIT);
  if (typeof value === 'boolean') return value ? '✓' : '✗';
  if (typeof value === 'string' && f.enumLabels && Object.hasOwn(f.enumLabels, value)) return cut(f.enumLabels[value], CELL_LIMIT);
  return cut(String(value), CELL_LIMIT);
}

/** A related record by its name (display.ts) when the agent may see all it is made of, else by its id. */
function refText(ast: Ast, f: FieldModel, related: BoardRecord): string {
  const fields = f.refFields ?? [];
  const entity = f.refEntity;
  if (entity && fields.length && fields.every((field) => agentPolicy(ast, entity, field) === 'visible')) {
    const name = joinedName(fields.map((field) => (Object.hasOwn(related, field) ? related[field] : undefined)));
    if (name !== undefined) return name;
  }
  const id = related.id;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : '';
}

function cut(text: string, limit: number): string {
  const chars = [...text];
  if (chars.length <= limit) return text;
  return `${chars.slice(0, limit - 1).join('')}…`;
}

/** The card with its open action, its rows or fields trimmed until its JSON fits CARD_MAX_BYTES. */
function fit(body: CardBody, open: CardOpen): Card {
  let card: Card = { ...body, open };
  const size = (c: Card) => Buffer.byteLength(JSON.stringify(c), 'utf8');
  let trimmed = false;
  while (size(card) > CARD_MAX_BYTES) {
    const next = smaller(card);
    if (!next) break;
    card = next;
    trimmed = true;
  }
  return trimmed ? { ...card, cut: true } : card;
}

function smaller(card: Card): Card | undefined {
  switch (card.kind) {
    case 'list': return card.rows.length > 1 ? { ...card, rows: card.rows.slice(0, -1) } : undefined;
    case 'record': return card.fields.length > 1 ? { ...card, fields: card.fields.slice(0, -1) } : undefined;
    case 'changes': return card.changes.length > 1 ? { ...card, changes: card.changes.slice(0, -1) } : undefined;
    case 'mail': return card.body.length > 40 ? { ...card, body: `${[...card.body].slice(0, Math.floor(card.body.length / 2)).join('')}…` } : undefined;
  }
}
