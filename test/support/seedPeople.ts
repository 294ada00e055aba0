// Many generated people for tests and benchmarks of large lists: `n` people of the demo CRM
// spread over 50 companies, in one seeding transaction through the backend's own storage.
import type { Backend } from '../../src/backend/backend.ts';
import { generateRecords } from '../../src/backend/seed/generate.ts';
import { seedStorage } from '../../src/backend/seed/seed.ts';

export async function seedPeople(backend: Backend, n: number): Promise<void> {
  const ast = backend.api.ast;
  const generated = generateRecords({ ...ast, entities: { company: ast.entities.company, person: ast.entities.person }, contexts: {} }, n, 7);
  const companies = generated.company.slice(0, 50);
  const people = generated.person.map((p, i) => ({ ...p, company: (i % companies.length) + 1 }));
  await seedStorage(backend.api.storage, backend.api.model, ast, { company: companies, person: people });
}
