// What <xos-review-grid> says and checks, as pure functions (tested in Node without a browser):
// the counts line, each cell's accessible name, a row's note and toggle state, and what the page
// itself finds wrong with a typed value before the host checks the AST's rules.
import { fieldKind } from '../../src/ast/fieldKinds.ts';
import type { ReviewCell, ReviewColumn, ReviewCounts, ReviewRow, WebviewTexts } from '../../src/board/viewTypes.ts';

/** A text's `{name}` placeholders filled in one pass (a value is never read as a placeholder or a `$` pattern). */
export function fill(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(values, name) ? values[name] : whole));
}

/** "1,998 of 2,000 rows will change · 2 invalid · 0 unchanged" (conflicts only when there are some), in the locale. */
export function reviewCountText(counts: ReviewCounts, texts: WebviewTexts, number: Intl.NumberFormat): string {
  const { rows, accepted, invalid, conflicts, unchanged } = counts;
  const parts = [
    fill(rows === 1 ? texts.reviewCountOne : texts.reviewCount, { accepted: number.format(accepted), rows: number.format(rows) }),
    fill(texts.reviewCountInvalid, { count: number.format(invalid) }),
  ];
  if (conflicts > 0) parts.push(fill(texts.reviewCountConflicts, { count: number.format(conflicts) }));
  parts.push(fill(texts.reviewCountUnchanged, { count: number.format(unchanged) }));
  return parts.join(' · ');
}

/** "Price: 10.00 → 10.50, accepted" (and the person's own value, and what is wrong with it); from and to as formatted. */
export function reviewCellName(column: ReviewColumn, cell: ReviewCell, from: string, to: string, texts: WebviewTexts): string {
  const name = fill(cell.accepted ? texts.reviewCellAccepted : texts.reviewCellRejected, { field: column.label, from, to });
  const extra = [cell.edited ? texts.reviewCellEdited : '', cell.problem ?? ''].filter(Boolean);
  return extra.length ? `${name}, ${extra.join(', ')}` : name;
}

/** Why the row is left out, and that someone else changed it meanwhile ('' when neither). */
export function reviewNote(row: ReviewRow, texts: WebviewTexts): string {
  const notes: string[] = [];
  if (row.problem !== undefined) notes.push(fill(texts.reviewRowInvalid, { problem: row.problem }));
  if (row.conflict) notes.push(texts.reviewRowConflict);
  return notes.join(' ');
}

/** The row's toggle (aria-checked): every proposed cell accepted, none, or some. */
export function rowChecked(row: ReviewRow): 'true' | 'false' | 'mixed' {
  let accepted = 0;
  let proposed = 0;
  for (const cell of row.cells) {
    if (!cell) continue;
    proposed++;
    if (cell.accepted) accepted++;
  }
  return accepted === 0 ? 'false' : accepted === proposed ? 'true' : 'mixed';
}

const isEmpty = (value: unknown): boolean => value === null || value === undefined || value === '';

/**
 * What the page itself finds wrong with a typed value, converted like the form converts it
 * (`fieldKind(type).parse`): required, the type, a number's bounds. The host checks the AST's
 * other rules when the value is sent.
 */
export function localProblem(column: ReviewColumn, value: unknown, texts: WebviewTexts, number: Intl.NumberFormat): string | undefined {
  if (isEmpty(value)) return column.required ? texts.reviewRequired : undefined;
  if (!fieldKind(column.type).valid(value)) return texts.typeProblems[column.type] ?? texts.reviewNotValid;
  if (column.type === 'int' || column.type === 'decimal') {
    const n = Number(value);
    if (column.min !== undefined && n < column.min) return fill(texts.reviewMin, { 0: number.format(column.min) });
    if (column.max !== undefined && n > column.max) return fill(texts.reviewMax, { 0: number.format(column.max) });
  }
  return undefined;
}
