// Error codes of the XOS GraphQL API (DESIGN §4). Clients (and the MCP tools)
// branch on `extensions.code`, so every error that reaches a client has one.
import { GraphQLError } from 'graphql';

export type ErrorCode =
  | 'BAD_USER_INPUT'
  | 'CONFLICT'
  | 'NOT_FOUND'
  | 'GRAPHQL_PARSE_FAILED'
  | 'GRAPHQL_VALIDATION_FAILED'
  | 'UNAVAILABLE'
  | 'INTERNAL_SERVER_ERROR'
  /** The person's role lacks the right (the message names it). */
  | 'FORBIDDEN';

export function apiError(code: ErrorCode, message: string, extensions: Record<string, unknown> = {}): GraphQLError {
  return new GraphQLError(message, { extensions: { code, ...extensions } });
}

export function badInput(message: string, field?: string): GraphQLError {
  return apiError('BAD_USER_INPUT', message, field ? { field } : {});
}
