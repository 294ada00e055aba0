// What `xos-server init` reads of a database the person already has: its tables, views and
// columns in one neutral shape, so the mapping to an AST (toAst.ts) is one pure function for
// SQLite and PostgreSQL alike. Each reader fills it from its own catalog.

export type CatalogDialect = 'sqlite' | 'postgres';

export type RelationKind = 'table' | 'partitioned table' | 'view' | 'materialized view' | 'virtual table';

export interface CatalogColumn {
  readonly name: string;
  /** The type as the database shows it: `character varying(40)`, `NVARCHAR(40)`, `integer[]`, `order_status`. */
  readonly type: string;
  /**
   * The type's name for mapping, lower case, without length or precision, a domain resolved to
   * its base: `varchar`, `int4`, `timestamptz` (PostgreSQL's names), `nvarchar`, `unsigned big int`
   * (SQLite's declared names, as written). Empty when SQLite declares none.
   */
  readonly typeName: string;
  readonly notNull: boolean;
  /** The default as an expression of the database (`0`, `'open'::text`, `nextval('x_id_seq'::regclass)`). */
  readonly default?: string;
  /** PostgreSQL identity column: `always` (never written by a client) or `by default`. */
  readonly identity?: 'always' | 'by default';
  /** The database computes the value (a generated column). */
  readonly generated?: boolean;
  /** The database numbers new rows itself: SQLite's rowid alias, serial / nextval, identity. */
  readonly autoincrement?: boolean;
  readonly maxLength?: number;
  readonly precision?: number;
  readonly scale?: number;
  /** The labels of an enum type, in their order. */
  readonly enumValues?: readonly string[];
  /** The values a `CHECK (col IN (...))` (of the column or its domain) allows. */
  readonly checkValues?: readonly string[];
  /** An array type (PostgreSQL). */
  readonly array?: boolean;
  readonly comment?: string;
}

export interface CatalogForeignKey {
  readonly columns: readonly string[];
  /** The target's schema (PostgreSQL); absent: the same schema. */
  readonly targetSchema?: string;
  readonly targetTable: string;
  readonly targetColumns: readonly string[];
}

export interface CatalogTable {
  readonly name: string;
  /** PostgreSQL schema; absent for SQLite. */
  readonly schema?: string;
  readonly kind: RelationKind;
  readonly columns: readonly CatalogColumn[];
  /** The primary key's columns in key order; empty: none. */
  readonly primaryKey: readonly string[];
  readonly foreignKeys: readonly CatalogForeignKey[];
  /** Unique constraints other than the primary key. */
  readonly uniques: readonly (readonly string[])[];
  /** SQLite: the table has a rowid (it is no view and not WITHOUT ROWID). */
  readonly rowid?: boolean;
  readonly comment?: string;
}

export interface Catalog {
  readonly dialect: CatalogDialect;
  /** The SQLite file's name without its extension, or the PostgreSQL database's name. */
  readonly database: string;
  /** PostgreSQL: the schema read. */
  readonly schema?: string;
  readonly tables: readonly CatalogTable[];
}

// ---------------------------------------------------------------- CHECK (col IN (...))

/**
 * The column and values of a check that only lists allowed texts, or undefined for any other
 * check. Understands SQLite's text as written (`"status" IN ('open', 'done')`) and PostgreSQL's
 * normalised form (`((status)::text = ANY ((ARRAY['open'::character varying, ...])::text[]))`);
 * a domain's check names the value `VALUE`.
 */
export function parseCheckIn(expression: string): { column: string; values: string[] } | undefined {
  let text = expression.trim().replace(/^CHECK\s*/i, '').trim();
  text = stripParens(text);
  const inList = /^(.+?)\s+IN\s*\(([\s\S]*)\)$/i.exec(text);
  const anyArray = /^(.+?)\s*=\s*ANY\s*\(([\s\S]*)\)$/i.exec(text);
  const match = inList ?? anyArray;
  if (!match) return undefined;
  const column = identifier(stripCast(stripParens(match[1].trim())));
  if (column === undefined) return undefined;
  let list = stripParens(match[2].trim());
  if (anyArray && !inList) {
    list = stripParens(stripCast(list));
    const array = /^ARRAY\s*\[([\s\S]*)\]$/i.exec(list);
    if (!array) return undefined;
    list = array[1];
  }
  const values = stringLiterals(list);
  return values && values.length > 0 ? { column, values } : undefined;
}

/** `((x))` -> `x`, only when the outer parentheses enclose everything. */
function stripParens(text: string): string {
  let current = text.trim();
  while (current.startsWith('(') && closingParen(current, 0) === current.length - 1) current = current.slice(1, -1).trim();
  return current;
}

function closingParen(text: string, open: number): number {
  let depth = 0;
  let quote: string | undefined;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"' || c === '`') quote = c;
    else if (c === '[' && text[i - 1] !== 'Y' && text[i - 1] !== 'y') quote = ']';
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return -1;
}

/** Drops a trailing PostgreSQL cast: `(x)::text` -> `(x)`, `ARRAY[...]::text[]` -> `ARRAY[...]`. */
function stripCast(text: string): string {
  return text.replace(/::\s*(?:"[^"]+"|[A-Za-z_][\w ]*?)(?:\(\d+(?:,\s*\d+)?\))?(?:\[\])*\s*$/, '').trim();
}

/** `status`, `"Order Status"`, `[status]`, `` `status` `` -> the name; anything else undefined. */
function identifier(text: string): string | undefined {
  const unquoted = stripParens(text);
  if (/^[\p{L}_][\p{L}\p{N}_$]*$/u.test(unquoted)) return unquoted.toLowerCase() === 'value' ? 'VALUE' : unquoted;
  const quoted = /^"((?:[^"]|"")+)"$/.exec(unquoted) ?? /^`((?:[^`]|``)+)`$/.exec(unquoted) ?? /^\[([^\]]+)\]$/.exec(unquoted);
  if (!quoted) return undefined;
  return quoted[1].replace(/""/g, '"').replace(/``/g, '`');
}

/** `'a', 'b'::text` -> ['a', 'b']; undefined when an item is not a text literal. */
function stringLiterals(list: string): string[] | undefined {
  const values: string[] = [];
  const item = /\s*'((?:[^']|'')*)'(?:\s*::\s*(?:"[^"]+"|[A-Za-z_][\w ]*?)(?:\(\d+\))?)?\s*(,|$)/y;
  let position = 0;
  while (position < list.length) {
    item.lastIndex = position;
    const match = item.exec(list);
    if (!match) return undefined;
    values.push(match[1].replace(/''/g, "'"));
    position = item.lastIndex;
    if (match[2] === '') break;
  }
  return position >= list.length ? values : undefined;
}

/** The text of every `CHECK (...)` in a CREATE TABLE statement, in order. */
export function checkClauses(createSql: string): string[] {
  const out: string[] = [];
  const keyword = /\bCHECK\s*\(/gi;
  let quote: string | undefined;
  // Find CHECK only outside quotes (a column may be named "check").
  const outside: boolean[] = [];
  for (let i = 0; i < createSql.length; i++) {
    const c = createSql[i];
    if (quote) {
      outside.push(false);
      if (c === quote) quote = undefined;
    } else {
      if (c === "'" || c === '"' || c === '`') quote = c;
      else if (c === '[') quote = ']';
      outside.push(quote === undefined);
    }
  }
  for (const match of createSql.matchAll(keyword)) {
    if (!outside[match.index]) continue;
    const open = match.index + match[0].length - 1;
    const close = closingParen(createSql, open);
    if (close > open) out.push(createSql.slice(open + 1, close));
  }
  return out;
}
