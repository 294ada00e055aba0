// Which columns a resolver must read: the fields the query selects, through
// fragments, mapped to columns (`company` -> `company_id`), plus id and version.
import { Kind, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';
import type { Table } from '../model.ts';

export function selectedColumns(table: Table, info: GraphQLResolveInfo): string[] {
  const columns = new Set<string>(['id', 'version']);
  const seenFragments = new Set<string>();
  const visit = (set: SelectionSetNode | undefined) => {
    if (!set) return;
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        const column = table.byName.get(sel.name.value) ?? table.byField.get(sel.name.value);
        if (column) columns.add(column.name);
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        visit(sel.selectionSet);
      } else if (!seenFragments.has(sel.name.value)) {
        seenFragments.add(sel.name.value);
        visit(info.fragments[sel.name.value]?.selectionSet);
      }
    }
  };
  for (const node of info.fieldNodes) visit(node.selectionSet);
  return [...columns];
}
