// A write the person's database refused by one of its own rules (a CHECK, a NOT NULL), said in
// the app's terms: the field the rule concerns and what it allows, so the refusal is a problem
// of that field like any other invalid value, not an internal error. The rule is read from the
// database's own definition; its column names become the fields' names.
import type { Column, Table } from '../model.ts';
import { StorageError } from './errors.ts';
import { checkClauses, parseCheckIn } from '../introspect/catalog.ts';

export interface CheckRule {
  /** Its condition as the database keeps it: `price >= 0`, `CHECK ((price >= (0)::numeric))`. */
  readonly expression: string;
  /** The columns it concerns, where the database says (PostgreSQL); otherwise found in the condition. */
  readonly columns?: readonly string[];
  /** The values it allows, where the database lists them (an enum type's). */
  readonly values?: readonly string[];
}

/** How much of a rule's text a refusal quotes: it is the database's text, not XOS's. */
const RULE_TEXT_LENGTH = 200;

/** The rule among a SQLite table's CHECKs that SQLite's message names: by its text, or by its CONSTRAINT name. */
export function sqliteCheckRule(createSql: string, named: string): CheckRule | undefined {
  const wanted = squeeze(named);
  const byText = checkClauses(createSql).find((clause) => squeeze(clause) === wanted);
  if (byText !== undefined) return { expression: byText };
  const constraint = /\bCONSTRAINT\s+("(?:[^"]|"")+"|`[^`]+`|\[[^\]]+\]|[\p{L}\p{N}_$]+)\s+CHECK\s*\(/giu;
  for (const match of createSql.matchAll(constraint)) {
    if (squeeze(unquote(match[1])) !== wanted) continue;
    const [clause] = checkClauses(createSql.slice(match.index));
    if (clause !== undefined) return { expression: clause };
  }
  // A column's own CHECK SQLite may name after the column ("CHECK constraint failed: price").
  const byColumn = checkClauses(createSql).find((clause) => identifiers(clause).includes(named));
  return byColumn === undefined ? undefined : { expression: byColumn, columns: [named] };
}

/**
 * The refusal with the entity, the field (by its row name, as `extensions.field` names it) and
 * what the rule allows. `written`: the row names the write sets, preferred where a rule names
 * several columns. Other errors come back unchanged, but for a column named by its real name.
 */
export function explainRefusal(error: StorageError, table: Table, written: readonly string[], rule?: CheckRule): StorageError {
  const bySql = new Map(table.columns.filter((c) => c.type !== 'version' && !c.parts).map((c) => [c.sql, c]));
  const options = { cause: error.cause ?? error, ...(error.constraint !== undefined ? { constraint: error.constraint } : {}) };
  if (error.code === 'not_null') {
    const column = error.column === undefined ? undefined : bySql.get(error.column);
    if (!column) return error;
    return new StorageError('not_null', `${table.name}.${column.name} is required: the database keeps no ${table.name} without it`, { ...options, column: column.name });
  }
  if (error.code !== 'check' && error.code !== 'choice') {
    const column = error.column === undefined ? undefined : bySql.get(error.column);
    return column && column.name !== error.column ? new StorageError(error.code, error.message, { ...options, column: column.name }) : error;
  }
  const columns = rule ? ruleColumns(rule, bySql) : [];
  const column = columns.find((c) => written.includes(c.name)) ?? columns[0];
  const where = column ? `${table.name}.${column.name}` : table.name;
  // The rule's own name; not SQLite's text of an unnamed rule, nor the column it names one after.
  const named = error.constraint !== undefined && squeeze(error.constraint) !== squeeze(rule?.expression ?? '') && !bySql.has(error.constraint);
  const name = named ? ` (its rule ${JSON.stringify(clean(error.constraint!))})` : '';
  const allowed = rule ? allowedText(rule, bySql, column) : undefined;
  const message = allowed === undefined
    ? `${where}: the database refuses this value by one of its rules${name}; give a value the database accepts`
    : `${where}: the database accepts only ${allowed}${name}; give such a value`;
  return new StorageError(error.code, message, { ...options, ...(column ? { column: column.name } : {}) });
}

/** The columns a rule concerns, in the table's order. */
function ruleColumns(rule: CheckRule, bySql: ReadonlyMap<string, Column>): Column[] {
  const names = new Set(rule.columns ?? identifiers(rule.expression));
  return [...bySql.values()].filter((c) => names.has(c.sql));
}

/** What a rule allows, in the fields' names: `one of "G", "PG"` or `values for which price >= 0`. */
function allowedText(rule: CheckRule, bySql: ReadonlyMap<string, Column>, column: Column | undefined): string {
  const listed = rule.values ?? parseCheckIn(rule.expression)?.values;
  if (listed) return `one of ${listed.map((v) => JSON.stringify(clean(v))).join(', ')}`;
  const condition = stripCheck(rule.expression).replace(/::\s*(?:"[^"]+"|[A-Za-z_][\w ]*?)(?:\(\d+(?:,\s*\d+)?\))?(?:\[\])*(?=[\s),=<>!+*/-]|$)/g, '')
    // `(0)::numeric` less its cast is `(0)`: a bare literal needs no parentheses.
    .replace(/\((-?\d+(?:\.\d+)?|'(?:[^']|'')*')\)/g, '$1');
  const named = condition.replace(TOKEN, (token, quoted?: string, backticked?: string, bracketed?: string, bare?: string) => {
    const name = quoted?.replace(/""/g, '"') ?? backticked ?? bracketed ?? bare;
    if (name === undefined) return token;
    // A domain's rule names the value VALUE.
    if (bare !== undefined && bare.toUpperCase() === 'VALUE' && column) return column.name;
    return bySql.get(name)?.name ?? token;
  });
  return `values for which ${clean(named)} holds`;
}

/** A string literal (skipped), or an identifier: "quoted", `quoted`, [quoted] or bare. */
const TOKEN = /'(?:[^']|'')*'|"((?:[^"]|"")+)"|`([^`]+)`|\[([^\]]+)\]|([\p{L}_][\p{L}\p{N}_$]*)/gu;

function identifiers(expression: string): string[] {
  const out: string[] = [];
  for (const match of expression.matchAll(TOKEN)) {
    const name = match[1]?.replace(/""/g, '"') ?? match[2] ?? match[3] ?? match[4];
    if (name !== undefined) out.push(name);
  }
  return out;
}

/** `CHECK ((price >= 0))` -> `price >= 0`. */
function stripCheck(expression: string): string {
  let text = expression.trim().replace(/^CHECK\s*/i, '').trim();
  while (text.startsWith('(') && text.endsWith(')') && balanced(text.slice(1, -1))) text = text.slice(1, -1).trim();
  return text;
}

function balanced(text: string): boolean {
  let depth = 0;
  for (const c of text.replace(/'(?:[^']|'')*'/g, '')) {
    if (c === '(') depth++;
    else if (c === ')' && --depth < 0) return false;
  }
  return depth === 0;
}

function unquote(name: string): string {
  if (/^".*"$/s.test(name)) return name.slice(1, -1).replace(/""/g, '"');
  return /^[`[].*[`\]]$/s.test(name) ? name.slice(1, -1) : name;
}

function squeeze(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The database's text on one line, without control or direction characters, within bounds. */
function clean(text: string): string {
  const line = squeeze(text.replace(/[\p{Cc}\p{Cf}]/gu, ' '));
  return line.length > RULE_TEXT_LENGTH ? `${line.slice(0, RULE_TEXT_LENGTH - 1)}…` : line;
}
