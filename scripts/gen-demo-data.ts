// Writes media/demo/crm.data.json: the demo CRM's companies, people and deals.
// Deterministic, so the committed file only changes when this script does.
//   node_modules/.bin/node scripts/gen-demo-data.ts
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AstSchema } from '../src/ast/schema.ts';
import type { Ast } from '../src/ast/schema.ts';
import { buildModel } from '../src/backend/model.ts';
import type { Random } from '../src/backend/seed/generate.ts';
import {
  REFERENCE_DATE, ageOn, companyDomain, companyName, createRandom, dayMs, firstNames, formatUnits, hashString,
  isoDateOf, landlinePhone, lastNames, mobilePhone, placesIn, randomDate, randomDateTime, slugify, streetAddress,
} from '../src/backend/seed/generate.ts';
import { prepareSeedRows } from '../src/backend/seed/seed.ts';
import type { CountryCode, Language, Place } from '../src/backend/seed/words.ts';
import { COUNTRY_LANGUAGE, NOTES, PLACES } from '../src/backend/seed/words.ts';

export const DEMO_AST_URL = new URL('../media/demo/crm.json', import.meta.url);
export const DEMO_DATA_URL = new URL('../media/demo/crm.data.json', import.meta.url);

export const COMPANY_COUNT = 40;
export const PERSON_COUNT = 240;
export const DEAL_COUNT = 320;

type DemoRecord = Record<string, string | number | boolean>;
export type DemoData = {
  company: DemoRecord[];
  person: DemoRecord[];
  deal: DemoRecord[];
};

interface Company {
  readonly id: number;
  readonly name: string;
  readonly domain: string;
  readonly place: Place;
  readonly employees: number;
  readonly record: DemoRecord;
}

interface Person {
  readonly id: number;
  readonly company: Company;
  readonly record: DemoRecord;
}

const INDUSTRIES = ['software', 'manufacturing', 'retail', 'finance', 'health', 'logistics', 'energy', 'media'];

export function loadDemoAst(): Ast {
  return AstSchema.parse(JSON.parse(readFileSync(DEMO_AST_URL, 'utf8')));
}

const placeOf = (city: string): Place => PLACES.find((p) => p.city === city)!;

function shuffle<T>(rng: Random, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

/** A city of the country, the larger ones (listed first) more often. */
function cityIn(rng: Random, country: CountryCode): Place {
  return weighted(rng, placesIn(country).map((place, rank) => [place, Math.max(1, 4 - rank)] as const));
}

/** Cents as an exact 2-digit decimal string. */
const money = (cents: number): string => formatUnits(Math.round(cents), 2);

/** Roughly log-uniform between 10^lo and 10^hi. */
const logUniform = (rng: Random, lo: number, hi: number): number => 10 ** (lo + rng.next() * (hi - lo));

// ---------------------------------------------------------------- companies

/** Hand-picked first companies, so the demo opens with familiar names. */
const FIXED_COMPANIES: ReadonlyArray<{ name: string; industry: string; city: string; street: string; zip: string }> = [
  { name: 'Nordlicht Software GmbH', industry: 'software', city: 'Berlin', street: 'Friedrichstraße 68', zip: '10117' },
  { name: 'Müller & Söhne GmbH', industry: 'manufacturing', city: 'Stuttgart', street: 'Königstraße 21', zip: '70173' },
  { name: 'Brightwater Analytics Ltd', industry: 'software', city: 'London', street: '42 Baker Street', zip: 'W1D 3QF' },
];

function buildCompanies(rng: Random): Company[] {
  const countries: CountryCode[] = shuffle(rng, [
    ...Array<CountryCode>(23).fill('DE'), ...Array<CountryCode>(3).fill('AT'), ...Array<CountryCode>(3).fill('CH'),
    ...Array<CountryCode>(5).fill('GB'), ...Array<CountryCode>(3).fill('US'),
  ]);
  const names = new Set<string>();
  const domains = new Set<string>();
  const companies: Company[] = [];
  for (let id = 1; id <= COMPANY_COUNT; id++) {
    const fixed = FIXED_COMPANIES[id - 1];
    let place: Place, industry: string, name: string, street: string, zip: string;
    if (fixed) {
      ({ name, industry, street, zip } = fixed);
      place = placeOf(fixed.city);
    } else {
      place = cityIn(rng, countries[id - 1 - FIXED_COMPANIES.length]);
      industry = rng.pick(INDUSTRIES);
      do name = companyName(rng, place.country, industry);
      while (names.has(name) || domains.has(companyDomain(name, place.country)));
      street = streetAddress(rng, place.country);
      zip = rng.pick(place.zips);
    }
    const domain = companyDomain(name, place.country);
    names.add(name);
    domains.add(domain);
    const employees = Math.round(logUniform(rng, 0.8, 4.4));
    const family = / & (Söhne|Sons)|KG$/.test(name);
    companies.push({
      id, name, domain, place, employees,
      record: {
        id,
        name,
        industry,
        website: `https://www.${domain}`,
        phone: landlinePhone(rng, place),
        street,
        zip,
        city: place.city,
        country: place.country,
        employee_count: employees,
        revenue: money(employees * rng.int(60_000, 260_000) * 100 + rng.int(0, 99)),
        founded: family ? randomDate(rng, '1889-01-01', '1965-12-31') : randomDate(rng, '1968-01-01', '2021-12-31'),
      },
    });
  }
  return companies;
}

// ---------------------------------------------------------------- people

const STATUS_WEIGHTS: ReadonlyArray<readonly [string, number]> = [['customer', 40], ['prospect', 25], ['lead', 25], ['inactive', 10]];

function weighted<T>(rng: Random, options: ReadonlyArray<readonly [T, number]>): T {
  let roll = rng.next() * options.reduce((sum, [, w]) => sum + w, 0);
  for (const [value, weight] of options) {
    roll -= weight;
    if (roll < 0) return value;
  }
  return options[options.length - 1][0];
}

function netWorth(rng: Random): string {
  const roll = rng.next();
  if (roll < 0.05) return money(rng.int(1_000_000, 25_000_000) * 100);
  if (roll < 0.08) return money(-rng.int(500, 50_000) * 100 - rng.int(0, 99));
  return money(Math.round(logUniform(rng, 3.7, 5.95)) * 100 + rng.int(0, 99));
}

const MAX_MUSTERMANN: DemoRecord = {
  firstname: 'Max',
  lastname: 'Mustermann',
  email: 'max.mustermann@nordlicht-software.example',
  phone: '+49 171 2345678',
  street: 'Lindenstraße 14',
  zip: '10115',
  city: 'Berlin',
  age: ageOn('1985-04-12', REFERENCE_DATE),
  net_worth: '125000.00',
  status: 'customer',
  birthday: '1985-04-12',
  active: true,
  notes: 'Ansprechpartner für die Lizenzverlängerung, bevorzugt Kontakt per E-Mail.',
  last_contact: '2025-11-18T09:30:00.000Z',
};

function buildPeople(rng: Random, companies: readonly Company[]): Person[] {
  const emails = new Set<string>();
  const fullNames = new Set<string>();
  const weights = companies.map((c) => [c, c.employees ** 0.3] as const);
  const people: Person[] = [];
  for (let id = 1; id <= PERSON_COUNT; id++) {
    // the first people cover every company once, so each has someone to talk to
    const company = id <= companies.length ? companies[id - 1] : weighted(rng, weights);
    const home = COUNTRY_LANGUAGE[company.place.country];
    const language: Language = rng.chance(0.9) ? home : home === 'de' ? 'en' : 'de';
    const place = rng.chance(0.65) ? company.place : cityIn(rng, company.place.country);
    let firstname: string, lastname: string;
    do {
      firstname = rng.pick(firstNames(language));
      lastname = rng.pick(lastNames(language));
    } while (fullNames.has(`${firstname} ${lastname}`));
    const birthday = randomDate(rng, '1956-01-01', '2003-12-31');
    const status = weighted(rng, STATUS_WEIGHTS);
    const generated: DemoRecord = {
      firstname,
      lastname,
      email: `${slugify(firstname)}.${slugify(lastname)}@${company.domain}`,
      phone: rng.chance(0.65) ? mobilePhone(rng, place) : landlinePhone(rng, company.place),
      street: streetAddress(rng, place.country),
      zip: rng.pick(place.zips),
      city: place.city,
      age: ageOn(birthday, REFERENCE_DATE),
      net_worth: netWorth(rng),
      status,
      birthday,
      active: status !== 'inactive' && rng.chance(0.92),
      last_contact: randomDateTime(rng, '2025-01-02', '2026-01-20'),
    };
    if (rng.chance(0.35)) generated.notes = rng.pick(NOTES[language]);
    if (rng.chance(0.06)) generated.website = `https://www.${slugify(`${firstname} ${lastname}`)}.example`;
    const record: DemoRecord = { id, ...(id === 1 ? MAX_MUSTERMANN : generated), company: company.id };
    let email = record.email as string;
    for (let n = 2; emails.has(email); n++) email = (record.email as string).replace('@', `${n}@`);
    record.email = email;
    emails.add(email);
    fullNames.add(`${record.firstname} ${record.lastname}`);
    people.push({ id, company, record });
  }
  return people;
}

// ---------------------------------------------------------------- deals

const GERMAN_PRODUCTS = ['CRM-System', 'Zeiterfassung', 'Dokumentenmanagement', 'Kundenportal', 'E-Rechnung', 'Lagerverwaltung'];
const GERMAN_TOPICS = ['Datenschutz', 'Vertriebsprozesse', 'Administratoren', 'Berichtswesen'];
const ENGLISH_PRODUCTS = ['Customer portal', 'E-invoicing', 'Time tracking', 'Document management', 'Warehouse management'];
const ENGLISH_TOPICS = ['data protection', 'sales teams', 'administrators', 'reporting'];

function dealTitle(rng: Random, company: Company): string {
  const year = rng.int(2026, 2027);
  const city = company.place.city;
  if (COUNTRY_LANGUAGE[company.place.country] === 'de') {
    return rng.pick([
      () => `Lizenzverlängerung ${year}`,
      () => `Wartungsvertrag Standort ${city}`,
      () => `Rahmenvertrag ${year}`,
      () => `Einführung ${rng.pick(GERMAN_PRODUCTS)}`,
      () => `Erweiterung um ${rng.int(1, 40) * 5} Arbeitsplätze`,
      () => `Schulung ${rng.pick(GERMAN_TOPICS)}`,
      () => `Cloud-Migration Phase ${rng.int(1, 3)}`,
      () => `Support-Verlängerung ${year}`,
      () => `Pilotprojekt ${rng.pick(['KI-Assistent', 'Lagerautomatisierung', 'Kundenportal'])} ${city}`,
    ])();
  }
  return rng.pick([
    () => `Cloud migration phase ${rng.int(1, 3)}`,
    () => `Licence renewal ${year}`,
    () => `Support contract ${year}`,
    () => `Onboarding ${rng.int(1, 40) * 5} additional seats`,
    () => `Data platform pilot`,
    () => `Security audit ${year}`,
    () => `Framework agreement ${year}-${year + 2}`,
    () => `Training programme for ${rng.pick(ENGLISH_TOPICS)}`,
    () => `${rng.pick(ENGLISH_PRODUCTS)} roll-out ${city}`,
  ])();
}

const STAGE_WEIGHTS: ReadonlyArray<readonly [string, number]> = [
  ['new', 15], ['qualified', 20], ['proposal', 20], ['negotiation', 15], ['won', 20], ['lost', 10],
];

const PROBABILITY_RANGE: Readonly<Record<string, readonly [number, number]>> = {
  new: [5, 15], qualified: [20, 35], proposal: [40, 60], negotiation: [65, 85], won: [100, 100], lost: [0, 0],
};

function buildDeals(rng: Random, companies: readonly Company[], people: readonly Person[]): DemoRecord[] {
  const staffOf = new Map<number, Person[]>();
  for (const person of people) {
    const list = staffOf.get(person.company.id) ?? [];
    list.push(person);
    staffOf.set(person.company.id, list);
  }
  const weights = companies.map((c) => [c, 1 + c.employees ** 0.25] as const);
  const deals: DemoRecord[] = [];
  for (let id = 1; id <= DEAL_COUNT; id++) {
    const company = weighted(rng, weights);
    const contact = rng.pick(staffOf.get(company.id)!);
    const stage = weighted(rng, STAGE_WEIGHTS);
    const [pLo, pHi] = PROBABILITY_RANGE[stage];
    const closed = stage === 'won' || stage === 'lost';
    // closed deals lie in the past; open ones close after the reference date
    const createdAt = closed ? randomDateTime(rng, '2024-06-03', '2025-09-30') : randomDateTime(rng, '2025-03-03', '2025-12-19');
    const createdDay = createdAt.slice(0, 10);
    const closeDate = closed
      ? isoDateOf(dayMs(createdDay) + rng.int(14, 90) * 86_400_000)
      : randomDate(rng, '2026-01-05', '2026-09-30');
    const amount = Math.round(logUniform(rng, 3.3, 5.5) / 10) * 1000 + (rng.chance(0.2) ? rng.pick([50, 90, 99]) : 0);
    deals.push({
      id,
      title: dealTitle(rng, company),
      amount: money(amount),
      stage,
      probability: rng.int(pLo, pHi),
      close_date: closeDate,
      created_at: createdAt,
      company: company.id,
      contact: contact.id,
    });
  }
  return deals;
}

// ---------------------------------------------------------------- output

/** Keys in the AST's field order, so the file reads like the schema. */
function inFieldOrder(ast: Ast, entity: string, record: DemoRecord): DemoRecord {
  const ordered: DemoRecord = {};
  for (const field of Object.keys(ast.entities[entity].fields)) {
    if (record[field] !== undefined) ordered[field] = record[field];
  }
  return ordered;
}

export function buildDemoData(ast: Ast = loadDemoAst()): DemoData {
  const rng = createRandom(hashString('xos-crm-demo'));
  const companies = buildCompanies(rng);
  const people = buildPeople(rng, companies);
  const deals = buildDeals(rng, companies, people);
  const data: DemoData = {
    company: companies.map((c) => inFieldOrder(ast, 'company', c.record)),
    person: people.map((p) => inFieldOrder(ast, 'person', p.record)),
    deal: deals.map((d) => inFieldOrder(ast, 'deal', d)),
  };
  prepareSeedRows(buildModel(ast), ast, data); // throws on any value the backend would refuse
  return data;
}

/** One record per line: small diffs, still valid JSON. */
export function formatDemoData(data: DemoData): string {
  const sections = Object.entries(data).map(
    ([entity, records]) => `  ${JSON.stringify(entity)}: [\n${records.map((r: DemoRecord) => `    ${JSON.stringify(r)}`).join(',\n')}\n  ]`,
  );
  return `{\n${sections.join(',\n')}\n}\n`;
}

if (import.meta.main) {
  const data = buildDemoData();
  writeFileSync(DEMO_DATA_URL, formatDemoData(data));
  console.log(`wrote ${fileURLToPath(DEMO_DATA_URL)}: ${data.company.length} companies, ${data.person.length} people, ${data.deal.length} deals`);
}
