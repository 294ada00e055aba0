// What a store lends the team's users' statements (src/backend/people/users.ts): its dialect and a
// way to run one statement. Types only, so the storage interface stays free of Node imports.
import type { Dialect, Statement } from '../storage/sql.ts';

export interface PeopleSql {
  readonly kind: 'sqlite' | 'postgres';
  readonly dialect: Dialect;
  all(statement: Statement): Promise<Record<string, unknown>[]>;
}
