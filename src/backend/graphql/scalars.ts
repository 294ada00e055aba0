// Custom scalars of the XOS API. They check the shape of a value; the range and
// per-field rules are applied on write by values.ts.
import { GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import { badInput } from './errors.ts';

const DECIMAL = /^-?\d+(\.\d+)?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function literalValue(ast: ValueNode): unknown {
  switch (ast.kind) {
    case Kind.STRING: return ast.value;
    case Kind.INT: return Number(ast.value);
    case Kind.FLOAT: return ast.value; // keep the exact digits for Decimal
    case Kind.BOOLEAN: return ast.value;
    default: return undefined;
  }
}

function parseDecimal(value: unknown): string {
  if (typeof value === 'number' && Number.isFinite(value)) {
    const text = String(value);
    if (DECIMAL.test(text)) return text;
  }
  if (typeof value === 'string' && DECIMAL.test(value.trim())) return value.trim();
  throw badInput(`Decimal must be a number or a string of digits like "1234.50" (got ${JSON.stringify(value)})`);
}

export const DecimalScalar = new GraphQLScalarType({
  name: 'Decimal',
  description: 'An exact decimal number, serialised as a string of digits ("1234.50"); accepts a number or a string.',
  serialize: (value) => (value === null || value === undefined ? null : String(value)),
  parseValue: parseDecimal,
  parseLiteral: (ast) => parseDecimal(literalValue(ast)),
});

function parseDate(value: unknown): string {
  if (typeof value === 'string' && DATE.test(value)) return value;
  throw badInput(`Date must be a string YYYY-MM-DD (got ${JSON.stringify(value)})`);
}

export const DateScalar = new GraphQLScalarType({
  name: 'Date',
  description: 'A calendar date, YYYY-MM-DD.',
  serialize: (value) => value,
  parseValue: parseDate,
  parseLiteral: (ast) => parseDate(literalValue(ast)),
});

function parseDateTime(value: unknown): string {
  if (typeof value === 'string') {
    const time = Date.parse(value);
    if (!Number.isNaN(time) && /^\d{4}-\d{2}-\d{2}T/.test(value)) return new Date(time).toISOString();
  }
  throw badInput(`DateTime must be an ISO 8601 string like "2026-05-01T10:00:00Z" (got ${JSON.stringify(value)})`);
}

export const DateTimeScalar = new GraphQLScalarType({
  name: 'DateTime',
  description: 'A point in time, ISO 8601 in UTC ("2026-05-01T10:00:00.000Z").',
  serialize: (value) => value,
  parseValue: parseDateTime,
  parseLiteral: (ast) => parseDateTime(literalValue(ast)),
});
