// Links on the detail form: a ref opens its related record, an item of an inverse list
// (a company's employees) opens that record. Where a link leads comes from the AST
// (`navigate.<field>`, else a detail context of the related entity); the id comes from
// the record as loaded, never from the webview.
import { appModel, readPath } from '../ast/appModel.ts';
import type { BoardRecord } from './domain.ts';
import { showRecord } from './show.ts';
import type { CoreDeps } from './base.ts';
import type { ShowOutcome } from './outcomes.ts';

/**
 * Opens what a link on the shown record's form leads to: `field` a ref, or an inverse list
 * with `item` the key (id) of one of its items.
 */
export async function openFormLink(deps: CoreDeps, field: string, item?: string): Promise<ShowOutcome> {
  const detail = deps.board.snapshot().detail;
  if (!detail) return { kind: 'no_record', ok: false };
  const ast = deps.client.ast();
  const model = appModel(ast, deps.locale ?? ast.locales[0]).context(detail.context);
  const fieldModel = model?.fields.find((f) => f.field === field);
  if (!fieldModel) return { kind: 'no_field', ok: false, context: detail.context, field };
  if (item === undefined) {
    const target = fieldModel.refTarget;
    if (!target) return { kind: 'no_link', ok: false, context: detail.context, field, items: false };
    const id = readPath(detail.record, target.idPath);
    if (id === undefined || id === null || id === '') return { kind: 'empty_link', ok: false, context: detail.context, field };
    return showRecord(deps, target.context, String(id));
  }
  const target = fieldModel.itemTarget;
  if (!target) return { kind: 'no_link', ok: false, context: detail.context, field, items: true };
  const items = detail.record[field];
  const found = Array.isArray(items) ? (items as BoardRecord[]).find((entry) => entry && String(entry.id) === item) : undefined;
  const id = found && readPath(found, target.idPath);
  if (id === undefined || id === null || id === '') return { kind: 'not_an_item', ok: false, context: detail.context, field, item };
  return showRecord(deps, target.context, String(id));
}
