// Plausible, deterministic records for any AST, built from field types and,
// where a field name says more (firstname, email, zip, …), from that name.
// Same AST, count and seed give byte-identical output: no clock, no Math.random.
import type { Ast, EntityDef, FieldDef } from '../../ast/schema.ts';
import { ID_COLUMN } from '../model.ts';
import { coerceFieldValue, FieldValueError, numberToDecimalString } from '../../ast/values.ts';
import type { CountryCode, Language, Place } from './words.ts';
import {
  COUNTRY_LANGUAGE, ENGLISH_BRAND_WORDS, ENGLISH_FIRST_NAMES, ENGLISH_LAST_NAMES, EXAMPLE_DOMAINS,
  GERMAN_BRAND_WORDS, GERMAN_FIRST_NAMES, GERMAN_LAST_NAMES, INDUSTRY_WORDS, LOREM_SENTENCES, NOTES, PLACES,
  PROJECT_TITLES, STREETS_BY_COUNTRY, TITLE_ADJECTIVES, TITLE_NOUNS,
} from './words.ts';
import { fieldType } from '../../ast/fieldTypes.ts';

/** Ages and "recent" dates are computed against this day, so output never depends on the clock. */
export const REFERENCE_DATE = '2026-01-01';

// ---------------------------------------------------------------- randomness

export interface Random {
  /** uniform in [0, 1) */
  next(): number;
  /** integer in [lo, hi], both included */
  int(lo: number, hi: number): number;
  pick<T>(items: readonly T[]): T;
  chance(probability: number): boolean;
}

/** mulberry32: tiny, fast, and good enough for demo data. */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (items) => items[Math.floor(next() * items.length)],
    chance: (probability) => next() < probability,
  };
}

/** FNV-1a, to derive independent streams per entity from one seed. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

// ---------------------------------------------------------------- text helpers

const GERMAN_FOLDS: Readonly<Record<string, string>> = { ä: 'ae', ö: 'oe', ü: 'ue', Ä: 'Ae', Ö: 'Oe', Ü: 'Ue', ß: 'ss' };

/** "Jürgen Groß" -> "Juergen Gross"; other accents lose their marks (é -> e). */
export function asciiFold(text: string): string {
  return text
    .replace(/[äöüÄÖÜß]/g, (ch) => GERMAN_FOLDS[ch])
    .normalize('NFD')
    .replace(/\p{M}/gu, '');
}

/** "Müller & Söhne" -> "mueller-soehne" */
export function slugify(text: string): string {
  return asciiFold(text).toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
}

/** 12345 units of 10^-2 -> "123.45" */
export function formatUnits(units: number, digits: number): string {
  if (digits === 0) return String(units);
  const negative = units < 0;
  const text = String(Math.abs(units)).padStart(digits + 1, '0');
  return `${negative ? '-' : ''}${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

const DAY_MS = 86_400_000;

export function dayMs(isoDate: string): number {
  return Date.parse(`${isoDate}T00:00:00.000Z`);
}

export function isoDateOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** A random day in [from, to], both `YYYY-MM-DD`. */
export function randomDate(rng: Random, from: string, to: string): string {
  return isoDateOf(dayMs(from) + rng.int(0, Math.round((dayMs(to) - dayMs(from)) / DAY_MS)) * DAY_MS);
}

/** A random instant on a working day between 07:00 and 19:00 UTC, in whole seconds. */
export function randomDateTime(rng: Random, from: string, to: string): string {
  const day = randomDate(rng, from, to);
  return new Date(dayMs(day) + rng.int(7 * 3600, 19 * 3600 - 1) * 1000).toISOString();
}

/** Full years of someone born on `birthday` at `on` (both `YYYY-MM-DD`). */
export function ageOn(birthday: string, on: string): number {
  const years = Number(on.slice(0, 4)) - Number(birthday.slice(0, 4));
  return on.slice(5) < birthday.slice(5) ? years - 1 : years;
}

// ---------------------------------------------------------------- people and places

export interface Persona {
  readonly language: Language;
  readonly firstname: string;
  readonly lastname: string;
  readonly place: Place;
  readonly zip: string;
  readonly street: string;
  readonly birthday: string;
}

export function placesIn(country: CountryCode): readonly Place[] {
  return PLACES.filter((p) => p.country === country);
}

/** Mostly Germany, some Austria, Switzerland, UK and US. */
export function randomCountry(rng: Random): CountryCode {
  const roll = rng.next();
  if (roll < 0.55) return 'DE';
  if (roll < 0.62) return 'AT';
  if (roll < 0.69) return 'CH';
  if (roll < 0.9) return 'GB';
  return 'US';
}

export function firstNames(language: Language): readonly string[] {
  return language === 'de' ? GERMAN_FIRST_NAMES : ENGLISH_FIRST_NAMES;
}

export function lastNames(language: Language): readonly string[] {
  return language === 'de' ? GERMAN_LAST_NAMES : ENGLISH_LAST_NAMES;
}

export function streetAddress(rng: Random, country: CountryCode): string {
  const street = rng.pick(STREETS_BY_COUNTRY[country]);
  if (country === 'US') return `${rng.int(1, 99) * 10} ${street}`;
  if (country === 'GB') return `${rng.int(1, 140)} ${street}`;
  return `${street} ${rng.int(1, 120)}${rng.chance(0.08) ? 'a' : ''}`;
}

export function randomPersona(rng: Random, place: Place = rng.pick(placesIn(randomCountry(rng)))): Persona {
  const language = COUNTRY_LANGUAGE[place.country];
  return {
    language,
    firstname: rng.pick(firstNames(language)),
    lastname: rng.pick(lastNames(language)),
    place,
    zip: rng.pick(place.zips),
    street: streetAddress(rng, place.country),
    birthday: randomDate(rng, '1951-01-01', '2004-12-31'),
  };
}

const digits = (rng: Random, count: number): string =>
  Array.from({ length: count }, () => String(rng.int(0, 9))).join('');

/** A landline number of the place, in international form; UK and US use their ranges reserved for fiction. */
export function landlinePhone(rng: Random, place: Place): string {
  switch (place.country) {
    case 'GB':
      return place.dialCode === '+44 20' ? `+44 20 7946 0${digits(rng, 3)}` : `${place.dialCode} 496 0${digits(rng, 3)}`;
    case 'US':
      return `${place.dialCode} 555 01${digits(rng, 2)}`;
    case 'CH':
      return `${place.dialCode} ${rng.int(200, 999)} ${digits(rng, 2)} ${digits(rng, 2)}`;
    default:
      return `${place.dialCode} ${rng.int(2, 9)}${digits(rng, place.dialCode.length > 6 ? 5 : 6)}`;
  }
}

export function mobilePhone(rng: Random, place: Place): string {
  switch (place.country) {
    case 'DE':
      return `+49 ${rng.pick(['151', '152', '157', '160', '162', '170', '171', '172', '175', '176', '177', '179'])} ${rng.int(1, 9)}${digits(rng, 6)}`;
    case 'AT':
      return `+43 ${rng.pick(['664', '676', '650', '699'])} ${rng.int(1, 9)}${digits(rng, 6)}`;
    case 'CH':
      return `+41 ${rng.pick(['76', '78', '79'])} ${rng.int(100, 999)} ${digits(rng, 2)} ${digits(rng, 2)}`;
    case 'GB':
      return `+44 7700 900${digits(rng, 3)}`;
    case 'US':
      return `${place.dialCode} 555 01${digits(rng, 2)}`;
  }
}

// ---------------------------------------------------------------- companies

const LEGAL_FORMS = /\s*(GmbH & Co\. KG|GmbH|AG|KG|Ltd|plc|Inc\.|LLC)$/;

/** "Nordlicht Software GmbH" in DE -> "nordlicht-software.de" */
/**
 * A company's domain under the reserved `.example` TLD (RFC 2606): realistic to
 * read, but a demo mail can never reach a real company.
 */
export function companyDomain(name: string, _country: CountryCode): string {
  return `${slugify(name.replace(LEGAL_FORMS, '').replace(/&/g, ' '))}.example`;
}

export function companyName(rng: Random, country: CountryCode, industry: string = rng.pick(Object.keys(INDUSTRY_WORDS.de))): string {
  const language = COUNTRY_LANGUAGE[country];
  const word = rng.pick(INDUSTRY_WORDS[language][industry] ?? INDUSTRY_WORDS[language].software);
  const last = rng.pick(lastNames(language));
  if (language === 'en') {
    const brand = rng.pick(ENGLISH_BRAND_WORDS);
    if (country === 'US') return rng.chance(0.6) ? `${brand} ${word} Inc.` : `${last} ${word} LLC`;
    const roll = rng.next();
    if (roll < 0.55) return `${brand} ${word} Ltd`;
    if (roll < 0.75) return `${last} & Sons Ltd`;
    if (roll < 0.9) return `${last} ${word} Ltd`;
    return `${brand} Group plc`;
  }
  const brand = rng.pick(GERMAN_BRAND_WORDS);
  if (country === 'CH') return rng.chance(0.5) ? `${brand} ${word} AG` : `${last} ${word} GmbH`;
  const roll = rng.next();
  if (roll < 0.4) return `${brand} ${word} GmbH`;
  if (roll < 0.55) return `${last} & Söhne GmbH`;
  if (roll < 0.7) return `${last} ${word} GmbH`;
  if (country === 'AT') return `${brand} ${word} GmbH`;
  if (roll < 0.8) return `${last} & ${rng.pick(lastNames(language))} KG`;
  if (roll < 0.9) return `${brand} ${word} AG`;
  return `${last} ${word} GmbH & Co. KG`;
}

// ---------------------------------------------------------------- generic records

const PERSON_ENTITIES = /^(person|people|author|user|member|contact|employee|customer|client|student|teacher|patient|borrower|reader|staff)s?$/;
const ORGANISATION_ENTITIES = /^(company|companies|organi[sz]ation|firm|supplier|vendor|publisher|manufacturer|partner|account)s?$/;
const WORK_ENTITIES = /^(book|novel|article|film|movie|album|song|publication|title|track|episode)s?$/;

/** `first_name`, `firstName` and `firstname` all read as "firstname". */
const normalise = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]/g, '');

interface EntityTraits {
  readonly person: boolean;
  readonly organisation: boolean;
  readonly work: boolean;
}

function traitsOf(entityName: string, entity: EntityDef): EntityTraits {
  const fieldNames = Object.keys(entity.fields).map(normalise);
  const name = normalise(entityName);
  return {
    person: PERSON_ENTITIES.test(name) || fieldNames.includes('firstname') || fieldNames.includes('lastname'),
    organisation: ORGANISATION_ENTITIES.test(name),
    work: WORK_ENTITIES.test(name),
  };
}

/** What one record is "about", so its fields agree with each other (email matches name, zip matches city). */
interface RecordContext {
  readonly index: number;
  readonly count: number;
  readonly rng: Random;
  readonly traits: EntityTraits;
  readonly persona: Persona;
  readonly organisationName: string;
  readonly taken: Map<string, Set<string>>;
}

function domainOf(ctx: RecordContext): string {
  if (ctx.traits.organisation) return companyDomain(ctx.organisationName, ctx.persona.place.country);
  return EXAMPLE_DOMAINS[ctx.index % EXAMPLE_DOMAINS.length];
}

/** Makes a value unique per field by numbering repeats (`max.mustermann2@…`). */
function unique(ctx: RecordContext, field: string, value: string, number: (base: string, n: number) => string): string {
  let seen = ctx.taken.get(field);
  if (!seen) ctx.taken.set(field, (seen = new Set()));
  let candidate = value;
  for (let n = 2; seen.has(candidate); n++) candidate = number(value, n);
  seen.add(candidate);
  return candidate;
}

function isbn13(rng: Random): string {
  const body = `978${rng.int(0, 1)}${digits(rng, 8)}`;
  const sum = [...body].reduce((acc, d, i) => acc + Number(d) * (i % 2 === 0 ? 1 : 3), 0);
  return `${body}${(10 - (sum % 10)) % 10}`;
}

function integerIn(rng: Random, def: FieldDef, lo: number, hi: number): number {
  let from = Math.max(lo, def.min ?? lo);
  let to = Math.min(hi, def.max ?? hi);
  if (from > to) {
    from = def.min ?? (def.max ?? 0) - 1000;
    to = def.max ?? from + 1000;
  }
  from = Math.max(Math.ceil(from), -2147483648);
  to = Math.min(Math.floor(to), 2147483647);
  return rng.int(from, to);
}

function decimalIn(rng: Random, def: FieldDef, lo: number, hi: number): string {
  let from = Math.max(lo, def.min ?? lo);
  let to = Math.min(hi, def.max ?? hi);
  if (from > to) {
    from = def.min ?? (def.max ?? 0) - 1000;
    to = def.max ?? from + 1000;
  }
  // Generate at most 4 fraction digits so the unit count stays a safe integer; coercion pads to the scale.
  const fractionDigits = Math.min(def.scale ?? 2, 4);
  const units = 10 ** fractionDigits;
  const first = Math.ceil(Math.max(from, -1e9) * units);
  const last = Math.floor(Math.min(to, 1e9) * units);
  if (first > last) return numberToDecimalString(from);
  return formatUnits(rng.int(first, last), fractionDigits);
}

/** Pads or cuts a text to the field's length limits. */
function fitLength(text: string, def: FieldDef): string {
  let chars = [...text];
  if (def.min !== undefined && chars.length < def.min) {
    const filler = [...` ${text || 'x'}`];
    while (chars.length < def.min) chars = chars.concat(filler);
  }
  if (def.max !== undefined && chars.length > def.max) chars = chars.slice(0, Math.max(def.max, 0));
  if (chars.length > 0 && chars[chars.length - 1] === ' ') chars[chars.length - 1] = '.';
  return chars.join('');
}

/** A value chosen for what the field name says, or undefined when the name says nothing. */
function valueByName(name: string, def: FieldDef, ctx: RecordContext): unknown {
  const { rng, persona, traits } = ctx;
  const key = normalise(name);
  const place = persona.place;
  switch (key) {
    case 'firstname': case 'givenname': case 'forename': case 'vorname':
      return persona.firstname;
    case 'lastname': case 'surname': case 'familyname': case 'nachname':
      return persona.lastname;
    case 'fullname':
      return `${persona.firstname} ${persona.lastname}`;
    case 'name':
      if (traits.organisation) return ctx.organisationName;
      if (traits.person) return `${persona.firstname} ${persona.lastname}`;
      return `${rng.pick(TITLE_ADJECTIVES)} ${rng.pick(TITLE_NOUNS)}`;
    case 'title':
      if (traits.work) return `The ${rng.pick(TITLE_ADJECTIVES)} ${rng.pick(TITLE_NOUNS)}`;
      if (traits.person) return undefined;
      return `${rng.pick(PROJECT_TITLES[persona.language])} ${rng.int(2025, 2027)}`;
    case 'email': case 'mail': case 'emailaddress': {
      const local = traits.organisation
        ? rng.pick(['info', 'kontakt', 'office', 'sales'])
        : slugify(`${persona.firstname}.${persona.lastname}`).replace(/-/g, '.');
      const domain = domainOf(ctx);
      return unique(ctx, name, `${local}@${domain}`, (base, n) => base.replace('@', `${n}@`));
    }
    case 'phone': case 'telephone': case 'tel': case 'phonenumber': case 'telefon':
      return traits.person ? mobilePhone(rng, place) : landlinePhone(rng, place);
    case 'mobile': case 'mobilephone': case 'cell': case 'handy':
      return mobilePhone(rng, place);
    case 'fax':
      return landlinePhone(rng, place);
    case 'street': case 'address': case 'streetaddress': case 'address1': case 'addressline1': case 'strasse':
      return persona.street;
    case 'zip': case 'zipcode': case 'postcode': case 'postalcode': case 'plz':
      return persona.zip;
    case 'city': case 'town': case 'ort':
      return place.city;
    case 'country': case 'countrycode': case 'land':
      return place.country;
    case 'website': case 'homepage': case 'url': case 'web':
      if (traits.organisation) return `https://www.${domainOf(ctx)}`;
      if (def.required || rng.chance(0.3)) return `https://www.${slugify(`${persona.firstname} ${persona.lastname}`)}.example`;
      return null;
    case 'notes': case 'note': case 'description': case 'comment': case 'comments': case 'remarks': case 'bio': case 'summary': case 'notizen':
      if (!def.required && rng.chance(0.4)) return null;
      return def.type === 'text' || def.type === 'string' ? rng.pick(NOTES[persona.language]) : undefined;
    case 'isbn':
      return isbn13(rng);
    case 'age':
      return ageOn(persona.birthday, REFERENCE_DATE);
    case 'birthday': case 'birthdate': case 'dateofbirth': case 'dob': case 'born': case 'geburtstag':
      return def.type === 'date' ? persona.birthday : undefined;
    case 'year': case 'publishedyear': case 'yearpublished': case 'publicationyear':
      return def.type === 'int' ? integerIn(rng, def, 1950, 2025) : undefined;
    case 'pages': case 'pagecount':
      return def.type === 'int' ? integerIn(rng, def, 80, 900) : undefined;
    case 'quantity': case 'copies': case 'stock': case 'count':
      return def.type === 'int' ? integerIn(rng, def, 1, 50) : undefined;
    case 'rating': case 'stars':
      return def.type === 'int' ? integerIn(rng, def, 1, 5) : undefined;
    case 'probability': case 'percent': case 'percentage':
      return def.type === 'int' ? integerIn(rng, def, 0, 100) : undefined;
    case 'price': case 'cost': case 'fee':
      return def.type === 'decimal' ? decimalIn(rng, def, 5, 250) : undefined;
    case 'amount': case 'total': case 'revenue': case 'salary': case 'networth':
      return def.type === 'decimal' ? decimalIn(rng, def, 1000, 500000) : undefined;
    default:
      return undefined;
  }
}

/** A value from the type alone, valid for the field's limits. */
function valueByType(def: FieldDef, ctx: RecordContext): unknown {
  const { rng, persona } = ctx;
  switch (def.type) {
    case 'id':
      return ctx.index;
    case 'ref':
      return rng.int(1, ctx.count);
    case 'string':
      return fitLength(`${rng.pick(TITLE_ADJECTIVES)} ${rng.pick(TITLE_NOUNS)}`, def);
    case 'text':
      return fitLength(`${rng.pick(LOREM_SENTENCES)} ${rng.pick(LOREM_SENTENCES)}`, def);
    case 'email':
      return `${slugify(`${persona.firstname}.${persona.lastname}`).replace(/-/g, '.')}${ctx.index}@${EXAMPLE_DOMAINS[0]}`;
    case 'phone':
      return landlinePhone(rng, persona.place);
    case 'url':
      return `https://${EXAMPLE_DOMAINS[1]}/${ctx.index}`;
    case 'int':
      return integerIn(rng, def, 0, 1000);
    case 'decimal':
      return decimalIn(rng, def, 0, 10000);
    case 'bool':
      return rng.chance(0.6);
    case 'date':
      return randomDate(rng, '2015-01-01', '2025-12-31');
    case 'datetime':
      return randomDateTime(rng, '2025-01-01', '2025-12-31');
    case 'enum':
      return rng.pick(def.values ?? []);
    default:
      // A type without its own case here: its row's sample (fieldTypes.ts).
      return fieldType(def.type).sample?.(rng) ?? null;
  }
}

function generateValue(entityName: string, fieldName: string, def: FieldDef, ctx: RecordContext): unknown {
  const byName = valueByName(fieldName, def, ctx);
  if (byName !== undefined) {
    try {
      return coerceFieldValue(entityName, fieldName, def, byName);
    } catch (error) {
      if (!(error instanceof FieldValueError)) throw error;
      // the name-based guess does not fit this field's limits: fall back to its type
    }
  }
  try {
    return coerceFieldValue(entityName, fieldName, def, valueByType(def, ctx));
  } catch (error) {
    if (error instanceof FieldValueError && !def.required) return null;
    throw error;
  }
}

/**
 * `countPerEntity` records per entity in the AST `data` format: field names as keys,
 * ids 1..N, refs as the id of a record of the target entity.
 */
export function generateRecords(ast: Ast, countPerEntity: number, seed = 1): Record<string, Record<string, unknown>[]> {
  const result: Record<string, Record<string, unknown>[]> = {};
  for (const [entityName, entity] of Object.entries(ast.entities)) {
    const rng = createRandom(hashString(`${seed}/${entityName}`));
    const traits = traitsOf(entityName, entity);
    const taken = new Map<string, Set<string>>();
    const records: Record<string, unknown>[] = [];
    for (let index = 1; index <= countPerEntity; index++) {
      const persona = randomPersona(rng);
      const organisationName = companyName(rng, persona.place.country);
      const ctx: RecordContext = { index, count: countPerEntity, rng, traits, persona, organisationName, taken };
      // every table has the `id` column, whatever the AST calls its id field
      const record: Record<string, unknown> = { [ID_COLUMN]: index };
      for (const [fieldName, def] of Object.entries(entity.fields)) {
        if (def.type !== 'id') record[fieldName] = generateValue(entityName, fieldName, def, ctx);
      }
      records.push(record);
    }
    result[entityName] = records;
  }
  return result;
}
