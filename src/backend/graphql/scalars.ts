// Custom scalars of the XOS API. Their shape rules are the field rules of
// src/ast/values.ts (one definition for reads, filters and writes); ranges and lengths
// are applied on write, where the field is known.
import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import type { FieldType } from '../../ast/schema.ts';
import { coerceFieldValue, FieldValueError } from '../../ast/values.ts';

function literalValue(ast: ValueNode): unknown {
  switch (ast.kind) {
    case Kind.STRING: return ast.value;
    case Kind.INT: // keep the exact digits: Decimal must not round through a float
    case Kind.FLOAT: return ast.value;
    case Kind.BOOLEAN: return ast.value;
    default: return undefined;
  }
}

function parser(scalar: string, type: FieldType, hint: string) {
  return (value: unknown, node?: ValueNode): string => {
    try {
      const parsed = coerceFieldValue(scalar, 'value', { type }, value);
      if (typeof parsed === 'string') return parsed;
    } catch (e) {
      if (!(e instanceof FieldValueError)) throw e;
    }
    // The node lets the API name the input field the value was given for.
    throw new GraphQLError(`${scalar} must be ${hint} (got ${JSON.stringify(value)})`, { nodes: node ? [node] : undefined, extensions: { code: 'BAD_USER_INPUT' } });
  };
}

const parseDecimal = parser('Decimal', 'decimal', 'a number or a string of digits like "1234.50"');
const parseDate = parser('Date', 'date', 'a calendar date YYYY-MM-DD');
const parseDateTime = parser('DateTime', 'datetime', 'an ISO 8601 date-time with a timezone, like "2026-05-01T10:00:00Z"');

export const DecimalScalar = new GraphQLScalarType({
  name: 'Decimal',
  description: 'An exact decimal number, serialised as a string of digits ("1234.50"); accepts a number or a string.',
  serialize: (value) => (value === null || value === undefined ? null : String(value)),
  parseValue: (value) => parseDecimal(value),
  parseLiteral: (ast) => parseDecimal(literalValue(ast), ast),
});

export const DateScalar = new GraphQLScalarType({
  name: 'Date',
  description: 'A calendar date, YYYY-MM-DD.',
  serialize: (value) => value,
  parseValue: (value) => parseDate(value),
  parseLiteral: (ast) => parseDate(literalValue(ast), ast),
});

export const DateTimeScalar = new GraphQLScalarType({
  name: 'DateTime',
  description: 'A point in time, ISO 8601 in UTC ("2026-05-01T10:00:00.000Z").',
  serialize: (value) => value,
  parseValue: (value) => parseDateTime(value),
  parseLiteral: (ast) => parseDateTime(literalValue(ast), ast),
});
