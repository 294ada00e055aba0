// `<context>_aggregate` on both stores, checked against totals computed here from the rows the
// list itself returns (BigInt cents, dates bucketed in JavaScript): groups by an enum, a ref (by
// its name), dates by day, week, month, quarter and year and a datetime by week; every measure;
// order by a measure; a limit with the rest as others; having; where; a total without groups;
// clear refusals of wrong input; and a role's own records and hidden fields.
import assert from 'node:assert/strict';
import { astFromObject } from '../../src/ast/load.ts';
import type { Backend } from '../../src/backend/backend.ts';
import type { Person } from '../../src/backend/people/person.ts';
import { demoApp } from '../../src/backend/demo.ts';
import { onBothStores } from '../support/bothStores.ts';

type Json = Record<string, any>;
type Deal = { id: string; title: string; amount: string | null; stage: string | null; probability: number | null; close_date: string | null; created_at: string | null; company_id: string | null; company: { name: string } | null };

async function run(backend: Backend, query: string, person?: Person): Promise<{ data?: Json | null; errors?: Json[] }> {
  return JSON.parse(JSON.stringify(await backend.api.run({ query, ...(person ? { person } : {}) }))) as { data?: Json | null; errors?: Json[] };
}

async function data(backend: Backend, query: string, person?: Person): Promise<Json> {
  const result = await run(backend, query, person);
  assert.equal(result.errors, undefined, JSON.stringify(result.errors));
  return result.data!;
}

// ---- the oracle: exact decimals as BigInt units ----------------------------------------------

function units(decimal: string, scale: number): bigint {
  const [whole, fraction = ''] = decimal.replace('-', '').split('.');
  const value = BigInt(whole + fraction.padEnd(scale, '0'));
  return decimal.startsWith('-') ? -value : value;
}

function text(value: bigint, scale: number): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(scale + 1, '0');
  return `${negative ? '-' : ''}${scale ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits}`;
}

/** sum (at `scale`) / count at `scale + 2` digits, half away from zero. */
function average(sum: bigint, count: number, scale: number): string {
  const scaled = sum * 100n;
  const quotient = scaled / BigInt(count);
  const remainder = scaled % BigInt(count);
  const away = 2n * (remainder < 0n ? -remainder : remainder) >= BigInt(count) ? (scaled < 0n ? -1n : 1n) : 0n;
  return text(quotient + away, scale + 2);
}

function bucket(value: string, size: string): string {
  const day = value.slice(0, 10);
  if (size === 'day') return day;
  if (size === 'month') return `${day.slice(0, 7)}-01`;
  if (size === 'year') return `${day.slice(0, 4)}-01-01`;
  if (size === 'quarter') return `${day.slice(0, 5)}${String(Math.floor((Number(day.slice(5, 7)) - 1) / 3) * 3 + 1).padStart(2, '0')}-01`;
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - ((date.getUTCDay() + 6) % 7));
  return date.toISOString().slice(0, 10);
}

interface Totals { count: number; sum: bigint; counted: number; min?: string; max?: string; companies: Set<string> }

function totalsBy(deals: readonly Deal[], keyOf: (deal: Deal) => string | null): Map<string | null, Totals> {
  const groups = new Map<string | null, Totals>();
  for (const deal of deals) {
    const key = keyOf(deal);
    let totals = groups.get(key);
    if (!totals) groups.set(key, (totals = { count: 0, sum: 0n, counted: 0, companies: new Set() }));
    totals.count++;
    if (deal.amount !== null) {
      totals.sum += units(deal.amount, 2);
      totals.counted++;
      if (totals.min === undefined || units(deal.amount, 2) < units(totals.min, 2)) totals.min = deal.amount;
      if (totals.max === undefined || units(deal.amount, 2) > units(totals.max, 2)) totals.max = deal.amount;
    }
    if (deal.company_id !== null) totals.companies.add(deal.company_id);
  }
  return groups;
}

const byKeyAscNullsLast = ([a]: [string | null, unknown], [b]: [string | null, unknown]) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1);
/** Largest sum first, a group without amounts (no sum) before all (SQL's DESC NULLS FIRST); ties keep their order. */
const bySumDesc = ([, a]: [unknown, Totals], [, b]: [unknown, Totals]) => {
  if (!a.counted || !b.counted) return (a.counted ? 1 : 0) - (b.counted ? 1 : 0);
  return a.sum === b.sum ? 0 : a.sum > b.sum ? -1 : 1;
};
const sumOf = (t: Totals) => (t.counted ? text(t.sum, 2) : null);

const demo = demoApp();

onBothStores('Aggregates of a list context', demo, 300, async (backend) => {
  const deals = (await data(backend, '{ deal_list(limit: 10000) { id title amount stage probability close_date created_at company_id company { name } } }')).deal_list as Deal[];
  assert.equal(deals.length, 300);

  // By an enum, every measure, ordered by the sum (largest first, ties by the key).
  const byStage = (await data(backend, `{ deal_list_aggregate(group_by: [{ stage: true }], order_by: [{ sum: { amount: desc } }]) {
    total_groups groups { key { stage } count sum { amount } avg { amount } min { amount } max { amount } count_distinct { company } } } }`)).deal_list_aggregate;
  const stages = [...totalsBy(deals, (d) => d.stage)].sort(byKeyAscNullsLast).sort(bySumDesc);
  assert.equal(byStage.total_groups, stages.length);
  assert.deepEqual(byStage.groups, stages.map(([stage, t]) => ({
    key: { stage }, count: t.count,
    sum: { amount: sumOf(t) }, avg: { amount: t.counted ? average(t.sum, t.counted, 2) : null },
    min: { amount: t.min ?? null }, max: { amount: t.max ?? null }, count_distinct: { company: t.companies.size },
  })));

  // Dates by every bucket, a datetime by week: counts and exact sums, the keys ascending.
  for (const size of ['day', 'week', 'month', 'quarter', 'year']) {
    const got = (await data(backend, `{ deal_list_aggregate(group_by: [{ close_date: ${size} }], limit: 10000) { total_groups groups { key { close_date } count sum { amount } } } }`)).deal_list_aggregate;
    const want = [...totalsBy(deals, (d) => (d.close_date === null ? null : bucket(d.close_date, size)))].sort(byKeyAscNullsLast);
    assert.deepEqual(got.groups, want.map(([key, t]) => ({ key: { close_date: key }, count: t.count, sum: { amount: sumOf(t) } })), `close_date by ${size}`);
    assert.equal(got.total_groups, want.length);
  }
  const weeks = (await data(backend, '{ deal_list_aggregate(group_by: [{ created_at: week }], limit: 10000) { groups { key { created_at } count } } }')).deal_list_aggregate;
  assert.deepEqual(weeks.groups, [...totalsBy(deals, (d) => (d.created_at === null ? null : bucket(d.created_at, 'week')))].sort(byKeyAscNullsLast)
    .map(([key, t]) => ({ key: { created_at: key }, count: t.count })));
  assert.ok(weeks.groups.every((g: Json) => g.key.created_at === null || new Date(`${g.key.created_at}T00:00:00Z`).getUTCDay() === 1), 'a week starts on Monday');

  // The three companies with the largest sums, named; the rest as others add up to the whole.
  const top = (await data(backend, `{ deal_list_aggregate(group_by: [{ company: true }], order_by: [{ sum: { amount: desc } }], limit: 3, others: true) {
    total_groups groups { key { company company_id } count sum { amount } } others { groups count sum { amount } avg { amount } } } }`)).deal_list_aggregate;
  const companies = [...totalsBy(deals, (d) => d.company_id)].sort(([a], [b]) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : Number(a) - Number(b))).sort(bySumDesc);
  const nameOf = new Map(deals.filter((d) => d.company).map((d) => [d.company_id, d.company!.name]));
  assert.deepEqual(top.groups, companies.slice(0, 3).map(([id, t]) => ({ key: { company: id === null ? null : nameOf.get(id), company_id: id }, count: t.count, sum: { amount: sumOf(t) } })));
  const rest = companies.slice(3).map(([, t]) => t);
  const restSum = rest.reduce((sum, t) => sum + t.sum, 0n);
  const restCounted = rest.reduce((n, t) => n + t.counted, 0);
  assert.deepEqual(top.others, { groups: companies.length - 3, count: rest.reduce((n, t) => n + t.count, 0), sum: { amount: text(restSum, 2) }, avg: { amount: average(restSum, restCounted, 2) } });
  assert.equal(top.total_groups, companies.length);

  // having and where: stages of the deals above 1000 that have at least 20 of them.
  const filtered = deals.filter((d) => d.amount !== null && units(d.amount, 2) > 100000n);
  const many = [...totalsBy(filtered, (d) => d.stage)].filter(([, t]) => t.count >= 20).sort(byKeyAscNullsLast);
  const having = (await data(backend, '{ deal_list_aggregate(where: { amount: { _gt: "1000" } }, group_by: [{ stage: true }], having: { count: { _gte: 20 } }) { total_groups groups { key { stage } count } } }')).deal_list_aggregate;
  assert.deepEqual(having.groups, many.map(([stage, t]) => ({ key: { stage }, count: t.count })));

  // No group_by: one group, the whole list.
  const all = totalsBy(deals, () => 'all').get('all')!;
  assert.deepEqual((await data(backend, '{ deal_list_aggregate { total_groups groups { count sum { amount } } } }')).deal_list_aggregate,
    { total_groups: 1, groups: [{ count: 300, sum: { amount: text(all.sum, 2) } }] });

  // Wrong input is refused with what to send instead.
  const refusals = [
    ['{ deal_list_aggregate(group_by: [{ stage: true, company: true }]) { total_groups } }', /exactly one field, like \{ city: true \}/],
    ['{ deal_list_aggregate(group_by: [{ stage: true }], order_by: [{ key: { company: asc } }]) { total_groups } }', /order_by key\.company needs company in group_by/],
    ['query ($n: Int) { deal_list_aggregate(limit: $n) { total_groups } }', /limit must be 1 to 10000 groups/],
    ['{ deal_list_aggregate(group_by: [{ title: month }]) { total_groups } }', /Boolean cannot represent a non boolean value/],
  ] as const;
  for (const [query, message] of refusals) {
    const result = await backend.api.run({ query, variables: { n: 20_000 } });
    assert.match(String(result.errors?.[0]?.message), message, query);
  }
});

// A role sees the totals of its own records only, and cannot aggregate a field it may not read.
const team = astFromObject({
  xos: '1',
  app: 'team',
  locales: ['en'],
  entities: {
    deal: { fields: { id: { type: 'id' }, title: { type: 'string', required: true }, amount: { type: 'decimal', scale: 2 }, secret: { type: 'int' }, owner: { type: 'string' } } },
  },
  contexts: {
    deal_list: { kind: 'list', entity: 'deal', list_fields: ['id', 'title', 'amount', 'owner'] },
  },
  roles: {
    Sales: { contexts: { deal_list: ['read'] }, fields: { 'deal.secret': [] }, rows: { deal: { field: 'owner', is: '$person' } } },
  },
});

onBothStores('Aggregates through a role', team, 0, async (backend) => {
  const rows = [['anna', '10.10'], ['anna', '20.25'], ['ben', '1000.00'], ['anna', null], ['ben', '0.01']] as const;
  for (const [owner, amount] of rows) {
    await data(backend, `mutation { insert_deal(object: { title: "t", owner: ${JSON.stringify(owner)}, amount: ${JSON.stringify(amount)}, secret: 7 }) { id } }`);
  }
  const anna: Person = { name: 'anna', role: 'Sales' };
  assert.deepEqual((await data(backend, '{ deal_list_aggregate(group_by: [{ owner: true }], others: true, limit: 1) { total_groups groups { key { owner } count sum { amount } avg { amount } } others { groups } } }', anna)).deal_list_aggregate,
    { total_groups: 1, groups: [{ key: { owner: 'anna' }, count: 3, sum: { amount: '30.35' }, avg: { amount: '15.1750' } }], others: null });
  const hidden = await run(backend, '{ deal_list_aggregate { groups { sum { secret } } } }', anna);
  assert.match(String(hidden.errors?.[0]?.message), /Your role "Sales" may not use deal_aggregate_sums\.secret\./);
  const grouped = await run(backend, '{ deal_list_aggregate(group_by: [{ secret: true }]) { total_groups } }', anna);
  assert.match(String(grouped.errors?.[0]?.message), /secret/);
  // Without the role: everyone's.
  assert.deepEqual((await data(backend, '{ deal_list_aggregate { groups { count sum { amount secret } } } }')).deal_list_aggregate.groups, [{ count: 5, sum: { amount: '1030.36', secret: '35' } }]);
});
