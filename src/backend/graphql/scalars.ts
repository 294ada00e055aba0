// The scalars of the XOS API: GraphQL's own, and one of XOS's per field type that names its own
// (fieldTypes.ts: Decimal, Date, DateTime, ...). Their shape rules are the field rules of
// src/ast/values.ts (one definition for reads, filters and writes); ranges and lengths are applied
// on write, where the field is known.
import { GraphQLBoolean, GraphQLError, GraphQLID, GraphQLInt, GraphQLScalarType, GraphQLString, Kind, type ValueNode } from 'graphql';
import type { FieldType } from '../../ast/schema.ts';
import { fieldType, type GraphqlScalar } from '../../ast/fieldTypes.ts';
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

function parser(scalar: GraphqlScalar, type: FieldType) {
  return (value: unknown, node?: ValueNode): string => {
    try {
      const parsed = coerceFieldValue(scalar.name, 'value', { type }, value);
      if (typeof parsed === 'string') return parsed;
    } catch (e) {
      if (!(e instanceof FieldValueError)) throw e;
    }
    // The node lets the API name the input field the value was given for.
    throw new GraphQLError(`${scalar.name} must be ${scalar.hint} (got ${JSON.stringify(value)})`, { nodes: node ? [node] : undefined, extensions: { code: 'BAD_USER_INPUT' } });
  };
}

function ownScalar(type: FieldType, scalar: GraphqlScalar): GraphQLScalarType {
  const parse = parser(scalar, type);
  return new GraphQLScalarType({
    name: scalar.name,
    description: scalar.description,
    // Values leave in canonical form; a decimal read as a number is given as its digits.
    serialize: (value) => (value === null || value === undefined ? null : typeof value === 'string' ? value : String(value)),
    parseValue: (value) => parse(value),
    parseLiteral: (ast) => parse(literalValue(ast), ast),
  });
}

const BUILT_IN = { ID: GraphQLID, String: GraphQLString, Int: GraphQLInt, Boolean: GraphQLBoolean } as const;
const own = new Map<FieldType, GraphQLScalarType>();

/** The GraphQL scalar of a field type's values (one instance per type, shared by every schema). */
export function scalarOfType(type: FieldType): GraphQLScalarType {
  const graphql = fieldType(type).graphql;
  if (typeof graphql === 'string') return BUILT_IN[graphql];
  let scalar = own.get(type);
  if (!scalar) own.set(type, scalar = ownScalar(type, graphql));
  return scalar;
}
