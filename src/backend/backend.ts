// Assembles a running XOS backend from an AST and a DSN: open the storage,
// migrate the tables, optionally seed, and build the API. The CLI, the tests
// and the extension's embedded backend all start it this way.
import type { Ast } from '../ast/schema.ts';
import { createXosApi, type XosApi } from './graphql/api.ts';
import { openStorage } from './storage/open.ts';
import type { MigrationReport } from './storage/types.ts';
import { generateRecords } from './seed/generate.ts';
import { seedStorage } from './seed/seed.ts';
import { buildModel } from './model.ts';
import { withRights } from './rights.ts';

export interface BackendOptions {
  readonly ast: Ast;
  readonly dsn: string;
  /** true: the AST's `data` section; a number: that many generated records per entity. */
  readonly seed?: boolean | number;
  readonly statementTimeoutMs?: number;
  readonly maxDepth?: number;
  readonly onInternalError?: (error: unknown) => void;
}

export interface Backend {
  readonly api: XosApi;
  readonly migration: MigrationReport;
  /** rows inserted per entity by seeding (empty when nothing was seeded). */
  readonly seeded: Record<string, number>;
  close(): Promise<void>;
}

export async function startBackend(options: BackendOptions): Promise<Backend> {
  // An app on the database's own tables never makes a new, empty database of a mistyped path.
  const mustExist = Object.values(options.ast.entities).some((entity) => entity.table !== undefined);
  const storage = await openStorage(options.dsn, { statementTimeoutMs: options.statementTimeoutMs, mustExist });
  try {
    // On the person's own tables, what the role may not do is read-only before anyone is served.
    const ast = withRights(options.ast, await storage.rights(buildModel(options.ast)));
    const api = createXosApi(ast, storage, { maxDepth: options.maxDepth, onInternalError: options.onInternalError });
    const migration = await storage.migrate(api.model);
    let seeded: Record<string, number> = {};
    if (options.seed !== undefined && options.seed !== false) {
      const data = typeof options.seed === 'number' ? generateRecords(options.ast, options.seed) : options.ast.data ?? {};
      seeded = await seedStorage(storage, api.model, options.ast, data);
    }
    return { api, migration, seeded, close: () => storage.close() };
  } catch (e) {
    await storage.close().catch(() => {});
    throw e;
  }
}
