// PostGraphile 5 on the same PostgreSQL table, as the peer `npm run bench:depth` measures XOS
// against: its schema built from the database, its queries executed in this process by grafast
// (as XOS's are by graphql-js here), paging by its own cursors.
import { grafast } from 'postgraphile/grafast';
import { makePgService } from 'postgraphile/adaptors/pg';
import { PostGraphileAmberPreset } from 'postgraphile/presets/amber';
import pg from 'pg';
import { postgraphile } from 'postgraphile';

export interface Peer {
  /** Runs one query; throws on errors. */
  run(source: string, variables?: Record<string, unknown>): Promise<Record<string, unknown>>;
  release(): Promise<void>;
}

export async function startPostgraphile(connectionString: string): Promise<Peer> {
  // Its own pool, ended here: PostGraphile's release leaves a pool it did not make open.
  const pool = new pg.Pool({ connectionString });
  const pgService = makePgService({ pool, schemas: ['public'] });
  const pgl = postgraphile({ extends: [PostGraphileAmberPreset], pgServices: [pgService], grafast: { explain: false } });
  const { schema, resolvedPreset } = await pgl.getSchemaResult();
  return {
    async run(source, variables) {
      const result = await grafast({ schema, resolvedPreset, requestContext: {}, source, variableValues: variables });
      if (!('data' in result) || result.errors?.length) throw new Error(`PostGraphile: ${JSON.stringify((result as { errors?: unknown }).errors)}`);
      return result.data as Record<string, unknown>;
    },
    async release() {
      await pgl.release();
      await pool.end();
    },
  };
}
