// Workflow handles: how a client without an MCP session shows that a workflow step happened
// (for now: xos_schema was called). XOS mints a random handle, the client passes it back as the
// tool argument `handle`; what it proves, and for whom, stays here in memory. A handle carries
// nothing but randomness (no value, no record data), and a restart forgets every handle.
import { randomBytes } from 'node:crypto';

/** What a handle (or a conversation) can show happened; a later workflow rule adds its fact here. */
export interface WorkflowFacts {
  /** xos_schema was called. */
  readonly schema?: true;
}

export const SCHEMA_LOADED: WorkflowFacts = { schema: true };

/**
 * Whom a handle belongs to: the client (its name and the transport's identity, as the server
 * knows them; never a secret itself) and the conversation when the client names one.
 */
export interface HandleScope {
  readonly client: string;
  readonly conversation?: string;
}

export type HandleCheck =
  | { readonly status: 'ok'; readonly facts: WorkflowFacts }
  /** Never minted here, forgotten after a restart, or evicted to make room. */
  | { readonly status: 'unknown' }
  /** Unused for longer than the lifetime. */
  | { readonly status: 'expired' }
  /** Minted for another client or conversation. */
  | { readonly status: 'foreign' };

export interface WorkflowHandlesOptions {
  /** Most handles kept (and, separately, most conversations); the least recently used goes first. Default 1,000. */
  readonly maxEntries?: number;
  /** A handle (or conversation) unused this long is expired. Default 8 hours. */
  readonly idleMs?: number;
  /** The clock in milliseconds (tests turn it). */
  readonly now?: () => number;
}

export const HANDLE_PREFIX = 'xos_h_';
/** Longer than any handle XOS mints; the tools refuse a longer argument before it is looked up. */
export const HANDLE_MAX_LENGTH = 64;
const DEFAULT_MAX_ENTRIES = 1_000;
const DEFAULT_IDLE_MS = 8 * 60 * 60 * 1000;

interface Entry {
  readonly scope: HandleScope;
  facts: WorkflowFacts;
  readonly created: number;
  lastUsed: number;
}

/** One server's handles and the conversations it knows the facts of: bounded, in memory. */
export class WorkflowHandles {
  private readonly handles: BoundedEntries;
  private readonly conversations: BoundedEntries;
  private readonly now: () => number;

  constructor(options: WorkflowHandlesOptions = {}) {
    const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
    const idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
    if (!(maxEntries >= 1) || !(idleMs > 0)) throw new Error('workflow handles need room for one and a lifetime');
    this.now = options.now ?? Date.now;
    this.handles = new BoundedEntries(maxEntries, idleMs);
    this.conversations = new BoundedEntries(maxEntries, idleMs);
  }

  /** A new handle for `scope` that shows `facts`. */
  mint(scope: HandleScope, facts: WorkflowFacts = SCHEMA_LOADED): string {
    const handle = HANDLE_PREFIX + randomBytes(16).toString('base64url');
    const now = this.now();
    this.handles.put(handle, { scope: { ...scope }, facts: { ...facts }, created: now, lastUsed: now }, now);
    return handle;
  }

  /** What `handle` shows for a call of `scope`; a usable one counts as used now. */
  check(handle: string, scope: HandleScope): HandleCheck {
    const now = this.now();
    const found = this.handles.read(handle, now);
    if (found === 'unknown' || found === 'expired') return { status: found };
    if (!sameScope(found.scope, scope)) return { status: 'foreign' };
    this.handles.touch(handle, found, now);
    return { status: 'ok', facts: found.facts };
  }

  /** Remembers `facts` for the conversation `scope` names (nothing without one). */
  markConversation(scope: HandleScope, facts: WorkflowFacts = SCHEMA_LOADED): void {
    if (!scope.conversation) return;
    const key = conversationKey(scope);
    const now = this.now();
    const found = this.conversations.read(key, now);
    const known = typeof found === 'string' ? {} : found.facts;
    this.conversations.put(key, { scope: { ...scope }, facts: { ...known, ...facts }, created: now, lastUsed: now }, now);
  }

  /** The facts known of the conversation `scope` names; none without one, or once it expired. */
  conversationFacts(scope: HandleScope): WorkflowFacts {
    if (!scope.conversation) return {};
    const key = conversationKey(scope);
    const now = this.now();
    const found = this.conversations.read(key, now);
    if (typeof found === 'string') return {};
    this.conversations.touch(key, found, now);
    return found.facts;
  }

  /** Handles kept now (expired ones included until they are swept or looked up). */
  get size(): number {
    return this.handles.size;
  }
}

/** Entries in least-recently-used order (a Map keeps insertion order; a use moves one to the end). */
class BoundedEntries {
  private readonly entries = new Map<string, Entry>();
  private readonly max: number;
  private readonly idleMs: number;

  constructor(max: number, idleMs: number) {
    this.max = max;
    this.idleMs = idleMs;
  }

  get size(): number {
    return this.entries.size;
  }

  put(key: string, entry: Entry, now: number): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
    this.sweep(now);
    while (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }

  /** The live entry, or why there is none (an expired one is dropped on the way). */
  read(key: string, now: number): Entry | 'unknown' | 'expired' {
    const entry = this.entries.get(key);
    if (!entry) return 'unknown';
    if (now - entry.lastUsed >= this.idleMs) {
      this.entries.delete(key);
      return 'expired';
    }
    return entry;
  }

  touch(key: string, entry: Entry, now: number): void {
    entry.lastUsed = now;
    this.entries.delete(key);
    this.entries.set(key, entry);
  }

  /** Expired entries at the least recently used end go, so an idle server does not keep them. */
  private sweep(now: number): void {
    for (const [key, entry] of this.entries) {
      if (now - entry.lastUsed < this.idleMs) return;
      this.entries.delete(key);
    }
  }
}

function sameScope(a: HandleScope, b: HandleScope): boolean {
  return a.client === b.client && (a.conversation ?? '') === (b.conversation ?? '');
}

function conversationKey(scope: HandleScope): string {
  return JSON.stringify([scope.client, scope.conversation]);
}
