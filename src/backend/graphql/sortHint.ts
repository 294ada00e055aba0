// `xos_sort_hint(context, field)`: whether an index serves a sort of a list context by one of its
// fields, and about how many rows the table holds, with the index that would serve it. The Board
// asks before it sorts a large table of the person's own, so a sort that reads every row is never a
// silent wait.
import { GraphQLBoolean, GraphQLFloat, GraphQLNonNull, GraphQLObjectType, GraphQLString, type GraphQLFieldConfigMap } from 'graphql';
import type { Ast } from '../../ast/schema.ts';
import type { Model } from '../model.ts';
import { quoteIdentifier, tableSql } from '../storage/sql.ts';
import { badInput } from './errors.ts';
import type { RequestContext } from './context.ts';

const SortHintType = new GraphQLObjectType({
  name: 'XosSortHint',
  fields: {
    indexed: { type: new GraphQLNonNull(GraphQLBoolean), description: 'An index serves the sort (its first column, or the row key).' },
    rows: { type: new GraphQLNonNull(GraphQLFloat), description: 'About how many rows the table holds (PostgreSQL: the planner\'s estimate).' },
    index: { type: GraphQLString, description: 'The CREATE INDEX statement that would serve the sort, when none does.' },
  },
});

export function sortHintFields(ast: Ast, model: Model): GraphQLFieldConfigMap<unknown, RequestContext> {
  return {
    xos_sort_hint: {
      type: new GraphQLNonNull(SortHintType),
      description: 'Whether an index serves sorting the list context `context` by `field`, and about how many rows it reads otherwise.',
      args: { context: { type: new GraphQLNonNull(GraphQLString) }, field: { type: new GraphQLNonNull(GraphQLString) } },
      resolve: async (_root, args, ctx) => {
        const context = Object.hasOwn(ast.contexts, args.context as string) ? ast.contexts[args.context as string] : undefined;
        if (!context || context.kind !== 'list') throw badInput(`${String(args.context)} is not a list context`, 'context');
        const table = model.table(context.entity);
        const column = table.byField.get(args.field as string) ?? table.byName.get(args.field as string);
        if (!column) throw badInput(`${context.entity} has no field ${String(args.field)}`, 'field');
        const hint = await ctx.storage.sortHint(table.name, column.name);
        // With the key after it, every window of the sort (the list's order ends in the key) is one index range.
        const key = table.byName.get('id');
        const columns = [column.sql, ...(key && !key.parts && key.sql !== column.sql ? [key.sql] : [])].map(quoteIdentifier).join(', ');
        return { ...hint, index: hint.indexed ? null : `CREATE INDEX ON ${tableSql(table)} (${columns})` };
      },
    },
  };
}
