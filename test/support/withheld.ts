// Two XOS setups that differ ONLY in what the agent may not know, for the differential oracle
// suites (test/integration/oracle*.test.ts): the demo CRM with hidden fields, a hidden ref (and so
// a hidden inverse list) and masked fields, its demo data, then one update per record that writes
// the withheld values drawn from a seed. Both setups write every record once, so versions and all
// visible values are the same.
import assert from 'node:assert/strict';
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import { demoApp } from '../../src/backend/demo.ts';
import type { Ast } from '../../src/ast/schema.ts';

/** The demo CRM with hidden fields, a hidden ref (and so a hidden inverse list) and masked fields. */
export function oracleApp(): Ast {
  const ast = demoApp();
  ast.entities.person.fields.notes.agent = 'hidden';
  ast.entities.person.fields.company.agent = 'hidden';
  ast.entities.company.fields.revenue.agent = 'hidden';
  ast.entities.person.fields.net_worth.agent = 'masked';
  ast.entities.person.fields.phone.agent = 'masked';
  ast.entities.deal.fields.amount.agent = 'masked';
  return ast;
}

/** A small seeded PRNG, so both setups and every run hold the same data. */
export function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Rows per entity of the demo data. */
export const ROWS = { person: 240, company: 40, deal: 320 };

/** A backend of `ast` with the demo data whose withheld values are drawn from `seed` (`word` starts every note). */
export async function withheldBackend(ast: Ast, seed: number, word: string, dsn = 'sqlite::memory:'): Promise<Backend> {
  const backend = await startBackend({ ast, dsn, seed: true });
  const next = random(seed);
  const money = () => (Math.floor(next() * 100_000_000) / 100).toFixed(2);
  const write = async (entity: string, id: number, set: Record<string, unknown>) => {
    const result = await backend.api.run({
      query: `mutation($id: ID!, $set: ${entity}_set_input!) { update_${entity}(id: $id, version: 1, set: $set) { id } }`,
      variables: { id: String(id), set },
    });
    assert.equal(result.errors, undefined, JSON.stringify(result.errors));
  };
  for (let id = 1; id <= ROWS.company; id++) await write('company', id, { revenue: money() });
  for (let id = 1; id <= ROWS.person; id++) {
    const company = next() < 0.2 ? null : String(1 + Math.floor(next() * ROWS.company));
    await write('person', id, { notes: `${word}-${id} ${money()}`, net_worth: money(), phone: `+49 30 ${Math.floor(next() * 1e7)}`, company_id: company });
  }
  for (let id = 1; id <= ROWS.deal; id++) await write('deal', id, { amount: money() });
  return backend;
}
