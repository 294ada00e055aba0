// Links on the detail form: a ref opens its related record, an item of an inverse list
// (a company's employees) opens that record. Where a link leads comes from the AST
// (`navigate.<field>`, else a detail context of the related entity); the id comes from
// the record as loaded, never from the webview.
import { appModel, readPath } from '../ast/appModel.ts';
import type { BoardRecord } from './domain.ts';
import { showRecord, type CoreDeps, type Outcome } from './useCases.ts';

/**
 * Opens what a link on the shown record's form leads to: `field` a ref, or an inverse list
 * with `item` the key (id) of one of its items.
 */
export async function openFormLink(deps: CoreDeps, field: string, item?: string): Promise<Outcome> {
  const detail = deps.board.snapshot().detail;
  if (!detail) return { ok: false, text: 'The Board shows no record.' };
  const ast = deps.client.ast();
  const model = appModel(ast, deps.locale ?? ast.locales[0]).context(detail.context);
  const fieldModel = model?.fields.find((f) => f.field === field);
  if (!fieldModel) return { ok: false, text: `${detail.context} has no field ${field}.` };
  if (item === undefined) {
    const target = fieldModel.refTarget;
    if (!target) return { ok: false, text: `${field} of ${detail.context} does not open a record.` };
    const id = readPath(detail.record, target.idPath);
    if (id === undefined || id === null || id === '') return { ok: false, text: `${field} is empty.` };
    return showRecord(deps, target.context, String(id));
  }
  const target = fieldModel.itemTarget;
  if (!target) return { ok: false, text: `${field} of ${detail.context} does not open records.` };
  const items = detail.record[field];
  const found = Array.isArray(items) ? (items as BoardRecord[]).find((entry) => entry && String(entry.id) === item) : undefined;
  const id = found && readPath(found, target.idPath);
  if (id === undefined || id === null || id === '') return { ok: false, text: `${item} is not one of the ${field} shown.` };
  return showRecord(deps, target.context, String(id));
}
