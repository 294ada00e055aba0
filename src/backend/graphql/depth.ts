// Refuses documents nested deeper than a limit before anything executes, so a
// client cannot make the server walk relations without end. The other document
// caps (aliases, fields, limit values) travel with it, so every caller of the
// API gets them.
import { GraphQLError, Kind, visitInParallel, type ASTVisitor, type FragmentDefinitionNode, type SelectionSetNode, type ValidationContext } from 'graphql';
import { DEFAULT_DOCUMENT_LIMITS, documentLimitsRule, type DocumentLimits } from './limits.ts';

export function depthLimitRule(maxDepth: number, limits: DocumentLimits = DEFAULT_DOCUMENT_LIMITS) {
  const documentLimits = documentLimitsRule(limits);
  return (context: ValidationContext): ASTVisitor => visitInParallel([depthVisitor(maxDepth, context), documentLimits(context)]);
}

function depthVisitor(maxDepth: number, context: ValidationContext): ASTVisitor {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of context.getDocument().definitions) {
    if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
  }
  // Each fragment's depth is computed once: re-walking spreads is exponential.
  const fragmentDepth = new Map<string, number>();
  const depthOf = (set: SelectionSetNode | undefined, visiting: Set<string>): number => {
    if (!set) return 0;
    let deepest = 0;
    for (const sel of set.selections) {
      let d = 0;
      if (sel.kind === Kind.FIELD) d = sel.selectionSet ? 1 + depthOf(sel.selectionSet, visiting) : 1;
      else if (sel.kind === Kind.INLINE_FRAGMENT) d = depthOf(sel.selectionSet, visiting);
      else if (fragmentDepth.has(sel.name.value)) d = fragmentDepth.get(sel.name.value)!;
      else if (!visiting.has(sel.name.value)) { // a cycle counts 0: NoFragmentCyclesRule reports it
        visiting.add(sel.name.value);
        d = depthOf(fragments.get(sel.name.value)?.selectionSet, visiting);
        visiting.delete(sel.name.value);
        fragmentDepth.set(sel.name.value, d);
      }
      if (d > deepest) deepest = d;
      if (deepest > maxDepth) return deepest; // no need to look further
    }
    return deepest;
  };
  return {
    OperationDefinition(node) {
      const depth = depthOf(node.selectionSet, new Set());
      if (depth > maxDepth) {
        context.reportError(new GraphQLError(
          `The query is nested ${depth} levels deep; at most ${maxDepth} are allowed. Ask for fewer nested relations.`,
          { nodes: [node], extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } },
        ));
      }
    },
  };
}
