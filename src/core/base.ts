// What the use cases share: their dependencies and the reads of a stored record they all
// make. The use cases themselves: show.ts (a query's result, given JSON, a row's record),
// propose.ts (the agent's proposed changes), save.ts (the form); their results are data
// (outcomes.ts), worded by the MCP tools and the Board. No MCP, no VS Code.
import type { Ast, ContextDef } from '../ast/schema.ts';
import { displayFields, displayName } from '../ast/display.ts';
import { fieldDef, ownValue } from '../ast/lookup.ts';
import { canonicalValue } from '../ast/values.ts';
import { appModel, type ContextModel } from '../ast/appModel.ts';
import { buildDetailQuery, buildRefNameQuery } from '../graphql/requests.ts';
import type { BatchSaved, Created, Saved } from './outcomes.ts';
import type { PreparedWrite } from './boundWrites.ts';
import type { MailSendDeps } from './mailSend.ts';
import type { Board, BoardRecord, BoardSnapshot, Confirmer, GraphQLResult, XosClient } from './domain.ts';

/** What the use cases need; the MCP tools' dependencies are a superset. */
export interface CoreDeps {
  readonly client: XosClient;
  readonly board: Board;
  readonly confirmer: Confirmer;
  /** The Board's locale; the AST's default when absent. */
  readonly locale?: string;
  /** Told after a save was stored (the host's "saved" notification offers Undo). */
  readonly onSaved?: (saved: SavedRecord, outcome: Saved) => void;
  /** Told after a reviewed batch was stored (the host's notification offers Undo of the whole batch). */
  readonly onBatchSaved?: (outcome: BatchSaved) => void;
  /**
   * Asked just before the Board's own Save writes what the Board shows (the person confirmed it):
   * the pending approvals asked from that review or form are decided by this Save
   * (src/board/boardDecisions.ts); the answer is told whether it was written.
   */
  readonly boardWriting?: () => Promise<BoardWrite | undefined>;
  /** The Board's own send takes the stored approvals of exactly that mail (mailSend.ts `claimSend`). */
  readonly boardSending?: MailSendDeps['claimSend'];
}

/** A Save of the Board under way that decides pending approvals: told its end, exactly once. */
export interface BoardWrite {
  /** The stored approvals this write decides (their ids go into its audit text). */
  readonly approvals: readonly string[];
  /** Written: `prepared` is what was written, `outcome` what it came to. */
  written(prepared: PreparedWrite, outcome: Saved | BatchSaved | Created): Promise<void>;
  /** Not written (refused, a conflict, no answer): the approvals wait again. */
  notWritten(): Promise<void>;
}

/** A stored save: the record and the version it produced (its audit entry's `version_to`). */
export interface SavedRecord {
  readonly entity: string;
  readonly id: string;
  readonly version: number;
}

/** Whether the Board holds work that is not stored: an unsaved form, or a review of many changes. */
export function hasUnsavedWork(snapshot: BoardSnapshot): boolean {
  return hasUnsavedForm(snapshot) || snapshot.kind === 'review' || (snapshot.gridEdits ?? 0) > 0;
}

/** Whether the Board's form holds work that is not stored: the person's edits, the agent's proposals, open conflicts. */
export function hasUnsavedForm(snapshot: BoardSnapshot): boolean {
  return snapshot.kind === 'detail'
    && (Object.keys(snapshot.pending).length > 0 || (snapshot.edited?.length ?? 0) > 0 || Object.keys(snapshot.conflicts ?? {}).length > 0);
}

/** The context as the Board shows it, in the deps' locale. */
export function contextModel(deps: CoreDeps, context: string): ContextModel {
  const ast = deps.client.ast();
  return appModel(ast, deps.locale ?? ast.locales[0]).context(context)!;
}

/** A loaded row without its `version`, and the version. */
export function withoutVersion(row: BoardRecord): { record: BoardRecord; version: number } {
  const { version, ...record } = row;
  return { record, version: version as number };
}

/** The name a loaded related record of `entity` carries (`{ id, first_name, last_name }`: display.ts), if any. */
export function relatedName(ast: Ast, entity: string, value: unknown): string | undefined {
  if (!value || typeof value !== 'object') return undefined;
  return displayName(ast, entity, value as Record<string, unknown>);
}

/** The name of the related record `id`, read through its entity's detail context (the id as a variable). */
export async function refName(ast: Ast, deps: Pick<CoreDeps, 'client'>, entity: string, id: unknown): Promise<string | undefined> {
  if (id === null || id === undefined) return undefined;
  const [context] = Object.entries(ast.contexts).find(([, c]) => c.kind === 'detail' && c.entity === entity) ?? [];
  const fields = displayFields(ast, entity);
  if (!context || fields.length === 0) return undefined;
  const request = buildRefNameQuery(ast, context, fields, String(id));
  const result = await deps.client.run(request.query, request.variables);
  return relatedName(ast, entity, result.data?.[request.root]);
}

export function withoutUndefined<T extends Record<string, unknown>>(object: T): Partial<T> {
  return Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export function storedValue(ast: Ast, context: ContextDef, field: string, record: BoardRecord): unknown {
  const value = ownValue(record, field) ?? null;
  try {
    return canonicalValue(context.entity, field, fieldDef(ast, context.entity, field)!, value);
  } catch {
    // A stored value the AST no longer accepts still differs from any valid new one.
    return value;
  }
}

/** The stored record and its version, without changing the Board. */
export async function readStored(deps: CoreDeps, ast: Ast, contextName: string, id: string): Promise<{ record: BoardRecord; version: number } | undefined> {
  const request = buildDetailQuery(ast, contextName, id);
  const result: GraphQLResult = await deps.client.run(request.query, request.variables);
  if (result.errors?.length) throw new Error(`reading ${contextName} ${id} back failed: ${result.errors[0].message}`);
  const row = result.data?.[request.root] as BoardRecord | null | undefined;
  return row ? withoutVersion(row) : undefined;
}
