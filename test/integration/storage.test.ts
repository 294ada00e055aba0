// The same storage suite against a SQLite file and a throwaway PostgreSQL.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Ast } from '../../src/ast/schema.ts';
import { buildModel } from '../../src/backend/model.ts';
import { StorageError } from '../../src/backend/storage/errors.ts';
import { describeDsn, openStorage } from '../../src/backend/storage/open.ts';
import type { Condition, Row, Storage } from '../../src/backend/storage/types.ts';
import { startPostgres } from '../support/postgres.ts';
import type { PostgresServer } from '../support/postgres.ts';
import { tempDir } from '../support/tmp.ts';
import type { TempDir } from '../support/tmp.ts';

const ast: Ast = {
  xos: '1',
  app: 'storage_test',
  locales: ['en'],
  entities: {
    company: {
      fields: {
        id: { type: 'id' },
        name: { type: 'string', required: true },
        revenue: { type: 'decimal' },
        founded: { type: 'date' },
        listed: { type: 'bool' },
      },
    },
    person: {
      fields: {
        id: { type: 'id' },
        firstname: { type: 'string', required: true },
        notes: { type: 'text' },
        age: { type: 'int' },
        net_worth: { type: 'decimal' },
        active: { type: 'bool' },
        birthday: { type: 'date' },
        last_contact: { type: 'datetime' },
        email: { type: 'email' },
        phone: { type: 'phone' },
        website: { type: 'url' },
        status: { type: 'enum', values: ['lead', 'customer'] },
        company: { type: 'ref', entity: 'company', inverse: 'employees' },
      },
    },
  },
  contexts: {},
};

/** The same app after it grew: a new column, a new ref column and a new entity. */
const grownAst: Ast = {
  ...ast,
  entities: {
    company: { fields: { ...ast.entities.company.fields, slogan: { type: 'string' } } },
    person: { fields: { ...ast.entities.person.fields, mentor: { type: 'ref', entity: 'person' } } },
    tag: { fields: { id: { type: 'id' }, label: { type: 'string' } } },
  },
};

const model = buildModel(ast);
const grownModel = buildModel(grownAst);

const PERSON_NULLS: Row = {
  notes: null, age: null, net_worth: null, active: null, birthday: null, last_contact: null,
  email: null, phone: null, website: null, status: null, company_id: null,
};

const DROP_TABLE = "'; DROP TABLE person; --";
const OR_TRUE = "%' OR '1'='1";

const companies: Row[] = [
  { id: 1, name: 'Acme', revenue: '1000.50', founded: '1990-01-01', listed: true },
  { id: 2, name: 'Globex', revenue: '999.99', founded: '2005-06-15', listed: false },
  { id: 3, name: 'Initech' },
];

const people: Row[] = [
  { id: 1, firstname: 'Ada', age: 36, net_worth: '100.5', active: true, status: 'customer', company_id: 1, birthday: '1815-12-10', last_contact: '2024-05-01T10:00:00.000Z' },
  { id: 2, firstname: 'adam', age: 41, net_worth: '99.95', active: false, status: 'lead', company_id: 1, birthday: '1980-02-29', last_contact: '2024-05-01T09:59:59.999Z' },
  { id: 3, firstname: 'Bob', age: null, net_worth: '9.5', active: true, status: 'lead', company_id: 2, birthday: '2000-01-01' },
  { id: 4, firstname: 'ALAN', age: 41, net_worth: '1000', active: null, status: null, company_id: null, last_contact: '2023-01-01T00:00:00.000Z' },
  { id: 5, firstname: DROP_TABLE, age: 20, net_worth: null, active: false, status: 'customer', company_id: 2 },
  { id: 6, firstname: OR_TRUE, age: 36, net_worth: '0.10', active: true, status: 'lead', company_id: 3 },
];

const eq = (column: string, value: Row[string]): Condition => ({ kind: 'compare', column, op: 'eq', value });
const cmp = (column: string, op: 'neq' | 'lt' | 'lte' | 'gt' | 'gte' | 'like' | 'ilike', value: Row[string]): Condition =>
  ({ kind: 'compare', column, op, value });

interface Adapter {
  readonly name: string;
  /** The column a foreign-key StorageError names (SQLite does not say). */
  readonly foreignKeyColumn: string | undefined;
  setUp(): Promise<void>;
  /** A storage on an empty database of its own. */
  fresh(): Promise<Storage>;
  tearDown(): Promise<void>;
}

function sqliteAdapter(): Adapter {
  let dir: TempDir | undefined;
  let count = 0;
  const opened: Storage[] = [];
  return {
    name: 'sqlite',
    foreignKeyColumn: undefined,
    async setUp() {
      dir = await tempDir('xos-storage');
    },
    async fresh() {
      count += 1;
      const storage = await openStorage(`sqlite:${join(dir!.path, `db${count}`, 'xos.sqlite')}`);
      opened.push(storage);
      return storage;
    },
    async tearDown() {
      for (const storage of opened) await storage.close();
      await dir?.remove();
    },
  };
}

function postgresAdapter(): Adapter {
  let server: PostgresServer | undefined;
  let count = 0;
  const opened: Storage[] = [];
  return {
    name: 'postgres',
    foreignKeyColumn: 'company_id',
    async setUp() {
      server = await startPostgres();
    },
    async fresh() {
      count += 1;
      const storage = await openStorage(await server!.createDatabase(`storage_${count}`));
      opened.push(storage);
      return storage;
    },
    async tearDown() {
      for (const storage of opened) await storage.close();
      await server?.stop();
    },
  };
}

async function ids(storage: Storage, table: string, where?: Condition, orderBy?: Array<{ column: string; desc: boolean }>): Promise<number[]> {
  const rows = await storage.select({ table, columns: [], where, orderBy });
  return rows.map((row) => row.id as number);
}

function storageSuite(adapter: Adapter): void {
  describe(adapter.name, () => {
    before(() => adapter.setUp());
    after(() => adapter.tearDown());

    test('migrate creates the tables, then has nothing left to do', async () => {
      const storage = await adapter.fresh();
      assert.deepEqual(await storage.migrate(model), { createdTables: ['company', 'person'], addedColumns: [], createdIndexes: [], createdSearchIndexes: [], audit: { kept: true } });
      assert.deepEqual(await storage.migrate(model), { createdTables: [], addedColumns: [], createdIndexes: [], createdSearchIndexes: [], audit: { kept: true } });
      assert.equal(await storage.count('person'), 0);
    });

    test('migrate makes a sort index for each scalar column a list shows, once, and says which', async () => {
      const storage = await adapter.fresh();
      const listed = buildModel({ ...ast, contexts: { person_list: { kind: 'list', entity: 'person', list_fields: ['id', 'birthday', 'firstname', 'company', 'net_worth'] } } });
      // In the entity's field order; not the id (the key) nor the ref (indexed already).
      assert.deepEqual(await storage.migrate(listed), {
        createdTables: ['company', 'person'], addedColumns: [], createdIndexes: ['person.firstname', 'person.net_worth', 'person.birthday'],
        // The quick filter's text columns get a trigram index where PostgreSQL has pg_trgm.
        createdSearchIndexes: adapter.name === 'postgres' ? ['person.firstname'] : [],
        audit: { kept: true },
      });
      assert.deepEqual(await storage.migrate(listed), { createdTables: [], addedColumns: [], createdIndexes: [], createdSearchIndexes: [], audit: { kept: true } });
      const grown = buildModel({ ...ast, contexts: { person_list: { kind: 'list', entity: 'person', list_fields: ['id', 'birthday', 'firstname', 'company', 'net_worth', 'age'] } } });
      assert.deepEqual((await storage.migrate(grown)).createdIndexes, ['person.age']);
      // Sorting by an indexed decimal still sorts numerically, nulls last.
      await storage.insertMany([{ table: 'company', rows: companies }, { table: 'person', rows: people }]);
      assert.deepEqual(await ids(storage, 'person', undefined, [{ column: 'net_worth', desc: false }]), [6, 3, 2, 1, 4, 5]);
      assert.deepEqual(await ids(storage, 'person', undefined, [{ column: 'net_worth', desc: true }]), [5, 4, 1, 2, 3, 6]);
    });

    test('migrate adds the columns and tables of a grown model and keeps the rows', async () => {
      const storage = await adapter.fresh();
      await storage.migrate(model);
      const acme = await storage.insert('company', { name: 'Acme', revenue: '1.50' });
      const ada = await storage.insert('person', { firstname: 'Ada', company_id: acme.id });

      assert.deepEqual(await storage.migrate(grownModel), {
        createdTables: ['tag'],
        addedColumns: ['company.slogan', 'person.mentor_id'],
        createdIndexes: [],
        createdSearchIndexes: [],
        audit: { kept: true },
      });
      assert.deepEqual(await storage.migrate(grownModel), { createdTables: [], addedColumns: [], createdIndexes: [], createdSearchIndexes: [], audit: { kept: true } });

      assert.deepEqual(await storage.select({ table: 'company', columns: ['name', 'revenue', 'slogan'] }), [
        { id: acme.id, version: 1, name: 'Acme', revenue: '1.50', slogan: null },
      ]);
      const bob = await storage.insert('person', { firstname: 'Bob', mentor_id: ada.id });
      assert.equal(bob.mentor_id, ada.id);
      await assert.rejects(storage.insert('person', { firstname: 'Cy', mentor_id: 999 }), { name: 'StorageError', code: 'foreign_key' });
      assert.deepEqual(await storage.insert('tag', { label: 'vip' }), { id: 1, label: 'vip', version: 1 });
    });

    test('insert returns the whole stored row and every value round-trips exactly', async () => {
      const storage = await adapter.fresh();
      await storage.migrate(model);
      const company = await storage.insert('company', { name: 'Acme', revenue: '12345678901234567890.12', founded: '1999-12-31', listed: false });
      assert.deepEqual(company, { id: 1, version: 1, name: 'Acme', revenue: '12345678901234567890.12', founded: '1999-12-31', listed: false });

      const values: Row = {
        firstname: 'Ada', notes: 'line one\nline two', age: 36, net_worth: '-0.50', active: true,
        birthday: '1815-12-10', last_contact: '2024-05-01T10:00:00.000Z', email: 'ada@example.org',
        phone: '+49 30 1234567', website: 'https://example.org/ada', status: 'customer', company_id: 1,
      };
      const person = await storage.insert('person', values);
      assert.deepEqual(person, { id: 1, version: 1, ...values });
      assert.deepEqual(await storage.select({ table: 'person', columns: Object.keys(values) }), [person]);

      // An offset datetime is stored as the same instant in UTC; absent fields read back as null.
      const minimal = await storage.insert('person', { firstname: 'Bob', last_contact: '2024-05-01T12:30:00+02:00', active: false });
      assert.deepEqual(minimal, { ...PERSON_NULLS, id: 2, version: 1, firstname: 'Bob', last_contact: '2024-05-01T10:30:00.000Z', active: false });
    });

    test('insertMany keeps given ids and later inserts continue after the largest', async () => {
      const storage = await adapter.fresh();
      await storage.migrate(model);
      await storage.insertMany([{ table: 'company', rows: [{ id: 10, name: 'Ten' }, { id: 20, name: 'Twenty' }] }]);
      await storage.insertMany([{ table: 'company', rows: [] }]);
      const next = await storage.insert('company', { name: 'Next' });
      assert.equal(next.id, 21);
      assert.deepEqual(await storage.select({ table: 'company', columns: ['name'] }), [
        { id: 10, version: 1, name: 'Ten' },
        { id: 20, version: 1, name: 'Twenty' },
        { id: 21, version: 1, name: 'Next' },
      ]);
    });

    describe('select and count', () => {
      let storage: Storage;
      before(async () => {
        storage = await adapter.fresh();
        await storage.migrate(model);
        await storage.insertMany([{ table: 'company', rows: companies }]);
        await storage.insertMany([{ table: 'person', rows: people }]);
      });

      test('returns id, the asked columns and version in canonical form', async () => {
        assert.deepEqual(await storage.select({ table: 'person', columns: ['firstname', 'active', 'net_worth'], where: eq('id', 3) }), [
          { id: 3, version: 1, firstname: 'Bob', active: true, net_worth: '9.5' },
        ]);
        assert.deepEqual(await storage.select({ table: 'person', columns: ['id', 'company_id'], where: eq('id', '4') }), [
          { id: 4, version: 1, company_id: null },
        ]);
      });

      test('eq, neq, lt, lte, gt, gte on int', async () => {
        assert.deepEqual(await ids(storage, 'person', eq('age', 36)), [1, 6]);
        assert.deepEqual(await ids(storage, 'person', cmp('age', 'neq', 36)), [2, 4, 5]);
        assert.deepEqual(await ids(storage, 'person', cmp('age', 'lt', 36)), [5]);
        assert.deepEqual(await ids(storage, 'person', cmp('age', 'lte', 36)), [1, 5, 6]);
        assert.deepEqual(await ids(storage, 'person', cmp('age', 'gt', 36)), [2, 4]);
        assert.deepEqual(await ids(storage, 'person', cmp('age', 'gte', 41)), [2, 4]);
        assert.deepEqual(await ids(storage, 'person', eq('age', null)), [3]);
      });

      test('decimals compare by value, not as text', async () => {
        assert.deepEqual(await ids(storage, 'person', cmp('net_worth', 'gt', '99.9')), [1, 2, 4]);
        assert.deepEqual(await ids(storage, 'person', cmp('net_worth', 'lte', '9.5')), [3, 6]);
        assert.deepEqual(await ids(storage, 'person', eq('net_worth', '100.50')), [1]);
        assert.deepEqual(await ids(storage, 'person', { kind: 'in', column: 'net_worth', values: ['1000.0', '9.5'], negate: false }), [3, 4]);
        assert.deepEqual(await ids(storage, 'company', cmp('revenue', 'gte', 1000)), [1]);
      });

      test('bool, date and datetime comparisons', async () => {
        assert.deepEqual(await ids(storage, 'person', eq('active', false)), [2, 5]);
        assert.deepEqual(await ids(storage, 'person', eq('active', true)), [1, 3, 6]);
        assert.deepEqual(await ids(storage, 'person', cmp('birthday', 'lt', '1990-01-01')), [1, 2]);
        assert.deepEqual(await ids(storage, 'person', cmp('last_contact', 'gt', '2024-01-01T00:00:00.000Z')), [1, 2]);
        assert.deepEqual(await ids(storage, 'person', cmp('last_contact', 'gte', '2024-05-01T10:00:00.000Z')), [1]);
        assert.deepEqual(await ids(storage, 'person', eq('last_contact', '2024-05-01T12:00:00+02:00')), [1]);
      });

      test('in, nin and the empty list', async () => {
        assert.deepEqual(await ids(storage, 'person', { kind: 'in', column: 'age', values: [20, 41], negate: false }), [2, 4, 5]);
        assert.deepEqual(await ids(storage, 'person', { kind: 'in', column: 'age', values: [20, 41], negate: true }), [1, 6]);
        assert.deepEqual(await ids(storage, 'person', { kind: 'in', column: 'age', values: [], negate: false }), []);
        assert.deepEqual(await ids(storage, 'person', { kind: 'in', column: 'age', values: [], negate: true }), [1, 2, 3, 4, 5, 6]);
        assert.deepEqual(await ids(storage, 'person', { kind: 'in', column: 'status', values: ['customer'], negate: false }), [1, 5]);
      });

      test('like is case-sensitive, ilike is not', async () => {
        assert.deepEqual(await ids(storage, 'person', cmp('firstname', 'like', 'A%')), [1, 4]);
        assert.deepEqual(await ids(storage, 'person', cmp('firstname', 'like', '%a%')), [1, 2]);
        assert.deepEqual(await ids(storage, 'person', cmp('firstname', 'like', 'a_am')), [2]);
        assert.deepEqual(await ids(storage, 'person', cmp('firstname', 'ilike', 'a%')), [1, 2, 4]);
        assert.deepEqual(await ids(storage, 'person', cmp('firstname', 'ilike', '%LA%')), [4]);
      });

      test('is_null true and false', async () => {
        assert.deepEqual(await ids(storage, 'person', { kind: 'is_null', column: 'age', isNull: true }), [3]);
        assert.deepEqual(await ids(storage, 'person', { kind: 'is_null', column: 'age', isNull: false }), [1, 2, 4, 5, 6]);
        assert.deepEqual(await ids(storage, 'person', { kind: 'is_null', column: 'company_id', isNull: true }), [4]);
      });

      test('and, or, not', async () => {
        assert.deepEqual(await ids(storage, 'person', { kind: 'and', items: [cmp('age', 'gte', 36), eq('active', true)] }), [1, 6]);
        assert.deepEqual(await ids(storage, 'person', { kind: 'or', items: [eq('age', 20), eq('firstname', 'Bob')] }), [3, 5]);
        assert.deepEqual(await ids(storage, 'person', { kind: 'not', item: eq('age', 36) }), [2, 4, 5]);
        assert.deepEqual(await ids(storage, 'person', { kind: 'and', items: [] }), [1, 2, 3, 4, 5, 6]);
        assert.deepEqual(await ids(storage, 'person', { kind: 'or', items: [] }), []);
        assert.deepEqual(await ids(storage, 'person', {
          kind: 'or',
          items: [{ kind: 'and', items: [eq('status', 'lead'), cmp('age', 'gt', 40)] }, { kind: 'not', item: cmp('age', 'gte', 21) }],
        }), [2, 5]);
      });

      test('ref follows a many-to-one relation, inverse a one-to-many list', async () => {
        assert.deepEqual(await ids(storage, 'person', { kind: 'ref', column: 'company_id', table: 'company', where: eq('name', 'Acme') }), [1, 2]);
        assert.deepEqual(await ids(storage, 'person', { kind: 'ref', column: 'company_id', table: 'company', where: cmp('revenue', 'lt', '1000') }), [3, 5]);
        assert.deepEqual(await ids(storage, 'company', { kind: 'inverse', table: 'person', column: 'company_id', where: cmp('age', 'gt', 40) }), [1]);
        assert.deepEqual(await ids(storage, 'company', { kind: 'inverse', table: 'person', column: 'company_id', where: eq('status', 'lead') }), [1, 2, 3]);
        assert.deepEqual(await ids(storage, 'company', { kind: 'not', item: { kind: 'inverse', table: 'person', column: 'company_id', where: eq('active', false) } }), [3]);
      });

      test('order by several columns, nulls last ascending and first descending, then id', async () => {
        assert.deepEqual(await ids(storage, 'person', undefined, [{ column: 'status', desc: false }, { column: 'age', desc: true }]), [1, 5, 3, 2, 6, 4]);
        assert.deepEqual(await ids(storage, 'person', undefined, [{ column: 'age', desc: false }]), [5, 1, 6, 2, 4, 3]);
        assert.deepEqual(await ids(storage, 'person', undefined, [{ column: 'age', desc: true }]), [3, 4, 2, 6, 1, 5], 'ties by id, descending too');
        assert.deepEqual(await ids(storage, 'person', undefined, [{ column: 'net_worth', desc: false }]), [6, 3, 2, 1, 4, 5]);
        assert.deepEqual(await ids(storage, 'person', undefined, [{ column: 'last_contact', desc: true }]), [6, 5, 3, 1, 2, 4], 'the nulls first, by id descending');
      });

      test('limit and offset page through a stable order', async () => {
        const page = (limit: number | undefined, offset: number | undefined) =>
          storage.select({ table: 'person', columns: [], orderBy: [{ column: 'age', desc: false }], limit, offset })
            .then((rows) => rows.map((row) => row.id));
        assert.deepEqual(await page(2, 0), [5, 1]);
        assert.deepEqual(await page(2, 1), [1, 6]);
        assert.deepEqual(await page(undefined, 4), [4, 3]);
        assert.deepEqual(await page(0, undefined), []);
        assert.deepEqual(await page(10, 6), []);
        await assert.rejects(page(-1, undefined), { message: 'limit must be a non-negative integer, got -1' });
      });

      test('count with and without where', async () => {
        assert.equal(await storage.count('person'), 6);
        assert.equal(await storage.count('person', cmp('age', 'gt', 36)), 2);
        assert.equal(await storage.count('company', { kind: 'inverse', table: 'person', column: 'company_id', where: eq('age', 20) }), 1);
      });

      test('injection strings are plain values and the tables survive', async () => {
        assert.deepEqual(await ids(storage, 'person', eq('firstname', DROP_TABLE)), [5]);
        assert.deepEqual(await ids(storage, 'person', eq('firstname', OR_TRUE)), [6]);
        assert.deepEqual(await ids(storage, 'person', cmp('firstname', 'like', OR_TRUE)), [6]);
        assert.deepEqual(await ids(storage, 'person', cmp('firstname', 'ilike', DROP_TABLE)), [5]);
        assert.deepEqual(await ids(storage, 'person', { kind: 'in', column: 'firstname', values: [DROP_TABLE, 'nobody'], negate: false }), [5]);
        assert.deepEqual(await ids(storage, 'company', eq('name', OR_TRUE)), []);
        assert.equal(await storage.count('person'), 6);
        assert.equal(await storage.count('company'), 3);
      });
    });

    test('update bumps the version; a stale version is a conflict; an unknown id is missing', async () => {
      const storage = await adapter.fresh();
      await storage.migrate(model);
      const acme = await storage.insert('company', { name: 'Acme' });
      const ada = await storage.insert('person', { firstname: 'Ada', age: 36, company_id: acme.id });

      const updated = await storage.update('person', ada.id as number, 1, { age: 37, net_worth: '1.23', active: false, company_id: null });
      const expected = { ...PERSON_NULLS, id: ada.id, version: 2, firstname: 'Ada', age: 37, net_worth: '1.23', active: false };
      assert.deepEqual(updated, { status: 'ok', row: expected });

      assert.deepEqual(await storage.update('person', ada.id as number, 1, { age: 99 }), { status: 'conflict', current: expected });
      assert.deepEqual(await storage.update('person', 999, 1, { age: 99 }), { status: 'missing' });
      assert.deepEqual(await storage.select({ table: 'person', columns: ['age'] }), [{ id: ada.id, version: 2, age: 37 }]);
      await assert.rejects(storage.update('person', ada.id as number, 2, { version: 7 }), { message: 'column "version" cannot be set' });
    });

    test('delete checks the version: stale keeps the row, current removes it', async () => {
      const storage = await adapter.fresh();
      await storage.migrate(model);
      const acme = await storage.insert('company', { name: 'Acme' });
      await storage.update('company', acme.id as number, 1, { name: 'Acme Corp' });

      assert.deepEqual(await storage.delete('company', acme.id as number, 1), {
        status: 'conflict',
        current: { id: acme.id, version: 2, name: 'Acme Corp', revenue: null, founded: null, listed: null },
      });
      assert.equal(await storage.count('company'), 1);
      assert.deepEqual(await storage.delete('company', acme.id as number, 2), { status: 'ok' });
      assert.equal(await storage.count('company'), 0);
      assert.deepEqual(await storage.delete('company', acme.id as number, 2), { status: 'missing' });
    });

    test('a reference to a missing row is a StorageError foreign_key', async () => {
      const storage = await adapter.fresh();
      await storage.migrate(model);
      const error = await storage.insert('person', { firstname: 'Ada', company_id: 999 }).then(() => undefined, (e: unknown) => e);
      assert.ok(error instanceof StorageError, `expected a StorageError, got ${String(error)}`);
      assert.equal(error.code, 'foreign_key');
      assert.equal(error.column, adapter.foreignKeyColumn);
      assert.equal(await storage.count('person'), 0);

      const acme = await storage.insert('company', { name: 'Acme' });
      const ada = await storage.insert('person', { firstname: 'Ada', company_id: acme.id });
      await assert.rejects(storage.update('person', ada.id as number, 1, { company_id: 999 }), { name: 'StorageError', code: 'foreign_key' });
      await assert.rejects(storage.delete('company', acme.id as number, 1), { name: 'StorageError', code: 'foreign_key' });
      await assert.rejects(storage.insertMany([{ table: 'person', rows: [{ firstname: 'Bob' }, { firstname: 'Cy', company_id: 999 }] }]), { name: 'StorageError', code: 'foreign_key' });
      assert.equal(await storage.count('person'), 1);
    });

    test('injection strings are stored and read back literally', async () => {
      const storage = await adapter.fresh();
      await storage.migrate(model);
      const row = await storage.insert('person', { firstname: DROP_TABLE, notes: OR_TRUE });
      assert.equal(row.firstname, DROP_TABLE);
      assert.equal(row.notes, OR_TRUE);
      const updated = await storage.update('person', row.id as number, 1, { firstname: OR_TRUE });
      assert.equal(updated.status === 'ok' && updated.row.firstname, OR_TRUE);
      assert.equal(await storage.count('person'), 1);
    });

    test('unknown tables and columns throw before any SQL runs', async () => {
      const storage = await adapter.fresh();
      await storage.migrate(model);
      // Closed: any statement that reached the database would fail differently.
      await storage.close();
      await assert.rejects(storage.select({ table: 'person', columns: ['nope'] }), { message: 'unknown column "nope" on table "person"' });
      await assert.rejects(storage.select({ table: 'person', columns: [], where: eq('age; DROP TABLE person', 1) }), { message: 'unknown column "age; DROP TABLE person" on table "person"' });
      await assert.rejects(storage.select({ table: 'person', columns: [], orderBy: [{ column: 'nope', desc: false }] }), { message: 'unknown column "nope" on table "person"' });
      await assert.rejects(storage.select({ table: 'people', columns: [] }), { message: 'unknown table "people"' });
      await assert.rejects(storage.count('person', { kind: 'ref', column: 'company_id', table: 'company', where: eq('nope', 1) }), { message: 'unknown column "nope" on table "company"' });
      await assert.rejects(storage.count('company', { kind: 'inverse', table: 'person', column: 'age', where: eq('id', 1) }), { message: 'column "age" on table "person" does not reference table "company"' });
      await assert.rejects(storage.insert('person', { firstname: 'Ada', nope: 1 }), { message: 'unknown column "nope" on table "person"' });
      await assert.rejects(storage.update('person', 1, 1, { nope: 1 }), { message: 'unknown column "nope" on table "person"' });
      await assert.rejects(storage.delete('people', 1, 1), { message: 'unknown table "people"' });
    });

    test('ping measures a round trip', async () => {
      const storage = await adapter.fresh();
      const ms = await storage.ping();
      assert.equal(typeof ms, 'number');
      assert.ok(ms >= 0 && ms < 5000, `ping took ${ms} ms`);
      assert.equal(storage.kind, adapter.name);
    });
  });
}

storageSuite(sqliteAdapter());
storageSuite(postgresAdapter());

describe('openStorage', () => {
  test('refuses an unknown DSN and lists the accepted forms', async () => {
    await assert.rejects(openStorage('mysql://root:secret@localhost/xos'), {
      message: 'unsupported DSN "mysql://localhost/xos"; accepted forms: sqlite:<path>, sqlite::memory:, postgres://user:password@host:port/database or postgresql://...',
    });
    await assert.rejects(openStorage('sqlite:'), { message: /^the DSN "sqlite:" names no SQLite file/ });
  });

  test('describeDsn drops user info and password parameters', () => {
    assert.equal(describeDsn('postgres://xos:secret@127.0.0.1:5432/xos'), 'postgres://127.0.0.1:5432/xos');
    assert.equal(describeDsn('postgres://alice:p@ss:w/rd@db.example/crm'), 'postgres://(hidden: the DSN could not be read as a URL)');
    assert.equal(describeDsn('postgresql://xos@127.0.0.1/xos?password=secret&sslmode=disable'), 'postgresql://127.0.0.1/xos?sslmode=disable');
    assert.equal(describeDsn('sqlite:/var/lib/xos/xos.sqlite'), 'sqlite:/var/lib/xos/xos.sqlite');
  });

  test('sqlite::memory: works and a postgres description hides the password', async () => {
    const memory = await openStorage('sqlite::memory:');
    await memory.migrate(model);
    assert.deepEqual(await memory.insert('company', { name: 'Acme' }), { id: 1, version: 1, name: 'Acme', revenue: null, founded: null, listed: null });
    assert.equal(memory.description, 'sqlite::memory:');
    await memory.close();

    const remote = await openStorage('postgres://xos:secret@127.0.0.1:1/xos');
    assert.equal(remote.kind, 'postgres');
    assert.equal(remote.description, 'postgres://127.0.0.1:1/xos');
    await assert.rejects(remote.ping(), { name: 'StorageError', code: 'unavailable' });
    await remote.close();
  });

  test('a relative sqlite path is resolved against the working directory', async () => {
    const dir = await tempDir('xos-open');
    const cwd = process.cwd();
    try {
      process.chdir(dir.path);
      const storage = await openStorage('sqlite:nested/dir/xos.sqlite');
      assert.equal(storage.description, `sqlite:${join(dir.path, 'nested', 'dir', 'xos.sqlite')}`);
      await storage.close();
    } finally {
      process.chdir(cwd);
      await dir.remove();
    }
  });
});
