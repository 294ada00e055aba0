// xos-server init's mapping of a database catalog to an AST (src/backend/introspect/), on small
// hand-built catalogs: names, types, refs and their inverses, keys, notes, list columns, and the
// comparison with an AST file that already exists.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { validateAst } from '../../src/ast/validate.ts';
import { parseCheckIn, checkClauses } from '../../src/backend/introspect/catalog.ts';
import type { Catalog, CatalogColumn, CatalogTable } from '../../src/backend/introspect/catalog.ts';
import { compareAst } from '../../src/backend/introspect/compare.ts';
import { formatJson } from '../../src/backend/introspect/json.ts';
import { plural, readable, snakeAscii } from '../../src/backend/introspect/names.ts';
import { catalogToAst, enumValueName, listFieldsOf, whyNotServed } from '../../src/backend/introspect/toAst.ts';

function col(name: string, typeName: string, extra: Partial<CatalogColumn> = {}): CatalogColumn {
  return { name, type: typeName, typeName, notNull: false, ...extra };
}

/** A PostgreSQL table whose first column is a serial key. */
function table(name: string, columns: CatalogColumn[], extra: Partial<CatalogTable> = {}): CatalogTable {
  return { name, schema: 'public', kind: 'table', columns, primaryKey: [columns[0].name], foreignKeys: [], uniques: [], ...extra };
}

function serial(name = 'id'): CatalogColumn {
  return col(name, 'int4', { type: 'integer', notNull: true, default: `nextval('${name}_seq'::regclass)`, autoincrement: true });
}

function pg(...tables: CatalogTable[]): Catalog {
  return { dialect: 'postgres', database: 'shop', schema: 'public', tables };
}

function sqlite(...tables: CatalogTable[]): Catalog {
  return { dialect: 'sqlite', database: 'My Shop', tables: tables.map(({ schema: _schema, ...t }) => t) };
}

function entity(catalog: Catalog, name: string) {
  const { ast } = catalogToAst(catalog);
  assert.ok(ast.entities[name], `no entity ${name}; have ${Object.keys(ast.entities).join(', ')}`);
  return ast.entities[name];
}

describe('names', () => {
  test('snake_case ASCII from any identifier', () => {
    assert.equal(snakeAscii('InvoiceLine'), 'invoice_line');
    assert.equal(snakeAscii('SupportRepId'), 'support_rep_id');
    assert.equal(snakeAscii('HTTPServer'), 'http_server');
    assert.equal(snakeAscii('Straße'), 'strasse');
    assert.equal(snakeAscii('Größe'), 'groesse');
    assert.equal(snakeAscii('ÄPFEL'), 'aepfel');
    assert.equal(snakeAscii('Café crème'), 'cafe_creme');
    assert.equal(snakeAscii('order-items (old)'), 'order_items_old');
    assert.equal(snakeAscii('__private'), 'private');
    assert.equal(snakeAscii('顧客'), '');
  });

  test('labels read like words; plurals for lists and inverses', () => {
    assert.equal(readable('InvoiceLine'), 'Invoice line');
    assert.equal(readable('first_name'), 'First name');
    assert.equal(readable('SupportRepId'), 'Support rep ID');
    assert.equal(readable('ORDER_STATUS'), 'Order status');
    assert.equal(readable('HTTPServer'), 'HTTP server');
    assert.equal(readable('Größe'), 'Größe');
    assert.deepEqual(['invoice', 'company', 'status', 'box', 'settings', 'day'].map(plural), ['invoices', 'companies', 'statuses', 'boxes', 'settings', 'days']);
  });

  test('entity names: leading digit, xos prefix, collisions, GraphQL clashes', () => {
    const { ast } = catalogToAst(pg(
      table('2024_sales', [serial()]),
      table('xos_log', [serial()]),
      table('Invoice', [serial()]),
      table('invoice', [serial()]),
      table('order_by', [serial()]),
      table('顧客', [serial()]),
    ));
    assert.deepEqual(Object.fromEntries(Object.entries(ast.entities).map(([name, e]) => [e.table, name])), {
      '2024_sales': 't_2024_sales', xos_log: 'db_xos_log', Invoice: 'invoice', invoice: 'invoice_2', order_by: 'order_by_2', 顧客: 'table',
    });
  });

  test('field names: the key is id, reserved names get _no, a ref and a scalar <ref>_id never meet', () => {
    const customer = table('customer', [serial('CustomerId'), col('version', 'int4'), col('id', 'text'), col('Name', 'text'), col('name', 'text'), col('1st', 'text')]);
    const order = table('order', [serial(), col('customer', 'int4'), col('customer_id', 'int4')], {
      foreignKeys: [{ columns: ['customer'], targetTable: 'customer', targetColumns: ['CustomerId'] }],
    });
    const { ast } = catalogToAst(pg(customer, order));
    assert.deepEqual(ast.entities.customer.fields, {
      id: { type: 'id', label: 'Customer ID', column: 'CustomerId' },
      version_no: { type: 'int', label: 'Version', column: 'version' },
      id_no: { type: 'text', label: 'ID', column: 'id' },
      name: { type: 'text', label: 'Name', column: 'Name' },
      name_2: { type: 'text', label: 'Name', column: 'name' },
      c_1st: { type: 'text', label: '1st', column: '1st' },
    });
    assert.deepEqual(Object.keys(ast.entities.order.fields), ['id', 'customer', 'customer_id_2']);
    assert.equal(ast.entities.order.fields.customer.column, 'customer');
    assert.equal(ast.entities.order.fields.customer_id_2.column, 'customer_id');
  });

  test('an enum field whose GraphQL type would be another entity\'s name is renamed', () => {
    const { ast } = catalogToAst(pg(
      table('a', [serial(), col('b', 'text', { checkValues: ['x', 'y'] })]),
      table('a_b', [serial()]),
    ));
    assert.deepEqual(Object.keys(ast.entities.a.fields), ['id', 'b_2']);
    assert.equal(ast.entities.a.fields.b_2.column, 'b');
  });
});

describe('column types', () => {
  test('PostgreSQL types', () => {
    const e = entity(pg(table('t', [
      serial(),
      col('small', 'int2'), col('big', 'int8', { type: 'bigint' }),
      col('money', 'numeric', { type: 'numeric(10,2)', precision: 10, scale: 2 }), col('plain_number', 'numeric'),
      col('wide', 'numeric', { type: 'numeric(40,20)', precision: 40, scale: 20 }),
      col('ratio', 'float8'), col('body', 'text'), col('code', 'varchar', { maxLength: 40 }), col('free', 'varchar'),
      col('flag', 'bpchar', { maxLength: 1 }), col('ok', 'bool'), col('day', 'date'), col('at', 'timestamp'),
      col('at_tz', 'timestamptz'), col('clock', 'time'), col('clock_tz', 'timetz'), col('uid', 'uuid'), col('doc', 'jsonb'),
      col('tags', '_text', { type: 'text[]', array: true }), col('blob', 'bytea'), col('search', 'tsvector'), col('shape', 'geometry'),
      col('mood', 'mood', { enumValues: ['happy', 'sad'] }), col('rating', 'mpaa', { enumValues: ['G', 'PG-13'] }),
      col('status', 'text', { checkValues: ['open', 'done'] }), col('level', 'int4', { checkValues: ['1', '2'] }),
    ])), 't');
    assert.deepEqual(e.fields, {
      id: { type: 'id', label: 'ID' },
      small: { type: 'int', label: 'Small' },
      big: { type: 'decimal', label: 'Big', scale: 0 },
      money: { type: 'decimal', label: 'Money', scale: 2 },
      plain_number: { type: 'decimal', label: 'Plain number' },
      wide: { type: 'decimal', label: 'Wide' },
      ratio: { type: 'decimal', label: 'Ratio' },
      body: { type: 'text', label: 'Body' },
      code: { type: 'string', label: 'Code', max: 40 },
      free: { type: 'string', label: 'Free' },
      flag: { type: 'string', label: 'Flag', max: 1 },
      ok: { type: 'bool', label: 'Ok' },
      day: { type: 'date', label: 'Day' },
      at: { type: 'datetime', label: 'At' },
      at_tz: { type: 'datetime', label: 'At tz' },
      clock: { type: 'time', label: 'Clock' },
      clock_tz: { type: 'string', label: 'Clock tz' },
      uid: { type: 'string', label: 'Uid' },
      doc: { type: 'text', label: 'Doc', read_only: true },
      mood: { type: 'enum', label: 'Mood', values: ['happy', 'sad'] },
      rating: { type: 'enum', label: 'Rating', values: ['G', 'PG_13'], value_labels: { PG_13: 'PG-13' }, column_values: { PG_13: 'PG-13' } },
      status: { type: 'enum', label: 'Status', values: ['open', 'done'] },
      level: { type: 'int', label: 'Level' },
    });
    assert.deepEqual(e.notes, [
      'column "wide" (numeric(40,20)) keeps 20 digits after the point; XOS\'s scale goes to 18, so the field has none',
      'left out column "tags" (type text[]): XOS has no field type for it',
      'left out column "blob" (type bytea): XOS has no field type for it',
      'left out column "search" (type tsvector): XOS has no field type for it',
      'left out column "shape" (type geometry): XOS has no field type for it',
      'column "rating": values that are no GraphQL names have names in the API ("PG-13" is PG_13); XOS reads and writes the database\'s spelling',
    ]);
  });

  test('a SQLite table of 2,000 columns keeps 1,999 fields: a row read with its version fits SQLite\'s 2,000 columns', () => {
    const columns = Array.from({ length: 1999 }, (_, i) => col(`c${i}`, 'text'));
    const wide = entity(sqlite(table('wide', [col('id', 'integer', { autoincrement: true }), ...columns])), 'wide');
    assert.equal(Object.keys(wide.fields).length, 1999);
    assert.equal(wide.fields.c1998, undefined);
    assert.deepEqual(wide.notes, ['left out column "c1998": SQLite returns at most 2,000 columns of a row, and XOS reads the row\'s version besides its 1999 fields']);
    assert.equal(Object.keys(entity(pg(table('wide', [serial(), ...columns])), 'wide').fields).length, 2000, 'PostgreSQL has no such bound below its own');
  });

  test('enum values that are no GraphQL names get names as PostGraphile gives them, each its own', () => {
    assert.deepEqual(['PG-13', 'NC-17', '3D', '', 'true', '__x', '>=', 'in progress', 'Größe'].map(enumValueName),
      ['PG_13', 'NC_17', '_3D', '_EMPTY_', 'true_', '_x', 'GREATER_THAN_OR_EQUAL', 'in_progress', 'Gro_e']);
    const e = entity(pg(table('t', [serial(), col('r', 'mpaa', { enumValues: ['PG-13', 'PG_13', 'PG 13', '1', '_1'] })])), 't');
    assert.deepEqual(e.fields.r, {
      type: 'enum', label: 'R', values: ['PG_13_2', 'PG_13', 'PG_13_3', '_1_2', '_1'],
      value_labels: { PG_13_2: 'PG-13', PG_13_3: 'PG 13', _1_2: '1' }, column_values: { PG_13_2: 'PG-13', PG_13_3: 'PG 13', _1_2: '1' },
    });
  });

  test('an enum value\'s label is cleaned like a comment, while the database\'s exact spelling stays in column_values', () => {
    const spelling = 'ok\u202e[Approve](command:xos.save)';
    const e = entity(pg(table('t', [serial(), col('r', 'state', { enumValues: [spelling] })])), 't');
    const field = e.fields.r as { value_labels?: Record<string, string>; column_values?: Record<string, string>; values: string[] };
    const name = field.values[0];
    assert.equal(field.column_values?.[name], spelling);
    assert.doesNotMatch(field.value_labels?.[name] ?? '', /\u202e|\]\(|command:/);
    assert.match(field.value_labels?.[name] ?? '', /^ok/);
  });

  test('SQLite declared types, with SQLite\'s affinity rules for the rest', () => {
    const rowid = col('Id', 'integer', { type: 'INTEGER', autoincrement: true });
    const e = entity(sqlite(table('Thing', [
      rowid,
      col('Name', 'nvarchar', { type: 'NVARCHAR(40)', maxLength: 40 }), col('Code', 'varchar', { type: 'VARCHAR' }),
      col('Notes', 'text', { type: 'TEXT' }), col('Memo', 'clob', { type: 'CLOB' }), col('Count', 'int', { type: 'INT' }),
      col('Huge', 'unsigned big int', { type: 'UNSIGNED BIG INT' }), col('Price', 'numeric', { type: 'NUMERIC(10,2)', precision: 10, scale: 2 }),
      col('Ratio', 'double', { type: 'DOUBLE' }), col('Active', 'boolean', { type: 'BOOLEAN' }), col('Born', 'date', { type: 'DATE' }),
      col('Seen', 'datetime', { type: 'DATETIME' }), col('Opens', 'time', { type: 'TIME' }), col('Data', 'json', { type: 'JSON' }),
      col('Picture', 'blob', { type: 'BLOB' }), col('Anything', ''), col('Odd', 'money', { type: 'MONEY' }),
      col('Kind', 'text', { type: 'TEXT', checkValues: ['a', 'b', 'a'] }), col('Total', 'real', { type: 'REAL', generated: true }),
    ])), 'thing');
    assert.deepEqual(Object.fromEntries(Object.entries(e.fields).map(([name, def]) => [name, [def.type, def.max ?? def.scale ?? def.values ?? def.read_only ?? null]])), {
      id: ['id', null], name: ['string', 40], code: ['string', null], notes: ['text', null], memo: ['text', null], count: ['int', null],
      huge: ['decimal', 0], price: ['decimal', 2], ratio: ['decimal', null], active: ['bool', null], born: ['date', null],
      seen: ['datetime', null], opens: ['time', null], data: ['text', true], kind: ['enum', ['a', 'b']], total: ['decimal', true],
    });
    assert.deepEqual(e.notes, [
      'left out column "Picture" (type BLOB): XOS has no field type for it',
      'left out column "Anything" (type none): XOS has no field type for it',
      'left out column "Odd" (type MONEY): XOS has no field type for it',
    ]);
  });

  test('required: NOT NULL without default and not computed; read_only: identity ALWAYS, generated, JSON', () => {
    const e = entity(pg(table('t', [
      col('id', 'int4', { notNull: true, identity: 'always', autoincrement: true }),
      col('must', 'text', { notNull: true }), col('defaulted', 'text', { notNull: true, default: "'x'::text" }),
      col('computed', 'int4', { notNull: true, generated: true }), col('numbered', 'int4', { notNull: true, identity: 'always', autoincrement: true }),
      col('by_default', 'int4', { notNull: true, identity: 'by default', autoincrement: true }), col('optional', 'text'),
    ])), 't');
    assert.deepEqual(Object.fromEntries(Object.entries(e.fields).map(([name, def]) => [name, [def.required ?? false, def.read_only ?? false]])), {
      id: [false, false], must: [true, false], defaulted: [false, false], computed: [false, true], numbered: [false, true],
      by_default: [false, false], optional: [false, false],
    });
  });
});

describe('refs and inverses', () => {
  const customer = table('Customer', [serial('CustomerId'), col('Name', 'text')]);

  test('a single-column foreign key to a served key is a ref; its inverse is the source in plural', () => {
    const invoice = table('Invoice', [serial('InvoiceId'), col('CustomerId', 'int4', { notNull: true }), col('note_id', 'int4')], {
      foreignKeys: [
        { columns: ['CustomerId'], targetTable: 'Customer', targetColumns: ['CustomerId'] },
        { columns: ['note_id'], targetTable: 'note', targetColumns: ['id'] },
      ],
    });
    const note = table('note', [serial(), col('text', 'text')]);
    const { ast } = catalogToAst(pg(customer, invoice, note));
    assert.deepEqual(ast.entities.invoice.fields.customer, {
      type: 'ref', label: 'Customer', required: true, entity: 'customer', inverse: 'invoices', column: 'CustomerId',
    });
    // The column is the ref's default `<field>_id`: no `column`.
    assert.deepEqual(ast.entities.invoice.fields.note, { type: 'ref', label: 'Note', entity: 'note', inverse: 'invoices' });
    assert.deepEqual(ast.contexts.invoice_detail.navigate, {
      customer: { context: 'customer_detail', params: { id: 'customer.id' } },
      note: { context: 'note_detail', params: { id: 'note.id' } },
    });
  });

  test('two refs to one target, a clash with a field, a self-reference', () => {
    const order = table('order', [serial(), col('customer_id', 'int4'), col('bill_to_id', 'int4')], {
      foreignKeys: [
        { columns: ['customer_id'], targetTable: 'Customer', targetColumns: ['CustomerId'] },
        { columns: ['bill_to_id'], targetTable: 'Customer', targetColumns: ['CustomerId'] },
      ],
    });
    const person = table('person', [serial(), col('persons', 'text'), col('manager', 'int4')], {
      foreignKeys: [{ columns: ['manager'], targetTable: 'person', targetColumns: ['id'] }],
    });
    const { ast } = catalogToAst(pg(customer, order, person));
    assert.equal(ast.entities.order.fields.customer.inverse, 'orders_by_customer');
    assert.equal(ast.entities.order.fields.bill_to.inverse, 'orders_by_bill_to');
    assert.deepEqual(ast.entities.person.fields.manager, { type: 'ref', label: 'Manager', entity: 'person', inverse: 'persons_by_manager', column: 'manager' });
  });

  test('what does not become a ref is a plain value, with a note', () => {
    const code = table('code', [col('code', 'text', { notNull: true })]);
    const line = table('line', [col('order_id', 'int4'), col('no', 'int4')], { primaryKey: ['order_id', 'no'] });
    const item = table('item', [serial(), col('order_id', 'int4'), col('no', 'int4'), col('code', 'text'), col('name', 'text'), col('region_id', 'int4')], {
      foreignKeys: [
        { columns: ['order_id', 'no'], targetTable: 'line', targetColumns: ['order_id', 'no'] },
        { columns: ['code'], targetTable: 'code', targetColumns: ['code'] },
        { columns: ['name'], targetTable: 'Customer', targetColumns: ['Name'] },
        { columns: ['region_id'], targetSchema: 'geo', targetTable: 'region', targetColumns: ['id'] },
      ],
    });
    const e = entity(pg(customer, code, line, item), 'item');
    assert.deepEqual(Object.values(e.fields).map((f) => f.type), ['id', 'int', 'int', 'ref', 'text', 'int']);
    // A table keyed by text is served: a ref to it says so.
    assert.deepEqual(e.fields.code, { type: 'ref', label: 'Code', entity: 'code', inverse: 'items', key: 'text', column: 'code' });
    assert.deepEqual(e.notes, [
      'left out the foreign key (order_id, no) -> "line" (order_id, no): a ref has one column',
      'column "name" points at "Customer" (Name), not at its key: it is a plain value',
      'column "region_id" points at "geo"."region" in another schema: it is a plain value',
    ]);
  });
});

test('a key that also points at another table stays the id', () => {
  const base = table('person', [serial()]);
  const extra = table('person_extra', [col('id', 'int4', { notNull: true }), col('note', 'text')], {
    foreignKeys: [{ columns: ['id'], targetTable: 'person', targetColumns: ['id'] }],
  });
  const e = entity(pg(base, extra), 'person_extra');
  assert.deepEqual(e.fields.id, { type: 'id', label: 'ID' });
  assert.equal(e.notes![0], 'the key "id" also points at "person" (id): it is the id, without a ref');
});

describe('keys', () => {
  test('composite keys, tables without a key and views are read-only entities; what cannot be keyed is left out with its reason', () => {
    const result = catalogToAst(pg(
      table('ok', [serial()]),
      table('Straße', [col('code', 'varchar', { type: 'character varying(10)' })]),
      table('token', [col('id', 'uuid')]),
      table('pair', [col('a', 'int4'), col('b', 'int4')], { primaryKey: ['a', 'b'] }),
      table('log', [col('message', 'text')], { primaryKey: [] }),
      table('open_ok', [col('id', 'int4'), col('total', 'numeric')], { kind: 'view', primaryKey: [] }),
      table('totals', [col('region', 'text'), col('total', 'numeric')], { kind: 'view', primaryKey: [] }),
      table('ok_totals', [col('id', 'int4')], { kind: 'materialized view', primaryKey: [] }),
    ));
    assert.deepEqual(Object.keys(result.ast.entities), ['log', 'ok', 'open_ok', 'pair', 'strasse', 'token']);
    // A composite key is read as its values joined; a table without one by its rows' own place.
    assert.deepEqual(result.ast.entities.pair.fields.id, { type: 'id', label: 'Key', key: 'text', columns: ['a', 'b'] });
    assert.match(result.ast.entities.pair.read_only ?? '', /^composite key \(a, b\): XOS reads its rows by the key's values joined by "\|"/);
    assert.deepEqual(result.ast.entities.log.fields.id, { type: 'id', label: 'Row', column: 'ctid', key: 'text' });
    assert.match(result.ast.entities.log.read_only ?? '', /^no primary key: XOS reads its rows by their place in the table \(ctid\)/);
    assert.deepEqual(Object.keys(result.ast.contexts.pair_detail).sort(), ['entity', 'kind', 'label', 'list_fields']);
    // A view whose first column names its rows is read, never written.
    assert.match(result.ast.entities.open_ok.read_only ?? '', /^a view: the database computes its rows; XOS reads them by "id"/);
    assert.deepEqual(Object.keys(result.ast.contexts.open_ok_detail).sort(), ['entity', 'kind', 'label', 'list_fields']);
    assert.deepEqual(result.ast.entities.strasse.fields.id, { type: 'id', label: 'Code', key: 'text', column: 'code' });
    assert.deepEqual(result.ast.entities.token.fields.id, { type: 'id', label: 'ID', key: 'uuid' });
    assert.match(result.ast.entities.token.notes!.at(-1)!, /gives new records no key \(the uuid key "id" has no default\)/);
    assert.deepEqual(result.ast.notes!.slice(0, -1), [
      'table "ok_totals": a materialized view',
      'table "totals": a view without a first column that names its rows (like "id" or "film_id")',
    ]);
    assert.deepEqual(result.leftOutTables.map((t) => t.table), ['ok_totals', 'totals']);
    assert.match(result.ast.notes!.at(-1)!, /^"audit" is false: .*"audit": true .*xos\.audit/);
    assert.equal(result.ast.audit, false);
    assert.equal(whyNotServed(table('n', [col('n', 'numeric')]), 'postgres'), 'its key is numeric; XOS serves integer, text and uuid keys');
    assert.equal(whyNotServed(table('s', [col('id', 'int', { type: 'INT' })]), 'sqlite'), undefined);
  });

  test('create only where the database numbers the key and every column that needs a value has a field', () => {
    const { ast } = catalogToAst(pg(
      table('numbered', [serial(), col('name', 'text', { notNull: true })]),
      table('given', [col('id', 'int4', { notNull: true }), col('name', 'text')]),
      table('pictured', [serial(), col('picture', 'bytea', { notNull: true })]),
      table('documented', [serial(), col('doc', 'json', { notNull: true })]),
    ));
    assert.equal(ast.contexts.numbered_detail.create, true);
    assert.deepEqual(ast.contexts.numbered_detail.editable, ['name']);
    for (const name of ['given', 'pictured', 'documented']) assert.equal(ast.contexts[`${name}_detail`].create, undefined, name);
    assert.deepEqual(ast.entities.given.notes, ['new records cannot be created here: the database does not number new records (the key "id" has no default)']);
    assert.equal(ast.entities.pictured.notes!.at(-1), 'new records cannot be created here: the column "picture" needs a value and is left out');
    assert.deepEqual(ast.entities.documented.notes, ['new records cannot be created here: the column "doc" needs a value and is read-only here']);
    assert.deepEqual(ast.contexts.documented_detail, {
      kind: 'detail', entity: 'documented', label: 'Documented', list_fields: ['id', 'doc'], delete: true,
    });
  });
});

describe('the AST', () => {
  test('app, labels from comments, schema, column only where names differ', () => {
    const catalog: Catalog = {
      dialect: 'postgres', database: 'Shop-DB', schema: 'sales',
      tables: [{
        ...table('Customer', [serial(), col('name', 'text', { comment: 'Full name' }), col('bio', 'text', { comment: 'A long story\nover lines' })]),
        schema: 'sales', comment: 'People who buy',
      }],
    };
    const { ast } = catalogToAst(catalog);
    assert.equal(ast.app, 'shop_db');
    assert.equal(ast.label, 'Shop DB');
    assert.deepEqual(ast.locales, ['en']);
    assert.deepEqual(ast.entities.customer, {
      label: 'People who buy', table: 'Customer', schema: 'sales',
      fields: {
        id: { type: 'id', label: 'ID' },
        name: { type: 'text', label: 'Full name' },
        bio: { type: 'text', label: 'Bio', description: 'A long story\nover lines' },
      },
    });
    assert.deepEqual(ast.contexts.customer_list, {
      kind: 'list', entity: 'customer', label: 'Customers', list_fields: ['id', 'name'],
      navigate: { row: { context: 'customer_detail', params: { id: 'id' } } },
    });
    assert.equal(validateAst(ast).ok, true);
  });

  test('list columns: up to three names and two places, then a bit of each kind, no long texts or JSON, in the table\'s order', () => {
    assert.deepEqual(listFieldsOf('invoice', {
      id: { type: 'id' }, customer: { type: 'ref', entity: 'customer' }, date: { type: 'date' }, street: { type: 'string' },
      city: { type: 'string' }, zip: { type: 'string' }, total: { type: 'decimal' }, paid: { type: 'bool' }, description: { type: 'text' },
    }), ['id', 'customer', 'date', 'street', 'city', 'total']);
    assert.deepEqual(listFieldsOf('person', {
      id: { type: 'id' }, age: { type: 'int' }, email: { type: 'string' }, last_name: { type: 'text' }, first_name: { type: 'string' },
      title: { type: 'string' }, company: { type: 'string' }, name: { type: 'string' }, city: { type: 'string' },
    }), ['id', 'age', 'first_name', 'title', 'name', 'city']);
    // Chinook's customers as init names them: the person, the firm, where they are.
    const text = { type: 'text' } as const;
    assert.deepEqual(listFieldsOf('customer', {
      id: { type: 'id' }, first_name: text, last_name: text, company: text, address: text, city: text, state: text, country: text,
      postal_code: text, phone: text, fax: text, email: text, support_rep: { type: 'ref', entity: 'employee' },
    }), ['id', 'first_name', 'last_name', 'company', 'city', 'country']);
    // Chinook's invoices: the customer, the date, the amount, where it was billed.
    assert.deepEqual(listFieldsOf('invoice', {
      id: { type: 'id' }, customer: { type: 'ref', entity: 'customer' }, invoice_date: { type: 'datetime' }, billing_address: text,
      billing_city: text, billing_state: text, billing_country: text, billing_postal_code: text, total: { type: 'decimal' },
    }), ['id', 'customer', 'invoice_date', 'billing_city', 'billing_country', 'total']);
    assert.deepEqual(listFieldsOf('city', {
      id: { type: 'id' }, city: { type: 'text' }, notes: { type: 'text' }, data: { type: 'text', read_only: true }, district: { type: 'text' },
    }), ['id', 'city', 'district']);
  });

  test('a person is named by first and last name (display), other records by their first text', () => {
    const { ast } = catalogToAst(pg(
      table('Customer', [serial('CustomerId'), col('FirstName', 'text', { notNull: true }), col('LastName', 'text'), col('City', 'text')]),
      table('Genre', [serial('GenreId'), col('Name', 'text')]),
    ));
    assert.equal(ast.entities.customer.display, '{first_name} {last_name}');
    assert.deepEqual(Object.keys(ast.entities.customer).slice(-2), ['display', 'fields'], 'the template before the fields, as the file reads');
    assert.equal(ast.entities.genre.display, undefined);
    assert.equal(validateAst(ast).ok, true);
  });

  test('the written JSON reads back to the same AST', () => {
    const { ast } = catalogToAst(pg(table('a', [serial(), col('n', 'text', { checkValues: ['x', 'y'] })])));
    const text = formatJson(ast);
    assert.deepEqual(JSON.parse(text), ast);
    assert.ok(text.includes('\n      "fields": { "id": { "type": "id", "label": "ID" }, "n": { "type": "enum", "label": "N", "values": ["x", "y"] } }\n'), text);
  });
});

describe('CHECK (col IN (...))', () => {
  test('SQLite as written, PostgreSQL normalised, a domain\'s VALUE', () => {
    assert.deepEqual(parseCheckIn("status IN ('open', 'paid')"), { column: 'status', values: ['open', 'paid'] });
    assert.deepEqual(parseCheckIn(`("Order Status" in ('it''s', 'b'))`), { column: 'Order Status', values: ["it's", 'b'] });
    assert.deepEqual(parseCheckIn("CHECK ((status = ANY (ARRAY['open'::text, 'paid'::text])))"), { column: 'status', values: ['open', 'paid'] });
    assert.deepEqual(parseCheckIn("CHECK (((channel)::text = ANY ((ARRAY['web shop'::character varying, 'phone'::character varying])::text[])))"),
      { column: 'channel', values: ['web shop', 'phone'] });
    assert.deepEqual(parseCheckIn("CHECK (((VALUE)::text = ANY ((ARRAY['DE'::character varying, 'AT'::character varying])::text[])))"),
      { column: 'VALUE', values: ['DE', 'AT'] });
    assert.equal(parseCheckIn('CHECK ((VALUE > (0)::numeric))'), undefined);
    assert.equal(parseCheckIn("status IN ('a') OR status IS NULL"), undefined);
    assert.equal(parseCheckIn('level IN (1, 2)'), undefined);
  });

  test('every CHECK of a CREATE TABLE statement, not a column named check', () => {
    assert.deepEqual(checkClauses(`CREATE TABLE t ("check" TEXT CHECK ("check" IN ('a', 'b)')), n INT, CHECK (n > 0))`),
      [`"check" IN ('a', 'b)')`, 'n > 0']);
  });
});

describe('compare with an existing file', () => {
  const before = catalogToAst(pg(
    table('customer', [serial(), col('name', 'text'), col('old', 'text')]),
    table('gone', [serial()]),
    table('order', [serial(), col('customer_id', 'int4')]),
  )).ast;

  test('says what the database has that the file lacks, and what the file names that is gone', () => {
    // The person renamed an entity and a field: still matched by table and column.
    const file = structuredClone(before) as any;
    file.entities.client = file.entities.customer;
    delete file.entities.customer;
    file.entities.client.fields.full_name = { ...file.entities.client.fields.name, column: 'name' };
    delete file.entities.client.fields.name;
    const now = catalogToAst(pg(
      table('customer', [serial(), col('name', 'text'), col('email', 'varchar', { maxLength: 80 })]),
      table('order', [serial(), col('customer_id', 'int4')], { foreignKeys: [{ columns: ['customer_id'], targetTable: 'customer', targetColumns: ['id'] }] }),
      table('invoice', [serial()]),
    ));
    assert.deepEqual(compareAst(now.ast, file), {
      additions: [
        'column "customer"."email": the field client.email (string, max 80)',
        'table "invoice": the entity invoice (1 field)',
        'column "order"."customer_id": now a foreign key: the ref order.customer (to customer) in place of the field order.customer_id',
      ],
      removals: [
        'entity gone: the database has no table "gone"',
        'field client.old: the table "customer" has no column "old"',
      ],
    });
  });

  test('nothing to report for the same database; reasons for what is left out now', () => {
    assert.deepEqual(compareAst(before, structuredClone(before)), { additions: [], removals: [] });
    const now = catalogToAst(pg(
      table('customer', [serial(), col('name', 'text'), col('old', 'bytea')]),
      table('gone', [col('id', 'numeric')]),
      table('order', [serial(), col('customer_id', 'int4')]),
    ));
    assert.deepEqual(compareAst(now.ast, before, { tables: now.leftOutTables, columns: now.leftOutColumns }).removals, [
      'field customer.old: the column "old" is left out now (left out column "old" (type bytea): XOS has no field type for it)',
      'entity gone: XOS no longer serves the table "gone" (its key is numeric; XOS serves integer, text and uuid keys)',
    ]);
  });

  test('an entity of XOS\'s own (no table) is not compared', () => {
    const file = structuredClone(before) as any;
    file.entities.note = { fields: { id: { type: 'id' }, text: { type: 'text' } } };
    assert.deepEqual(compareAst(before, file), { additions: [], removals: [] });
  });
});
