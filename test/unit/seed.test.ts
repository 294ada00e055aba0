import { describe, it } from 'node:test';
import type { AuditEntry } from '../../src/backend/storage/audit.ts';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { AstSchema } from '../../src/ast/schema.ts';
import type { Ast } from '../../src/ast/schema.ts';
import { buildModel } from '../../src/backend/model.ts';
import type { Model } from '../../src/backend/model.ts';
import type { BatchWriteResult, Condition, DeleteResult, InsertBatch, InsertManyOptions, ListKey, MigrationReport, Row, SelectSpec, Storage, TableRights, WriteResult } from '../../src/backend/storage/types.ts';
import { checkRequired, coerceFieldValue, FieldValueError } from '../../src/ast/values.ts';
import { generateRecords } from '../../src/backend/seed/generate.ts';
import { seedStorage } from '../../src/backend/seed/seed.ts';
import { buildDemoData, DEMO_DATA_URL, formatDemoData, loadDemoAst } from '../../scripts/gen-demo-data.ts';

type Records = Record<string, Record<string, unknown>[]>;

const demoAst = loadDemoAst();

/** A small app that uses every field type, with limits the generator has to respect. */
const libraryAst: Ast = AstSchema.parse({
  xos: '1',
  app: 'library',
  locales: ['en'],
  entities: {
    author: {
      fields: {
        id: { type: 'id' },
        name: { type: 'string', required: true, max: 60 },
        email: { type: 'email' },
        phone: { type: 'phone' },
        website: { type: 'url' },
        bio: { type: 'text', max: 200 },
        born: { type: 'date' },
        mentor: { type: 'ref', entity: 'author' },
      },
    },
    book: {
      fields: {
        id: { type: 'id' },
        title: { type: 'string', required: true, max: 12 },
        isbn: { type: 'string', min: 13, max: 13 },
        shelf_code: { type: 'string', required: true, min: 20, max: 24 },
        pages: { type: 'int', min: 5000, max: 5010 },
        price: { type: 'decimal', scale: 3, min: 0.5, max: 0.75 },
        weight: { type: 'decimal' },
        genre: { type: 'enum', required: true, values: ['novel', 'poetry', 'essay'] },
        available: { type: 'bool', required: true },
        added_at: { type: 'datetime', required: true },
        author: { type: 'ref', entity: 'author', required: true },
      },
    },
    loan: {
      fields: {
        id: { type: 'id' },
        book: { type: 'ref', entity: 'book', required: true },
        borrower_email: { type: 'email', required: true },
        loaned_on: { type: 'date', required: true },
        returned: { type: 'bool' },
        notes: { type: 'text' },
        fee: { type: 'decimal', scale: 0, min: -3, max: -1 },
      },
    },
  },
  contexts: { book_list: { kind: 'list', entity: 'book', list_fields: ['id', 'title'] } },
});

/** Every value must already be in canonical form, and required fields must be set. */
function assertAllValid(ast: Ast, data: Records): void {
  for (const [entity, records] of Object.entries(data)) {
    const fields = ast.entities[entity].fields;
    records.forEach((record, index) => {
      assert.deepEqual(checkRequired(entity, fields, record), [], `${entity}[${index}] misses a required field`);
      for (const [field, value] of Object.entries(record)) {
        const def = field === 'id' ? { type: 'id' as const } : fields[field];
        assert.ok(def, `${entity}[${index}] has unknown field ${field}`);
        assert.deepEqual(coerceFieldValue(entity, field, def, value), value, `${entity}[${index}].${field}`);
      }
    });
  }
}

function assertRefsExist(ast: Ast, data: Records): void {
  for (const [entity, records] of Object.entries(data)) {
    const refs = Object.entries(ast.entities[entity].fields).filter(([, def]) => def.type === 'ref');
    const idsOf = (target: string): Set<unknown> => new Set(data[target].map((r) => r.id));
    for (const record of records) {
      for (const [field, def] of refs) {
        if (record[field] === null || record[field] === undefined) continue;
        assert.ok(idsOf(def.entity!).has(record[field]), `${entity} ${String(record.id)}.${field} -> ${String(record[field])}`);
      }
    }
  }
}

describe('generateRecords', () => {
  it('is deterministic for a seed and differs between seeds', () => {
    const first = generateRecords(demoAst, 30, 7);
    assert.deepEqual(generateRecords(demoAst, 30, 7), first);
    assert.equal(JSON.stringify(generateRecords(demoAst, 30, 7)), JSON.stringify(first));
    assert.notDeepEqual(generateRecords(demoAst, 30, 8), first);
    assert.deepEqual(generateRecords(libraryAst, 10), generateRecords(libraryAst, 10, 1));
  });

  it('gives N records per entity with ids 1..N', () => {
    const data = generateRecords(libraryAst, 12);
    assert.deepEqual(Object.keys(data), ['author', 'book', 'loan']);
    for (const records of Object.values(data)) assert.deepEqual(records.map((r) => r.id), Array.from({ length: 12 }, (_, i) => i + 1));
    assert.deepEqual(generateRecords(libraryAst, 0), { author: [], book: [], loan: [] });
  });

  it('produces only valid values for the demo AST', () => {
    const data = generateRecords(demoAst, 60, 3);
    assertAllValid(demoAst, data);
    assertRefsExist(demoAst, data);
  });

  it('respects the limits of every field type in another app', () => {
    const data = generateRecords(libraryAst, 40, 5);
    assertAllValid(libraryAst, data);
    assertRefsExist(libraryAst, data);
    for (const book of data.book) {
      assert.match(book.isbn as string, /^97[89][0-9]{10}$/);
      assert.ok((book.pages as number) >= 5000 && (book.pages as number) <= 5010);
      assert.match(book.price as string, /^0\.(5[0-9]{2}|6[0-9]{2}|7[0-4][0-9]|750)$/);
      assert.ok([...(book.shelf_code as string)].length >= 20);
    }
    for (const loan of data.loan) assert.match(loan.fee as string, /^-[123]$/);
    const emails = data.loan.map((l) => l.borrower_email);
    assert.equal(new Set(emails).size, emails.length);
  });

  it('uses field names for plausible values', () => {
    const [person] = generateRecords(demoAst, 1).person;
    const company = generateRecords(demoAst, 1).company[0];
    const fold = (s: string): string => s.toLowerCase().replace(/ä/g, 'ae').replace(/ö/g, 'oe').replace(/ü/g, 'ue').replace(/ß/g, 'ss');
    assert.match(person.email as string, new RegExp(`^${fold(person.firstname as string)}\\.${fold(person.lastname as string)}`.replace(/-/g, '.')));
    assert.match(company.website as string, /^https:\/\/www\.[a-z0-9-]+\.example$/);
    assert.match(company.country as string, /^(DE|AT|CH|GB|US)$/);
  });
});

describe('demo data (media/demo/crm.data.json)', () => {
  const data = JSON.parse(readFileSync(DEMO_DATA_URL, 'utf8')) as Records;
  const companies = new Map(data.company.map((c) => [c.id, c]));
  const people = new Map(data.person.map((p) => [p.id, p]));

  it('is what the generator writes now', () => {
    assert.equal(readFileSync(DEMO_DATA_URL, 'utf8'), formatDemoData(buildDemoData(demoAst)));
  });

  it('has 40 companies, 240 people and 320 deals with ids 1..N', () => {
    assert.deepEqual(Object.keys(data), ['company', 'person', 'deal']);
    assert.deepEqual([data.company.length, data.person.length, data.deal.length], [40, 240, 320]);
    assert.deepEqual(data.person.map((p) => p.id), Array.from({ length: 240 }, (_, i) => i + 1));
  });

  it('holds only valid values', () => {
    assertAllValid(demoAst, data);
    assertRefsExist(demoAst, data);
  });

  it('starts with Max Mustermann', () => {
    const max = people.get(1)!;
    assert.deepEqual([max.firstname, max.lastname, max.city], ['Max', 'Mustermann', 'Berlin']);
    assert.equal(companies.get(max.company)!.country, 'DE');
  });

  it('places every person at an existing company and every company has people', () => {
    for (const person of data.person) assert.ok(companies.has(person.company), `person ${String(person.id)}`);
    assert.equal(new Set(data.person.map((p) => p.company)).size, 40);
  });

  it('gives each deal a contact who works at the deal company', () => {
    for (const deal of data.deal) {
      assert.equal(people.get(deal.contact)!.company, deal.company, `deal ${String(deal.id)}`);
    }
  });

  it('keeps stage, probability and dates consistent', () => {
    for (const deal of data.deal) {
      if (deal.stage === 'won') assert.equal(deal.probability, 100);
      if (deal.stage === 'lost') assert.equal(deal.probability, 0);
      assert.ok((deal.created_at as string).slice(0, 10) < (deal.close_date as string), `deal ${String(deal.id)}`);
    }
    assert.deepEqual(new Set(data.deal.map((d) => d.stage)), new Set(['new', 'qualified', 'proposal', 'negotiation', 'won', 'lost']));
  });

  it('has ages that match the birthdays on 2026-01-01', () => {
    for (const person of data.person) {
      const [y, m, d] = (person.birthday as string).split('-').map(Number);
      const hadBirthday = m === 1 && d === 1;
      assert.equal(person.age, 2026 - y - (hadBirthday ? 0 : 1), `person ${String(person.id)} born ${String(person.birthday)}`);
    }
  });

  it('has unique ASCII emails at the company domain', () => {
    const emails = data.person.map((p) => p.email as string);
    assert.equal(new Set(emails).size, 240);
    for (const person of data.person) {
      const domain = (companies.get(person.company)!.website as string).replace('https://www.', '');
      assert.match(person.email as string, /^[a-z0-9.-]+@[a-z0-9.-]+$/);
      assert.ok((person.email as string).endsWith(`@${domain}`), `${String(person.email)} at ${domain}`);
    }
  });

  it('uses German postcodes that belong to their city', () => {
    const prefixes: Record<string, string> = { Berlin: '1', München: '8', Hamburg: '2', Köln: '5', Leipzig: '04', Dresden: '01', Hannover: '30' };
    for (const record of [...data.company, ...data.person]) {
      const prefix = prefixes[record.city as string];
      if (prefix) assert.ok((record.zip as string).startsWith(prefix), `${String(record.city)} ${String(record.zip)}`);
    }
  });
});

/** Just enough of a database for seeding: counts and bulk inserts, remembered per table. */
class MemoryStorage implements Storage {
  readonly kind = 'sqlite' as const;
  readonly description = 'memory';
  readonly tables = new Map<string, Row[]>();
  readonly inserts: string[] = [];

  async rights(): Promise<Map<string, TableRights>> { return new Map(); }
  async sortHint(): Promise<{ indexed: boolean; rows: number }> { return { indexed: true, rows: 0 }; }

  async aggregate(): Promise<never> {
    throw new Error('seeding does not aggregate');
  }

  async count(table: string, _where?: Condition): Promise<number> {
    return this.tables.get(table)?.length ?? 0;
  }
  async insertMany(batches: readonly InsertBatch[], options: InsertManyOptions = {}): Promise<boolean> {
    if (options.onlyIntoEmptyTables && batches.some(({ table }) => (this.tables.get(table)?.length ?? 0) > 0)) return false;
    for (const { table, rows } of batches) {
      this.inserts.push(table);
      this.tables.set(table, [...(this.tables.get(table) ?? []), ...rows.map((r) => ({ ...r, version: 1 }))]);
    }
    return true;
  }
  async migrate(_model: Model): Promise<MigrationReport> { return { createdTables: [], addedColumns: [], createdIndexes: [], createdSearchIndexes: [], audit: { kept: true } }; }
  async select(_spec: SelectSpec): Promise<Row[]> { throw new Error('not used by seeding'); }
  async keys(_spec: SelectSpec): Promise<ListKey[]> { throw new Error('not used by seeding'); }
  async insert(_table: string, _values: Row): Promise<Row> { throw new Error('not used by seeding'); }
  async update(_t: string, _id: number, _v: number, _set: Row): Promise<WriteResult> { throw new Error('not used by seeding'); }
  async delete(_t: string, _id: number, _v: number): Promise<DeleteResult> { throw new Error('not used by seeding'); }
  async updateMany(): Promise<BatchWriteResult> { throw new Error('not used by seeding'); }
  async recordAudit(): Promise<AuditEntry> { throw new Error('not used by seeding'); }
  async auditEntries(): Promise<AuditEntry[]> { throw new Error('not used by seeding'); }
  async auditCount(): Promise<number> { throw new Error('not used by seeding'); }
  async ping(): Promise<number> { return 0; }
  async close(): Promise<void> {}
}

describe('seedStorage', () => {
  const model = buildModel(demoAst);
  const small = (): Records => ({
    deal: [{ title: 'Lizenzverlängerung 2027', amount: 1200, stage: 'won', company: 2, contact: 5 }],
    person: [
      { id: 5, firstname: 'Jürgen', lastname: 'Groß', company: 2, birthday: '1970-03-01' },
      { firstname: 'Anna', lastname: 'Weber', age: 30 },
    ],
    company: [{ id: 2, name: 'Nordlicht Software GmbH', revenue: '10.5' }],
  });

  it('inserts referenced tables first, maps ref fields to columns and fills ids', async () => {
    const storage = new MemoryStorage();
    assert.deepEqual(await seedStorage(storage, model, demoAst, small()), { company: 1, person: 2, deal: 1 });
    assert.deepEqual(storage.inserts, ['company', 'person', 'deal']);
    const [jurgen, anna] = storage.tables.get('person')!;
    assert.deepEqual(jurgen, {
      id: 5, firstname: 'Jürgen', lastname: 'Groß', email: null, phone: null, street: null, zip: null, city: null,
      age: null, net_worth: null, status: null, birthday: '1970-03-01', active: null, notes: null, website: null,
      last_contact: null, company_id: 2, version: 1,
    });
    assert.equal(anna.id, 6);
    assert.equal(anna.company_id, null);
    assert.equal('company' in anna, false);
    const [deal] = storage.tables.get('deal')!;
    assert.deepEqual([deal.id, deal.amount, deal.company_id, deal.contact_id], [1, '1200.00', 2, 5]);
    assert.equal(storage.tables.get('company')![0].revenue, '10.50');
  });

  it('seeds a table of 300,000 records with their ids (the next free id is found without spreading them)', async () => {
    const storage = new MemoryStorage();
    const companies = Array.from({ length: 300_000 }, (_, i) => ({ id: i + 1, name: `Firma ${i + 1}` }));
    companies.push({ name: 'Ohne Nummer' } as (typeof companies)[number]);
    assert.deepEqual(await seedStorage(storage, model, demoAst, { company: companies }), { company: 300_001 });
    assert.equal(storage.tables.get('company')!.at(-1)!.id, 300_001);
  });

  it('writes nothing when one record is invalid', async () => {
    const storage = new MemoryStorage();
    const data = small();
    data.deal.push({ title: 'Cloud migration phase 2', amount: 10, stage: 'won', probability: 200 });
    await assert.rejects(seedStorage(storage, model, demoAst, data), (error: unknown) => {
      assert.ok(error instanceof FieldValueError);
      assert.equal(error.message, 'deal[1].probability: must be at most 100 (got 200)');
      assert.deepEqual([error.entity, error.recordIndex, error.field], ['deal', 1, 'probability']);
      return true;
    });
    assert.deepEqual(storage.inserts, []);
  });

  it('names missing required fields, unknown fields, repeated ids and dangling refs', async () => {
    const cases: Array<[(d: Records) => void, string]> = [
      [(d) => delete d.person[1].lastname, 'person[1].lastname: is required'],
      [(d) => (d.person[0].ctiy = 'Berlin'),
        'person[0].ctiy: is not a field of person; use one of id, firstname, lastname, email, phone, street, zip, city, age, net_worth, status, birthday, active, notes, website, last_contact, company'],
      [(d) => (d.person[1].id = 5), 'person[1].id: repeats the id 5 of person[0]; ids must be unique'],
      [(d) => (d.deal[0].contact = 99), 'deal[0].contact: refers to person 99, which is not in the data'],
    ];
    for (const [change, message] of cases) {
      const storage = new MemoryStorage();
      const data = small();
      change(data);
      await assert.rejects(seedStorage(storage, model, demoAst, data), { name: 'FieldValueError', message });
      assert.deepEqual(storage.inserts, []);
    }
    await assert.rejects(seedStorage(new MemoryStorage(), model, demoAst, { invoice: [] }), {
      message: 'data: unknown entity "invoice"; entities are company, person, deal',
    });
  });

  it('seeds only empty tables', async () => {
    const storage = new MemoryStorage();
    const existing = { id: 1, name: 'Bestand GmbH', version: 3 };
    storage.tables.set('company', [existing]);
    assert.deepEqual(await seedStorage(storage, model, demoAst, small()), { company: 0, person: 2, deal: 1 });
    assert.deepEqual(storage.tables.get('company'), [existing]);
    assert.deepEqual(storage.inserts, ['person', 'deal']);
    assert.deepEqual(await seedStorage(storage, model, demoAst, small()), { company: 0, person: 0, deal: 0 });
    assert.deepEqual(storage.inserts, ['person', 'deal']);
  });

  it('loads the whole demo data', async () => {
    const storage = new MemoryStorage();
    const data = JSON.parse(readFileSync(DEMO_DATA_URL, 'utf8')) as Records;
    assert.deepEqual(await seedStorage(storage, model, demoAst, data), { company: 40, person: 240, deal: 320 });
    assert.equal(storage.tables.get('deal')![319].contact_id, data.deal[319].contact);
  });
});
