// What one GraphQL request carries to its resolvers: the storage, the request's loaders and who
// writes. Its own module, so the resolvers' modules (audit, sort hints) need not import the schema.
import type { Storage } from '../storage/types.ts';
import type { AuditMeta } from '../storage/audit.ts';
import { RowLoaders } from './rowLoader.ts';

export interface RequestContext {
  readonly storage: Storage;
  readonly loaders: RowLoaders;
  /** Who writes and with which approval (the request's `extensions.xos`), for the audit trail. */
  readonly audit?: AuditMeta;
  /** What the request's writes made that its answer tells in `extensions.xos` (a batch write's audit batch). */
  readonly made: { batch?: string };
}

export function createRequestContext(storage: Storage, audit?: AuditMeta): RequestContext {
  return { storage, loaders: new RowLoaders(), made: {}, ...(audit ? { audit } : {}) };
}
