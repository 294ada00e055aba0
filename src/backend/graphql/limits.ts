// Caps on what one GraphQL document may ask for, checked before anything
// executes: aliases (each alias runs its field again: 1,000 aliased lists were
// 29 MB in 1.2 s), field selections (the document's size; a fragment spread
// twice into one selection is merged by execution, so each field counts once)
// and literal `limit` values. Each error names the cap.
import { GraphQLError, Kind, visit, type ASTVisitor, type ValidationContext } from 'graphql';

export interface DocumentLimits {
  /** Aliased fields per document. */
  readonly maxAliases: number;
  /** Field selections written in the document. */
  readonly maxFields: number;
  /** Largest `limit` argument given as a literal. */
  readonly maxLimit: number;
}

export const DEFAULT_DOCUMENT_LIMITS: DocumentLimits = { maxAliases: 100, maxFields: 2_000, maxLimit: 10_000 };

export function documentLimitsRule(limits: DocumentLimits = DEFAULT_DOCUMENT_LIMITS) {
  return (context: ValidationContext): ASTVisitor => {
    return {
      Argument(node) {
        if (node.name.value !== 'limit' || node.value.kind !== Kind.INT) return;
        if (Number(node.value.value) > limits.maxLimit) {
          context.reportError(new GraphQLError(
            `limit ${node.value.value} is over the cap of ${limits.maxLimit} records per list. Page with limit (at most ${limits.maxLimit}) and offset.`,
            { nodes: [node], extensions: { code: 'BAD_USER_INPUT', field: 'limit', max: limits.maxLimit } },
          ));
        }
      },
      // Counted on entering the document, before the other rules spend their work on it.
      Document: {
        enter(node) {
          let fields = 0;
          let aliases = 0;
          visit(node, {
            Field(field) {
              fields += 1;
              if (field.alias) aliases += 1;
            },
          });
          if (aliases > limits.maxAliases) {
            context.reportError(new GraphQLError(
              `The query uses ${aliases} aliases; at most ${limits.maxAliases} are allowed. Ask for each field once and page with limit and offset.`,
              { nodes: [node], extensions: { code: 'GRAPHQL_VALIDATION_FAILED', limit: 'aliases', max: limits.maxAliases } },
            ));
          }
          if (fields > limits.maxFields) {
            context.reportError(new GraphQLError(
              `The query selects ${fields} fields; at most ${limits.maxFields} are allowed. Select fewer fields or split the query.`,
              { nodes: [node], extensions: { code: 'GRAPHQL_VALIDATION_FAILED', limit: 'fields', max: limits.maxFields } },
            ));
          }
        },
      },
    };
  };
}
