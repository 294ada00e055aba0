// One query of the demo CRM per kind of refusal of an agent's xos_query (src/graphql/queryRules.ts),
// for the tests of the check (queryRules.test.ts) and of its words (outcomeText.test.ts). A kind
// added to QueryRefusal without a query here fails the typecheck.
import type { QueryRefusal } from '../../src/graphql/queryRules.ts';

const PEOPLE = 'id firstname lastname email city age net_worth';
const PERSON_VALUES = 'id firstname lastname email phone street zip city age net_worth status birthday active notes';
const PERSON = `${PERSON_VALUES} company { id name }`;
const DEALS = 'id title amount stage probability close_date company { id name }';
const withContact = (inner: string) => `{ deal_list { ${DEALS} contact { id ${inner} } } }`;

/** Per kind: the context and a query of it that the check refuses with that kind. */
export const REFUSED: { readonly [K in QueryRefusal['kind']]: readonly [context: string, query: string] } = {
  unknown_context: ['people', `{ people { ${PEOPLE} } }`],
  not_graphql: ['person_list', '{ person_list { id '],
  not_only_operations: ['person_list', `{ person_list { ...P } } fragment P on person { ${PEOPLE} }`],
  operation_count: ['person_list', `query A { person_list { ${PEOPLE} } } query B { person_list { ${PEOPLE} } }`],
  not_a_query: ['person_list', 'mutation { delete_person(id: "1", version: 1) }'],
  directive: ['person_list', `{ person_list { id firstname lastname email @skip(if: true) city age net_worth } }`],
  variable: ['person_list', `query Q($w: person_bool_exp) { person_list(where: $w) { ${PEOPLE} } }`],
  root_field: ['person_list', `{ person_list { ${PEOPLE} } person_list_count }`],
  root_alias: ['person_list', `{ p: person_list { ${PEOPLE} } }`],
  no_selection: ['person_list', '{ person_list }'],
  fragment: ['person_list', '{ person_list { ... on person { id } } }'],
  alias: ['person_list', '{ person_list { id name: firstname lastname email city age net_worth } }'],
  too_deep: ['person_detail', `{ person_detail(id: "3") { ${PERSON_VALUES} company { id employees { id company { employees { id } } } } } }`],
  list_fields: ['person_list', '{ person_list { id firstname lastname email phone } }'],
  not_selectable: ['deal_list', withContact('notez')],
  takes_no_arguments: ['deal_list', withContact('city(limit: 1)')],
  not_a_relation: ['deal_list', withContact('city { id }')],
  needs_selection: ['deal_list', withContact('deals')],
  list_argument: ['person_list', `{ person_list(first: 3) { ${PEOPLE} } }`],
  repeated_argument: ['person_list', `{ person_list(limit: 1, limit: 2) { ${PEOPLE} } }`],
  detail_argument: ['person_detail', `{ person_detail(id: "1", where: { id: { _eq: 1 } }) { ${PERSON} } }`],
  detail_id: ['person_detail', `{ person_detail { ${PERSON} } }`],
  count: ['person_list', `{ person_list(limit: { a: 1 }) { ${PEOPLE} } }`],
  not_filterable: ['person_list', `{ person_list(where: { no_such_field: { _eq: 1 } }) { ${PEOPLE} } }`],
  where_depth: ['person_list', `{ person_list(where: ${'{ _not: '.repeat(40)}{ id: { _eq: 1 } }${' }'.repeat(40)}) { ${PEOPLE} } }`],
  where_not_object: ['person_list', `{ person_list(where: [{ city: { _eq: "Berlin" } }]) { ${PEOPLE} } }`],
  no_operator: ['person_list', `{ person_list(where: { city: "Berlin" }) { ${PEOPLE} } }`],
  unknown_operator: ['person_list', `{ person_list(where: { city: { _regex: "a" } }) { ${PEOPLE} } }`],
  not_scalar: ['person_list', `{ person_list(where: { city: { _eq: { x: 1 } } }) { ${PEOPLE} } }`],
  order_by_shape: ['person_list', `{ person_list(order_by: [1]) { ${PEOPLE} } }`],
  order_by_relation: ['deal_list', `{ deal_list(order_by: { contact: { city: asc } }) { ${DEALS} contact { id firstname } } }`],
  sort_direction: ['person_list', `{ person_list(order_by: { city: "desc" }) { ${PEOPLE} } }`],
};
