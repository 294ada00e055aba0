// Validation of an XOS AST (DESIGN §3): the zod shape plus every cross-reference,
// all reported at once so an author can fix a file in one pass. The semantic
// checks read the raw value defensively, so they still run when the shape is off.
import type { z } from 'zod';
import { displayTemplateFields } from './display.ts';
import { fieldType as fieldTypeRow, isFieldType } from './fieldTypes.ts';
import { AstSchema, FIELD_TYPES } from './schema.ts';
import type { Ast, FieldType } from './schema.ts';

export interface AstProblem {
  path: string;
  message: string;
  line?: number;
  column?: number;
}

export type PathSegment = string | number;

/** A problem that still knows its path as segments, so a loader can find it in the source. */
export interface LocatedProblem {
  readonly segments: readonly PathSegment[];
  readonly message: string;
}

export type AstValidation = { ok: true; ast: Ast } | { ok: false; problems: AstProblem[] };

const SIMPLE_KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const GRAPHQL_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const LOCALE_TAG = /^[a-z]{2,3}(-[A-Z][a-z]{3})?(-(?:[A-Z]{2}|[0-9]{3}))?$/;
const FILTER_OPERATORS = ['_and', '_or', '_not'];
const RESERVED_ENUM_VALUES = ['true', 'false', 'null'];
/** Fields a person's name can be stored in (a role's own-records filter). */
const TEXT_TYPES: readonly FieldType[] = ['string', 'text', 'email', 'phone', 'url'];
const MIN_MAX_TYPES: readonly FieldType[] = ['int', 'decimal', 'string', 'text', 'email', 'phone', 'url'];

/** `contexts.person_list.list_fields[3]`; keys that are not plain names are quoted: `a["x y"]`. */
export function formatPath(segments: readonly PathSegment[]): string {
  let out = '';
  for (const segment of segments) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (SIMPLE_KEY.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

export function formatProblem(problem: AstProblem): string {
  const where = problem.line === undefined ? '' : ` (line ${problem.line}, column ${problem.column ?? 1})`;
  return `${problem.path === '' ? '' : `${problem.path}: `}${problem.message}${where}`;
}

export function validateAst(value: unknown): AstValidation {
  const result = checkAst(value);
  if (result.ast) return { ok: true, ast: result.ast };
  return { ok: false, problems: result.problems.map((p) => ({ path: formatPath(p.segments), message: p.message })) };
}

/** Every problem of `value`; `ast` is set only when there are none. */
export function checkAst(value: unknown): { ast?: Ast; problems: LocatedProblem[] } {
  const parsed = AstSchema.safeParse(value);
  const problems = parsed.success ? [] : shapeProblems(value, parsed.error.issues);
  if (isRecord(value)) problems.push(...new SemanticCheck(value).run());
  if (problems.length === 0 && parsed.success) return { ast: parsed.data, problems };
  return { problems };
}

// ---------------------------------------------------------------- shape (zod)

function shapeProblems(root: unknown, issues: readonly z.core.$ZodIssue[]): LocatedProblem[] {
  const out: LocatedProblem[] = [];
  for (const issue of issues) {
    const segments = issue.path.map((s) => (typeof s === 'number' ? s : String(s)));
    const actual = valueAt(root, segments);
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) out.push({ segments: [...segments, key], message: `unknown property "${key}": remove it or check its spelling` });
    } else if (actual === undefined && segments.length > 0) {
      out.push({ segments, message: `required property "${String(segments[segments.length - 1])}" is missing` });
    } else if (issue.code === 'invalid_union') {
      out.push(...textShapeProblems(segments, actual));
    } else {
      out.push({ segments, message: shapeMessage(issue, actual) });
    }
  }
  return out;
}

// The only unions in the schema are localized texts: a string or a locale -> string map.
function textShapeProblems(segments: PathSegment[], actual: unknown): LocatedProblem[] {
  if (!isRecord(actual)) return [{ segments, message: `expected a text or a map from locale to text, got ${describe(actual)}` }];
  return Object.entries(actual)
    .filter(([, text]) => typeof text !== 'string')
    .map(([locale, text]) => ({ segments: [...segments, locale], message: `expected a text, got ${describe(text)}` }));
}

function shapeMessage(issue: z.core.$ZodIssue, actual: unknown): string {
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${EXPECTED[issue.expected] ?? issue.expected}, got ${describe(actual)}`;
    case 'invalid_value':
      return issue.values.length === 1
        ? `expected ${JSON.stringify(issue.values[0])}, got ${describe(actual)}`
        : `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}, got ${describe(actual)}`;
    case 'too_small':
      if (issue.origin === 'array' || issue.origin === 'string') return 'must not be empty';
      return `must be at least ${String(issue.minimum)}`;
    case 'too_big':
      return `must be at most ${String(issue.maximum)}`;
    default:
      return issue.message;
  }
}

const EXPECTED: Record<string, string> = {
  record: 'an object', object: 'an object', array: 'a list', string: 'a text', number: 'a number',
  int: 'a whole number', boolean: 'true or false',
};

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value;
}

function valueAt(root: unknown, segments: readonly PathSegment[]): unknown {
  let current = root;
  for (const segment of segments) {
    if (Array.isArray(current) && typeof segment === 'number') current = current[segment];
    else if (isRecord(current) && typeof segment === 'string' && Object.hasOwn(current, segment)) current = current[segment];
    else return undefined;
  }
  return current;
}

// ---------------------------------------------------------------- semantics

type Raw = Record<string, unknown>;

interface RefInfo {
  readonly entity: string;
  readonly field: string;
  readonly target: string;
}

class SemanticCheck {
  private readonly problems: LocatedProblem[] = [];
  private readonly root: Raw;
  private readonly locales: string[] | undefined;
  /** entities whose fields are not readable: nothing is known to be missing on them */
  private readonly opaque = new Set<string>();
  /** entity -> field -> raw definition */
  private readonly entities = new Map<string, Map<string, Raw>>();
  /** target entity -> inverse name -> the ref that declares it */
  private readonly inverses = new Map<string, Map<string, RefInfo>>();
  private readonly contextNames: string[];

  constructor(root: Raw) {
    this.root = root;
    // Without a usable locale list every text would look wrong; that list's own problem is enough.
    this.locales = Array.isArray(root.locales) ? uniqueStrings(root.locales) : undefined;
    for (const [name, entity] of entries(root.entities)) {
      const fields = new Map<string, Raw>();
      if (!isRecord(entity) || !isRecord(entity.fields)) this.opaque.add(name);
      // A missing id is reported once; everything else may still rely on it.
      fields.set('id', { type: 'id' });
      for (const [fieldName, def] of entries(isRecord(entity) ? entity.fields : undefined)) {
        if (isRecord(def)) fields.set(fieldName, def);
      }
      this.entities.set(name, fields);
    }
    this.contextNames = entries(root.contexts).map(([name]) => name);
  }

  run(): LocatedProblem[] {
    this.checkLocales();
    this.checkText(this.root.label, ['label']);
    items(this.root.prompts).forEach((prompt, i) => this.checkText(prompt, ['prompts', i]));
    for (const [name, entity] of entries(this.root.entities)) this.checkEntity(name, entity);
    this.checkInverses();
    for (const [name, context] of entries(this.root.contexts)) this.checkContext(name, context);
    this.checkGraphqlNames();
    this.checkData();
    for (const [name, role] of entries(this.root.roles)) this.checkRole(name, role);
    return this.problems;
  }

  private add(segments: readonly PathSegment[], message: string): void {
    this.problems.push({ segments, message });
  }

  private checkName(name: string, segments: readonly PathSegment[], what: string): boolean {
    if (!GRAPHQL_NAME.test(name)) {
      this.add(segments, `invalid ${what} name "${name}": use letters, digits and _ only, not starting with a digit`);
      return false;
    }
    if (name.startsWith('__')) {
      this.add(segments, `invalid ${what} name "${name}": names starting with "__" are reserved by GraphQL`);
      return false;
    }
    if ((what === 'entity' || what === 'context') && /^xos/i.test(name)) {
      this.add(segments, `invalid ${what} name "${name}": names starting with "xos" are reserved for XOS's own tables and API (the audit trail): rename it`);
      return false;
    }
    return true;
  }

  private checkLocales(): void {
    const seen = new Set<string>();
    items(this.root.locales).forEach((locale, i) => {
      if (typeof locale !== 'string') return;
      if (!LOCALE_TAG.test(locale)) this.add(['locales', i], `invalid locale "${locale}": use a language tag like "en", "de" or "de-AT"`);
      else if (seen.has(locale)) this.add(['locales', i], `duplicate locale "${locale}"`);
      seen.add(locale);
    });
  }

  /** A localized map must have a text for every locale and nothing else. */
  private checkText(text: unknown, segments: readonly PathSegment[]): void {
    if (!isRecord(text) || this.locales === undefined) return;
    for (const locale of this.locales) {
      if (!Object.hasOwn(text, locale)) this.add(segments, `missing locale "${locale}"`);
    }
    for (const key of Object.keys(text)) {
      if (!this.locales.includes(key)) this.add([...segments, key], `unknown locale "${key}"`);
    }
  }

  private checkEntity(name: string, entity: unknown): void {
    const at = ['entities', name];
    this.checkName(name, at, 'entity');
    if (!isRecord(entity)) return;
    this.checkText(entity.label, [...at, 'label']);
    this.checkText(entity.description, [...at, 'description']);
    if (!isRecord(entity.fields)) return;
    if (!Object.hasOwn(entity.fields, 'id')) this.add([...at, 'fields'], 'missing field "id": add "id": { "type": "id" }');
    const fields = this.entities.get(name)!;
    for (const [fieldName, def] of Object.entries(entity.fields)) {
      const fieldAt = [...at, 'fields', fieldName];
      this.checkFieldName(fieldName, fieldAt, fields);
      if (isRecord(def)) this.checkField(fieldName, def, fieldAt);
    }
    this.checkMapping(entity, at);
    this.checkDisplay(entity.display, [...at, 'display'], fields);
  }

  /** `display` names fields of the entity that read as text, `{a} {b}`. */
  private checkDisplay(display: unknown, at: readonly PathSegment[], fields: ReadonlyMap<string, Raw>): void {
    if (display === undefined) return;
    const names = typeof display === 'string' ? displayTemplateFields(display) : undefined;
    if (names === undefined) {
      this.add(at, `invalid display ${JSON.stringify(display)}: write the fields that name a record in braces, one space between them, like "{first_name} {last_name}"`);
      return;
    }
    for (const name of names) {
      const type = fields.get(name)?.type;
      if (type === undefined) this.add(at, `unknown field "${name}" in display`);
      else if (typeof type !== 'string' || !isFieldType(type) || !fieldTypeRow(type).display) this.add(at, `field "${name}" (${String(type)}) cannot name a record: use text, enum, number or date fields`);
    }
  }

  /** `table`/`column` name the person's own table: columns only there, each column once. */
  private checkMapping(entity: Raw, at: readonly PathSegment[]): void {
    const mapped = typeof entity.table === 'string';
    const id = isRecord(entity.fields) && isRecord(entity.fields.id) ? entity.fields.id : undefined;
    if (id && Object.hasOwn(id, 'columns')) {
      const at2 = [...at, 'fields', 'id', 'columns'];
      if (!mapped || typeof entity.read_only !== 'string') this.add(at2, '"columns" keys a read-only entity over a table with a composite key: add "table" and "read_only", or name one "column"');
      else if (Object.hasOwn(id, 'column')) this.add(at2, 'give the key either as "column" or as "columns", not both');
      else if (id.key !== 'text') this.add(at2, 'a composite key is read as text: add "key": "text" to the id');
    }
    for (const [fieldName, def] of entries(entity.fields)) {
      if (fieldName !== 'id' && isRecord(def) && Object.hasOwn(def, 'columns')) this.add([...at, 'fields', fieldName, 'columns'], '"columns" is only for the id');
    }
    if (!mapped && Object.hasOwn(entity, 'schema')) this.add([...at, 'schema'], '"schema" goes with "table": add the table\'s name or remove "schema"');
    const columns = new Map<string, string>();
    for (const [fieldName, def] of entries(entity.fields)) {
      if (!mapped && isRecord(def) && Object.hasOwn(def, 'column_values')) {
        this.add([...at, 'fields', fieldName, 'column_values'], '"column_values" spells values as the entity\'s own table holds them: add "table" to the entity or remove "column_values"');
      }
    }
    for (const [fieldName, def] of entries(entity.fields)) {
      if (!isRecord(def) || typeof def.column !== 'string') continue;
      const fieldAt = [...at, 'fields', fieldName, 'column'];
      if (!mapped) {
        this.add(fieldAt, '"column" names a column of the entity\'s own table: add "table" to the entity or remove "column"');
        continue;
      }
      const other = columns.get(def.column);
      if (other !== undefined) this.add(fieldAt, `the column "${def.column}" is already the field "${other}": map each column to one field`);
      columns.set(def.column, fieldName);
    }
  }

  private isReadOnlyEntity(entity: string | undefined): boolean {
    if (entity === undefined) return false;
    const raw = entries(this.root.entities).find(([name]) => name === entity)?.[1];
    return isRecord(raw) && typeof raw.read_only === 'string';
  }

  private isMappedEntity(entity: string): boolean {
    const raw = entries(this.root.entities).find(([name]) => name === entity)?.[1];
    return isRecord(raw) && typeof raw.table === 'string';
  }

  private checkFieldName(name: string, at: readonly PathSegment[], fields: Map<string, Raw>): void {
    if (!this.checkName(name, at, 'field')) return;
    if (name === 'version') this.add(at, '"version" is reserved for the implicit optimistic-concurrency field: rename the field');
    if (FILTER_OPERATORS.includes(name)) this.add(at, `"${name}" is reserved for filter operators: rename the field`);
    const refName = name.endsWith('_id') ? name.slice(0, -3) : undefined;
    if (refName !== undefined && fields.get(refName)?.type === 'ref') {
      this.add(at, `"${name}" clashes with the column of the ref field "${refName}": rename one of them`);
    }
  }

  private checkField(name: string, def: Raw, at: readonly PathSegment[]): void {
    const type = fieldType(def);
    this.checkText(def.label, [...at, 'label']);
    this.checkText(def.description, [...at, 'description']);
    if (name === 'id' && type !== undefined && type !== 'id') this.add([...at, 'type'], 'the field "id" must have type "id"');
    if (name !== 'id' && type === 'id') this.add([...at, 'type'], 'only the field "id" may have type "id": use "ref" to point at another entity');
    if (name === 'id' && Object.hasOwn(def, 'agent')) this.add([...at, 'agent'], 'the agent names records by their id, so "id" cannot be hidden or masked: remove "agent"');
    if (type === undefined) return;
    this.checkRefField(type, def, at);
    this.checkKey(type, def, at);
    this.checkEnumField(type, def, at);
    this.checkBounds(type, def, at);
  }

  /** `key` on an id says how records are keyed; on a ref it must say the same as the target's id. */
  private checkKey(type: FieldType, def: Raw, at: readonly PathSegment[]): void {
    if (!Object.hasOwn(def, 'key')) {
      if (type !== 'ref' || typeof def.entity !== 'string') return;
    } else if (type !== 'id' && type !== 'ref') {
      this.add([...at, 'key'], '"key" is only allowed on the id and on ref fields');
      return;
    }
    if (type !== 'ref' || typeof def.entity !== 'string' || !this.entities.has(def.entity)) return;
    const target = this.entities.get(def.entity)!.get('id')?.key ?? 'int';
    const own = def.key ?? 'int';
    if (target !== own) this.add([...at, 'key'], `${def.entity} is keyed by ${String(target)}: ${target === 'int' ? 'remove "key"' : `add "key": "${String(target)}"`}`);
  }

  private checkRefField(type: FieldType, def: Raw, at: readonly PathSegment[]): void {
    if (type !== 'ref') {
      for (const key of ['entity', 'inverse']) {
        if (Object.hasOwn(def, key)) this.add([...at, key], `"${key}" is only allowed on ref fields`);
      }
      return;
    }
    if (def.entity === undefined) this.add(at, 'a ref field needs "entity": the name of the entity it points at');
    else if (typeof def.entity === 'string' && !this.entities.has(def.entity)) {
      this.add([...at, 'entity'], `unknown entity "${def.entity}"; known: ${this.knownEntities()}`);
    }
    if (typeof def.inverse === 'string') this.checkName(def.inverse, [...at, 'inverse'], 'inverse');
  }

  private checkEnumField(type: FieldType, def: Raw, at: readonly PathSegment[]): void {
    if (type !== 'enum') {
      for (const key of ['values', 'value_labels', 'column_values']) {
        if (Object.hasOwn(def, key)) this.add([...at, key], `"${key}" is only allowed on enum fields`);
      }
      return;
    }
    if (def.values === undefined) this.add(at, 'an enum field needs "values": the list of allowed values');
    else if (Array.isArray(def.values) && def.values.length === 0) this.add([...at, 'values'], 'an enum field needs at least one value');
    const seen = new Set<string>();
    items(def.values).forEach((value, i) => {
      if (typeof value !== 'string') return;
      const valueAt = [...at, 'values', i];
      if (seen.has(value)) this.add(valueAt, `duplicate value "${value}"`);
      else if (RESERVED_ENUM_VALUES.includes(value)) this.add(valueAt, `"${value}" cannot be an enum value in GraphQL: rename it`);
      else this.checkName(value, valueAt, 'enum value');
      seen.add(value);
    });
    for (const [key, label] of entries(def.value_labels)) {
      const labelAt = [...at, 'value_labels', key];
      if (Array.isArray(def.values) && !seen.has(key)) this.add(labelAt, `"${key}" is not one of the values: use a value from "values" as the key`);
      this.checkText(label, labelAt);
    }
    // The database's spelling of each value: one value per spelling, both ways.
    const stored = new Map(items(def.values).filter((v): v is string => typeof v === 'string').map((v) => [v, v]));
    for (const [key, spelling] of entries(def.column_values)) {
      if (Array.isArray(def.values) && !seen.has(key)) this.add([...at, 'column_values', key], `"${key}" is not one of the values: use a value from "values" as the key`);
      else if (typeof spelling === 'string') stored.set(key, spelling);
    }
    const byStored = new Map<string, string>();
    for (const [value, spelling] of stored) {
      const other = byStored.get(spelling);
      if (other !== undefined) this.add([...at, 'column_values'], `the values "${other}" and "${value}" would both be stored as "${spelling}": give each value its own spelling`);
      byStored.set(spelling, value);
    }
  }

  private checkBounds(type: FieldType, def: Raw, at: readonly PathSegment[]): void {
    if (!MIN_MAX_TYPES.includes(type)) {
      for (const key of ['min', 'max']) {
        if (Object.hasOwn(def, key)) this.add([...at, key], `"${key}" is only allowed on int, decimal, string, text, email, phone and url fields`);
      }
    } else if (typeof def.min === 'number' && typeof def.max === 'number' && def.min > def.max) {
      this.add([...at, 'min'], `min (${def.min}) must not be greater than max (${def.max})`);
    }
    if (type !== 'decimal' && Object.hasOwn(def, 'scale')) this.add([...at, 'scale'], '"scale" is only allowed on decimal fields');
  }

  /** Inverse lists become fields of the target entity, so they must not clash there. */
  private checkInverses(): void {
    for (const [entity, fields] of this.entities) {
      for (const [field, def] of fields) {
        if (def.type !== 'ref' || typeof def.entity !== 'string' || typeof def.inverse !== 'string') continue;
        const target = def.entity;
        const inverse = def.inverse;
        const targetFields = this.entities.get(target);
        if (!targetFields) continue;
        const at = ['entities', entity, 'fields', field, 'inverse'];
        let declared = this.inverses.get(target);
        if (!declared) this.inverses.set(target, (declared = new Map()));
        const earlier = declared.get(inverse);
        if (targetFields.has(inverse)) this.add(at, `inverse "${inverse}" clashes with the field "${inverse}" of ${target}: choose another name`);
        else if (inverse === 'version') this.add(at, `inverse "version" clashes with the implicit field "version" of ${target}: choose another name`);
        else if (earlier) this.add(at, `inverse "${inverse}" on ${target} is already declared by ${earlier.entity}.${earlier.field}: choose another name`);
        else declared.set(inverse, { entity, field, target });
      }
    }
  }

  private checkContext(name: string, context: unknown): void {
    const at = ['contexts', name];
    this.checkName(name, at, 'context');
    if (!isRecord(context)) return;
    this.checkText(context.label, [...at, 'label']);
    items(context.prompts).forEach((prompt, i) => this.checkText(prompt, [...at, 'prompts', i]));
    let entity = typeof context.entity === 'string' ? context.entity : undefined;
    if (entity !== undefined && !this.entities.has(entity)) {
      this.add([...at, 'entity'], `unknown entity "${entity}"; known: ${this.knownEntities()}`);
      entity = undefined;
    }
    const listFields = Array.isArray(context.list_fields) ? context.list_fields : undefined;
    this.checkListFields(entity, listFields, [...at, 'list_fields']);
    if (context.kind === 'detail' && listFields && !listFields.includes('id')) {
      this.add([...at, 'list_fields'], 'a detail context must include "id" in list_fields');
    }
    this.checkEditable(entity, context.editable, [...at, 'editable']);
    if (this.isReadOnlyEntity(entity)) {
      for (const key of ['editable', 'create', 'delete'] as const) {
        const set = key === 'editable' ? items(context.editable).length > 0 : context[key] === true;
        if (set) this.add([...at, key], `${entity} can only be read (its "read_only" says why): remove "${key}"`);
      }
    }
    for (const action of ['create', 'delete'] as const) {
      if (context[action] === true && context.kind !== 'detail') {
        this.add([...at, action], `only a detail context can ${action} records: move "${action}" to a detail context of ${entity ?? 'the entity'}`);
      }
    }
    if (context.create === true && context.kind === 'detail' && entity !== undefined) {
      const editable = new Set(items(context.editable).filter((f): f is string => typeof f === 'string'));
      const missing = [...(this.entities.get(entity) ?? new Map<string, Raw>())]
        .filter(([field, def]) => def.required === true && def.type !== 'id' && !editable.has(field)).map(([field]) => field);
      if (missing.length) this.add([...at, 'create'], `a new ${entity} needs its required fields ${missing.join(', ')}: add them to editable`);
    }
    this.checkLayout(context, listFields, [...at, 'layout']);
    for (const [key, navigate] of entries(context.navigate)) {
      this.checkNavigate(entity, context.kind, listFields, key, navigate, [...at, 'navigate', key]);
    }
  }

  /** Every field a layout names is one of the context's list_fields, placed at most once; sections are for forms, columns for lists. */
  private checkLayout(context: Raw, listFields: unknown[] | undefined, at: readonly PathSegment[]): void {
    if (!isRecord(context.layout)) return;
    const shown = new Set((listFields ?? []).filter((f): f is string => typeof f === 'string'));
    const known = (field: unknown, where: readonly PathSegment[]) => {
      if (typeof field === 'string' && listFields && !shown.has(field)) this.add(where, `"${field}" is not in this context's list_fields`);
    };
    const layout = context.layout;
    if (layout.sections !== undefined && context.kind !== 'detail') this.add([...at, 'sections'], 'sections arrange a form: only a detail context has them');
    if (layout.columns !== undefined && context.kind !== 'list') this.add([...at, 'columns'], 'column widths are for a list: only a list context has them');
    const placed = new Set<string>();
    items(layout.sections).forEach((section, i) => {
      if (!isRecord(section)) return;
      this.checkText(section.label, [...at, 'sections', i, 'label']);
      items(section.fields).forEach((field, j) => {
        known(field, [...at, 'sections', i, 'fields', j]);
        if (typeof field !== 'string') return;
        if (placed.has(field)) this.add([...at, 'sections', i, 'fields', j], `"${field}" is already in a section`);
        placed.add(field);
      });
    });
    for (const [field] of entries(layout.columns)) known(field, [...at, 'columns', field]);
    for (const [field, widget] of entries(layout.widgets)) {
      known(field, [...at, 'widgets', field]);
      const type = typeof context.entity === 'string' ? this.entities.get(context.entity)?.get(field)?.type : undefined;
      if (!isRecord(widget) || type === undefined) continue;
      if (widget.kind === 'textarea' && type !== 'string' && type !== 'text') this.add([...at, 'widgets', field], `a text area is for text fields; ${field} is ${String(type)}`);
      if ((widget.kind === 'money' || widget.kind === 'percent') && type !== 'int' && type !== 'decimal') {
        this.add([...at, 'widgets', field], `${String(widget.kind)} is for int and decimal fields; ${field} is ${String(type)}`);
      }
    }
  }

  private checkListFields(entity: string | undefined, listFields: unknown[] | undefined, at: readonly PathSegment[]): void {
    const seen = new Set<string>();
    (listFields ?? []).forEach((field, i) => {
      if (typeof field !== 'string') return;
      if (seen.has(field)) this.add([...at, i], `duplicate field "${field}"`);
      else if (entity !== undefined && this.lacks(entity, field) && !this.inverse(entity, field)) {
        this.add([...at, i], `unknown field "${field}" on ${entity}`);
      }
      seen.add(field);
    });
  }

  private checkEditable(entity: string | undefined, editable: unknown, at: readonly PathSegment[]): void {
    const seen = new Set<string>();
    items(editable).forEach((field, i) => {
      if (typeof field !== 'string') return;
      const inverse = entity === undefined ? undefined : this.inverse(entity, field);
      if (seen.has(field)) this.add([...at, i], `duplicate field "${field}"`);
      else if (field === 'id') this.add([...at, i], '"id" cannot be editable: remove it from editable');
      else if (inverse) {
        this.add([...at, i], `"${field}" is an inverse list and cannot be edited: edit the ref field "${inverse.field}" of ${inverse.entity} instead`);
      } else if (entity !== undefined && this.lacks(entity, field)) this.add([...at, i], `unknown field "${field}" on ${entity}`);
      else if (entity !== undefined && this.entities.get(entity)?.get(field)?.read_only === true) {
        this.add([...at, i], `"${field}" is read-only (the database computes it): remove it from editable`);
      }
      seen.add(field);
    });
  }

  private checkNavigate(
    entity: string | undefined, kind: unknown, listFields: unknown[] | undefined,
    key: string, navigate: unknown, at: readonly PathSegment[],
  ): void {
    if (key === 'row') {
      if (kind === 'detail') this.add(at, '"row" is only allowed on list contexts: use a name from list_fields');
    } else if (listFields && !listFields.includes(key)) {
      this.add(at, `"${key}" is not in list_fields: a navigate key is ${kind === 'list' ? '"row" or ' : ''}a name from list_fields`);
    }
    if (!isRecord(navigate)) return;
    if (typeof navigate.context === 'string' && !this.contextNames.includes(navigate.context)) {
      this.add([...at, 'context'], `unknown context "${navigate.context}"; known: ${this.contextNames.join(', ')}`);
    }
    if (entity === undefined) return;
    for (const [param, path] of entries(navigate.params)) {
      if (typeof path !== 'string') continue;
      const failure = this.resolvePath(entity, path);
      if (failure) this.add([...at, 'params', param], `cannot resolve "${path}" on ${entity}: ${failure}`);
    }
  }

  /** `id`, `company.id` (ref, then a field of the target), `employees.id` (inverse list, then a field). */
  private resolvePath(entity: string, path: string): string | undefined {
    const parts = path.split('.');
    let current = entity;
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i];
      const last = i === parts.length - 1;
      const def = this.entities.get(current)!.get(part);
      const inverse = this.inverse(current, part);
      let next: string | undefined;
      if (def) {
        if (def.type === 'ref' && typeof def.entity === 'string' && this.entities.has(def.entity)) next = def.entity;
        else if (!last) return `"${part}" is not a ref or an inverse list, so nothing can follow it`;
        else return undefined;
      } else if (inverse) {
        next = inverse.entity;
      } else if (this.lacks(current, part)) {
        return `unknown field "${part}" on ${current}`;
      } else {
        return undefined;
      }
      if (last) return `"${part}" leads to ${next}: name one of its fields, e.g. "${[...parts, 'id'].join('.')}"`;
      current = next;
    }
    return undefined;
  }

  /** Names the generated GraphQL API (DESIGN §4) declares; two sources of one name clash. */
  private checkGraphqlNames(): void {
    const types = new NameSpace('type', (at, message) => this.add(at, message));
    const rootFields = new NameSpace('root field', (at, message) => this.add(at, message));
    for (const builtin of ['Query', 'Mutation', 'ID', 'Int', 'Float', 'String', 'Boolean']) types.declare(builtin, `the built-in type "${builtin}"`);
    for (const scalar of ['Decimal', 'Date', 'DateTime']) types.declare(scalar, `the XOS scalar "${scalar}"`);
    types.declare('order_by', 'the sort direction enum "order_by"');
    for (const scalar of ['ID', 'Int', 'String', 'Boolean', 'Decimal', 'Date', 'DateTime']) types.declare(`${scalar}_comparison_exp`, `the filter type "${scalar}_comparison_exp"`);
    for (const [entity, fields] of this.entities) {
      if (!GRAPHQL_NAME.test(entity)) continue;
      const at = ['entities', entity];
      const source = `entity "${entity}"`;
      for (const suffix of ['', '_bool_exp', '_order_by', '_insert_input', '_set_input']) types.declare(`${entity}${suffix}`, source, at);
      for (const [field, def] of fields) {
        if (def.type === 'enum' && GRAPHQL_NAME.test(field)) {
          types.declare(`${entity}_${field}`, `enum field "${entity}.${field}"`, [...at, 'fields', field]);
          types.declare(`${entity}_${field}_comparison_exp`, `enum field "${entity}.${field}"`, [...at, 'fields', field]);
        }
      }
    }
    for (const [name, context] of entries(this.root.contexts)) {
      if (!GRAPHQL_NAME.test(name) || !isRecord(context)) continue;
      const at = ['contexts', name];
      rootFields.declare(name, `context "${name}"`, at);
      if (context.kind === 'list') {
        rootFields.declare(`${name}_count`, `context "${name}"`, at);
        rootFields.declare(`${name}_cursors`, `context "${name}"`, at);
      }
    }
    for (const entity of this.entities.keys()) {
      if (!GRAPHQL_NAME.test(entity)) continue;
      for (const verb of ['insert', 'update', 'delete']) rootFields.declare(`${verb}_${entity}`, `entity "${entity}"`, ['entities', entity]);
      rootFields.declare(`update_${entity}_many`, `entity "${entity}"`, ['entities', entity]);
    }
  }

  private checkData(): void {
    const ids = new Map<string, Set<string>>();
    for (const [entity, records] of entries(this.root.data)) {
      const seen = new Set<string>();
      ids.set(entity, seen);
      items(records).forEach((record, i) => {
        if (!isRecord(record) || record.id === undefined || record.id === null) return;
        const id = String(record.id);
        if (seen.has(id)) this.add(['data', entity, i, 'id'], `duplicate id ${JSON.stringify(record.id)} in ${entity}`);
        seen.add(id);
      });
    }
    for (const [entity, records] of entries(this.root.data)) {
      const fields = this.entities.get(entity);
      if (!fields) {
        this.add(['data', entity], `unknown entity "${entity}"; known: ${this.knownEntities()}`);
        continue;
      }
      if (this.isMappedEntity(entity)) {
        this.add(['data', entity], `${entity} lives in the database's own table: XOS does not seed it; remove its data`);
        continue;
      }
      items(records).forEach((record, i) => {
        for (const [key, value] of entries(record)) {
          const def = fields.get(key);
          const at = ['data', entity, i, key];
          if (!def) {
            if (this.lacks(entity, key)) this.add(at, `unknown field "${key}" on ${entity}`);
          }
          else if (def.type === 'ref' && value !== null && typeof def.entity === 'string') {
            const targetIds = ids.get(def.entity);
            if (targetIds && !targetIds.has(String(value))) this.add(at, `no ${def.entity} with id ${JSON.stringify(value)} in data`);
          }
        }
      });
    }
  }

  /** A role names only contexts, entities and fields that exist; its own-records field is a readable text of the entity. */
  private checkRole(name: string, role: unknown): void {
    const at = ['roles', name];
    if (!isRecord(role)) return;
    this.checkText(role.label, [...at, 'label']);
    for (const [context] of entries(role.contexts)) {
      if (context !== '*' && !this.contextNames.includes(context)) {
        this.add([...at, 'contexts', context], `unknown context "${context}"; known: ${this.contextNames.join(', ')} (or "*" for every context not named)`);
      }
    }
    const fieldRights = isRecord(role.fields) ? role.fields : {};
    for (const [key, rights] of Object.entries(fieldRights)) {
      const fieldAt = [...at, 'fields', key];
      const [entity, field, ...more] = key.split('.');
      if (field === undefined || more.length > 0) this.add(fieldAt, `name the field as "entity.field", like "person.email"`);
      else if (!this.entities.has(entity)) this.add(fieldAt, `unknown entity "${entity}"; known: ${this.knownEntities()}`);
      else if (this.lacks(entity, field)) this.add(fieldAt, `unknown field "${field}" on ${entity}`);
      else if (field === 'id') this.add(fieldAt, 'the id names every record and is always shown: remove it');
      else if (Array.isArray(rights) && rights.includes('edit') && !rights.includes('read')) this.add(fieldAt, 'a field that can be edited must be readable too: use ["read", "edit"]');
    }
    for (const [entity, row] of entries(role.rows)) {
      const rowAt = [...at, 'rows', entity];
      if (!this.entities.has(entity)) {
        this.add(rowAt, `unknown entity "${entity}"; known: ${this.knownEntities()}`);
        continue;
      }
      if (!isRecord(row) || typeof row.field !== 'string') continue;
      const def = this.entities.get(entity)!.get(row.field);
      if (!def) {
        if (this.lacks(entity, row.field)) this.add([...rowAt, 'field'], `unknown field "${row.field}" on ${entity}`);
        continue;
      }
      if (!TEXT_TYPES.includes(def.type as FieldType)) {
        this.add([...rowAt, 'field'], `"${row.field}" is ${String(def.type)}: own records are found by the person's name, so use a text field (${TEXT_TYPES.join(', ')})`);
      }
      const rights = fieldRights[`${entity}.${row.field}`];
      if (Array.isArray(rights) && !rights.includes('read')) {
        this.add([...rowAt, 'field'], `"${entity}.${row.field}" holds whose record it is and must stay readable: give it ["read"] in fields`);
      }
    }
  }

  private lacks(entity: string, field: string): boolean {
    return !this.opaque.has(entity) && !this.entities.get(entity)!.has(field);
  }

  private inverse(entity: string, name: string): RefInfo | undefined {
    return this.inverses.get(entity)?.get(name);
  }

  private knownEntities(): string {
    return [...this.entities.keys()].join(', ');
  }
}

class NameSpace {
  private readonly sources = new Map<string, string>();
  private readonly kind: string;
  private readonly report: (at: readonly PathSegment[], message: string) => void;

  constructor(kind: string, report: (at: readonly PathSegment[], message: string) => void) {
    this.kind = kind;
    this.report = report;
  }

  declare(name: string, source: string, at?: readonly PathSegment[]): void {
    const earlier = this.sources.get(name);
    if (earlier === undefined) this.sources.set(name, source);
    else if (at) this.report(at, `the GraphQL ${this.kind} "${name}" of ${source} clashes with the one of ${earlier}: rename one of them`);
  }
}

function fieldType(def: Raw): FieldType | undefined {
  return (FIELD_TYPES as readonly unknown[]).includes(def.type) ? (def.type as FieldType) : undefined;
}

function isRecord(value: unknown): value is Raw {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function entries(value: unknown): [string, unknown][] {
  return isRecord(value) ? Object.entries(value) : [];
}

function items(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function uniqueStrings(value: unknown): string[] {
  return [...new Set(items(value).filter((v): v is string => typeof v === 'string'))];
}
