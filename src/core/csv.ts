// A shown list as CSV (RFC 4180): the column labels, then every row matching the
// person's sort and filter, fetched window by window so a million rows never sit
// in memory at once. Values are raw and locale-independent (the field kinds' csv form).
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { openPrivateFile } from './privateFiles.ts';
import { fieldKind } from '../ast/fieldKinds.ts';
import { ownValue } from '../ast/lookup.ts';
import type { FieldModel } from '../ast/appModel.ts';
import type { ListQuery, ListSource } from './domain.ts';

const PAGE = 5_000;

/** Quotes a cell when needed; text that a spreadsheet would run as a formula is prefixed with '. */
export function csvCell(text: string, numeric = false): string {
  const safe = !numeric && /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function csvLine(cells: readonly string[]): string {
  return `${cells.join(',')}\r\n`;
}

/** Writes the list; resolves with the number of rows written. */
export async function writeCsv(source: ListSource, fields: readonly FieldModel[], query: ListQuery, write: (chunk: string) => Promise<void>, signal?: AbortSignal): Promise<number> {
  await write(csvLine(fields.map((f) => csvCell(f.label))));
  const kinds = fields.map((f) => fieldKind(f.type));
  let offset = 0;
  for (;;) {
    signal?.throwIfAborted();
    const window = await source.window(offset, PAGE, query);
    if (window.records.length === 0) break;
    let chunk = '';
    for (const record of window.records) {
      chunk += csvLine(fields.map((f, i) => csvCell(kinds[i].csv(ownValue(record, f.field), f), kinds[i].numeric)));
    }
    await write(chunk);
    offset += window.records.length;
    if (offset >= window.total) break;
  }
  return offset;
}

/** Runs `write` into a UTF-8 file at `path` (with a BOM so spreadsheet apps read UTF-8), waiting for the disk as it goes. */
export async function writeCsvFile(
  path: string, write: (sink: (chunk: string) => Promise<void>, signal: AbortSignal) => Promise<number>, signal: AbortSignal,
  options: { readonly private?: boolean } = {},
): Promise<number> {
  // private: readable by the owner only (0600), and never written through a symbolic link at `path`.
  const file = options.private
    ? createWriteStream(path, { encoding: 'utf8', fd: openPrivateFile(path, { truncate: true }) })
    : createWriteStream(path, { encoding: 'utf8' });
  try {
    file.write('\uFEFF');
    return await write(async (chunk) => {
      if (!file.write(chunk)) await once(file, 'drain');
    }, signal);
  } finally {
    file.end();
    await once(file, 'close');
  }
}
