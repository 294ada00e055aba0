// CSV export: RFC 4180 quoting, formula-looking text defused, windows written in order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { demoApp } from '../../src/backend/demo.ts';
import { appModel } from '../../src/ast/appModel.ts';
import { csvCell, writeCsv } from '../../src/core/csv.ts';
import { MemoryListSource } from '../../src/core/listSource.ts';

test('cells are quoted when needed and text a spreadsheet would run is prefixed', () => {
  assert.equal(csvCell('plain'), 'plain');
  assert.equal(csvCell('a,b'), '"a,b"');
  assert.equal(csvCell('say "hi"'), '"say ""hi"""');
  assert.equal(csvCell('two\nlines'), '"two\nlines"');
  assert.equal(csvCell('=HYPERLINK("x")'), '"\'=HYPERLINK(""x"")"');
  assert.equal(csvCell('-12.50', true), '-12.50');
  assert.equal(csvCell('-12.50'), "'-12.50");
});

test('a list is written with its labels, raw values, sort and filter, across many windows', async () => {
  const context = appModel(demoApp(), 'de').context('person_list')!;
  const records = Array.from({ length: 12_345 }, (_, i) => ({ id: String(i + 1), firstname: i % 2 ? 'Anna' : 'Max', lastname: 'Müller, Jr.', email: null, city: 'Köln', age: i % 90, net_worth: `${i}.50` }));
  let csv = '';
  let writes = 0;
  const written = await writeCsv(new MemoryListSource(context, records), context.fields, { filter: 'anna', sort: { field: 'age', direction: 'desc' } }, async (chunk) => { csv += chunk; writes++; });
  const lines = csv.split('\r\n');
  assert.equal(lines[0], 'id,Vorname,Nachname,E-Mail,Ort,Alter,Vermögen');
  assert.equal(written, 6172);
  assert.equal(lines.length, written + 2, 'a header, the rows, and the empty rest after the last CRLF');
  assert.equal(lines[1], '90,Anna,"Müller, Jr.",,Köln,89,89.50');
  assert.ok(writes >= 3, `written in windows (${writes} writes)`);
});
