// One suite body run against the embedded backend on SQLite and on PostgreSQL: a SQLite file in a
// temporary folder, and a database of its own on a PostgreSQL server started for the suite.
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { Ast } from '../../src/ast/schema.ts';
import { startBackend, type Backend } from '../../src/backend/backend.ts';
import { startPostgres, type PostgresServer } from './postgres.ts';
import { tempDir } from './tmp.ts';

export function onBothStores(name: string, ast: Ast, seed: number, check: (backend: Backend) => Promise<void>): void {
  const database = name.toLowerCase().replace(/[^a-z0-9]+/g, '_');
  describe(name, () => {
    let pg: PostgresServer | undefined;
    after(async () => {
      await pg?.stop();
    });

    test('SQLite', async () => {
      await using dir = await tempDir(`xos-${database}`);
      const backend = await startBackend({ ast, dsn: `sqlite:${join(dir.path, 'xos.db')}`, seed });
      try {
        await check(backend);
      } finally {
        await backend.close();
      }
    });

    test('PostgreSQL', async () => {
      pg = await startPostgres();
      const backend = await startBackend({ ast, dsn: await pg.createDatabase(database.slice(0, 40)), seed });
      try {
        await check(backend);
      } finally {
        await backend.close();
      }
    });
  });
}
