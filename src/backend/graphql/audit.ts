// The audit trail in the API: `xos_audit` (per record, per entity or overall,
// newest first, paged), `xos_audit_count`, and `xos_audit_mail` for a sent mail.
// Who writes (agent, board, api) and the approval travel in the request's
// `extensions.xos`; the storage writes each entry in the write's transaction.
// The claim is taken as it is only from XOS's own front ends: in-process calls
// (the embedded backend) and, over HTTP, requests that carry xos-server's
// front-end token (src/backend/http.ts). Any other HTTP client's claim is
// recorded as `api` without approval (`unprovenAuditClaim`).
import {
  GraphQLError, GraphQLID, GraphQLInt, GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLScalarType, GraphQLString,
  type GraphQLFieldConfigMap,
} from 'graphql';
import { AUDIT_PATHS, MAX_APPROVAL_LENGTH, type AuditEntry, type AuditMeta, type AuditPath } from '../storage/audit.ts';
import { badInput } from './errors.ts';
import type { RequestContext } from './context.ts';

export const MAX_AUDIT_PAGE = 500;

/** A stored value as it is: string, number, boolean or null. */
const XosValue = new GraphQLScalarType({
  name: 'XosValue',
  description: 'A field value as stored: a string, a number, a boolean or null.',
  serialize: (value) => value,
  parseValue: () => {
    throw new GraphQLError('XosValue is output only', { extensions: { code: 'BAD_USER_INPUT' } });
  },
});

const AuditChangeType = new GraphQLObjectType({
  name: 'XosAuditChange',
  fields: {
    field: { type: new GraphQLNonNull(GraphQLString) },
    from: { type: XosValue },
    to: { type: XosValue },
  },
});

const AuditEntryType = new GraphQLObjectType<AuditEntry>({
  name: 'XosAuditEntry',
  description: 'One write (create, update, delete) or one sent mail.',
  fields: {
    id: { type: new GraphQLNonNull(GraphQLID), resolve: (e) => String(e.id) },
    at: { type: new GraphQLNonNull(GraphQLString), description: 'When, ISO 8601 UTC.' },
    path: {
      type: new GraphQLNonNull(GraphQLString),
      description: 'agent (an MCP tool) or board (the person), as said by one of XOS\'s own front ends (in-process, or over HTTP with the front-end token); api: any other client.',
    },
    action: { type: new GraphQLNonNull(GraphQLString), description: 'create, update, delete or mail.' },
    entity: { type: GraphQLString },
    record_id: { type: GraphQLID, resolve: (e) => e.recordId },
    version_from: { type: GraphQLInt, resolve: (e) => e.versionFrom },
    version_to: { type: GraphQLInt, resolve: (e) => e.versionTo },
    batch: { type: GraphQLString, description: 'The batch the write belongs to: every record of one update_<entity>_many shares it; null for single writes and mails.', resolve: (e) => e.batch ?? null },
    approval: { type: GraphQLString, description: 'The confirmation that allowed it, as said by one of XOS\'s own front ends; null for api writes.' },
    person: {
      type: GraphQLString,
      description: 'The person who wrote: proven by their own token (xos-server users), or named by the embedded front end in their own process; null when not known.',
      resolve: (e) => e.person ?? null,
    },
    changes: {
      type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(AuditChangeType))),
      resolve: (e) => Object.entries(e.changes).map(([field, change]) => ({ field, ...change })),
    },
  },
});

/** The query fields `xos_audit` and `xos_audit_count`, and the mutation `xos_audit_mail`. */
export function auditFields(): { query: GraphQLFieldConfigMap<unknown, RequestContext>; mutation: GraphQLFieldConfigMap<unknown, RequestContext> } {
  const filterArgs = { entity: { type: GraphQLString }, id: { type: GraphQLID }, batch: { type: GraphQLString, description: 'The entries of one batch write (update_<entity>_many).' } };
  const filter = (args: Record<string, unknown>) => ({
    ...(typeof args.entity === 'string' ? { entity: args.entity } : {}),
    ...(args.id !== undefined && args.id !== null ? { recordId: String(args.id) } : {}),
    ...(typeof args.batch === 'string' ? { batch: args.batch } : {}),
  });
  return {
    query: {
      xos_audit: {
        type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(AuditEntryType))),
        description: 'The audit trail, newest first: of one record (entity and id), of an entity, or everything.',
        args: { ...filterArgs, limit: { type: GraphQLInt, defaultValue: 50 }, offset: { type: GraphQLInt, defaultValue: 0 } },
        resolve: (_root, args, ctx) => {
          const limit = args.limit as number;
          const offset = args.offset as number;
          if (limit < 0 || limit > MAX_AUDIT_PAGE) throw badInput(`limit must be between 0 and ${MAX_AUDIT_PAGE}; page with offset`, 'limit');
          if (offset < 0) throw badInput('offset must not be negative', 'offset');
          return ctx.storage.auditEntries({ ...filter(args), limit, offset });
        },
      },
      xos_audit_count: {
        type: new GraphQLNonNull(GraphQLInt),
        args: filterArgs,
        resolve: (_root, args, ctx) => ctx.storage.auditCount(filter(args)),
      },
    },
    mutation: {
      xos_audit_mail: {
        type: new GraphQLNonNull(AuditEntryType),
        description: 'Records a sent mail (recipient, subject, message id) with the request\'s path and approval.',
        args: { to: { type: new GraphQLNonNull(GraphQLString) }, subject: { type: new GraphQLNonNull(GraphQLString) }, message_id: { type: new GraphQLNonNull(GraphQLString) } },
        resolve: (_root, args, ctx) => {
          const text = (name: string, max: number) => {
            const value = args[name] as string;
            if (value.length > max) throw badInput(`${name} is longer than ${max} characters`, name);
            return value;
          };
          return ctx.storage.recordAudit({
            path: ctx.audit?.path ?? 'api', action: 'mail', entity: null, recordId: null, versionFrom: null, versionTo: null,
            changes: { to: { from: null, to: text('to', 2000) }, subject: { from: null, to: text('subject', 998) }, message_id: { from: null, to: text('message_id', 998) } },
            approval: ctx.audit?.approval ?? null,
            ...(ctx.audit?.person !== undefined ? { person: ctx.audit.person } : {}),
          });
        },
      },
    },
  };
}

/** The request's `extensions.xos` as audit meta; a malformed one is the client's error. */
export function auditMetaOf(extensions: unknown): AuditMeta | undefined {
  if (extensions === undefined || extensions === null) return undefined;
  if (typeof extensions !== 'object' || Array.isArray(extensions)) throw badInput('"extensions" must be an object', 'extensions');
  const xos = (extensions as Record<string, unknown>).xos;
  if (xos === undefined) return undefined;
  if (xos === null || typeof xos !== 'object' || Array.isArray(xos)) throw badInput('"extensions.xos" must be an object like {"path": "board", "approval": "..."}', 'extensions');
  const { path, approval } = xos as Record<string, unknown>;
  if (!AUDIT_PATHS.includes(path as AuditPath)) throw badInput(`"extensions.xos.path" must be one of ${AUDIT_PATHS.join(', ')}`, 'extensions');
  if (approval !== undefined && (typeof approval !== 'string' || approval.length > MAX_APPROVAL_LENGTH)) {
    throw badInput(`"extensions.xos.approval" must be a text of at most ${MAX_APPROVAL_LENGTH} characters`, 'extensions');
  }
  return { path: path as AuditPath, ...(approval === undefined ? {} : { approval: approval as string }) };
}

/**
 * The request's extensions with its audit claim made an `api` claim without approval: what is
 * recorded for an HTTP client that did not prove it is one of XOS's own front ends. XOS vouches
 * only for the approvals it asked for itself; a client's own approval note belongs in its own records.
 * A malformed claim is left as it is, so it is refused like before (a plain client sees the same errors).
 */
export function unprovenAuditClaim(extensions: Record<string, unknown> | null | undefined): Record<string, unknown> | null | undefined {
  let meta: AuditMeta | undefined;
  try {
    meta = auditMetaOf(extensions);
  } catch {
    return extensions;
  }
  if (!meta) return extensions;
  const api: AuditMeta = { path: 'api' };
  return { ...extensions, xos: api };
}
