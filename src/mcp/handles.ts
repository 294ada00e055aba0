// Workflow handles: how a client without an MCP session shows that a workflow step happened
// (for now: xos_schema was called). A handle is self-contained and signed: the facts it shows,
// when it expires and a tag of whom it was given to, sealed with HMAC-SHA256 under a random key
// of this store (one per serving entry and process). Nothing is kept per handle, so no client can
// make another client's handles fail by asking for many; a restart (a new key) makes every old
// handle unknown. A handle carries no value, no record data and no word of its scope.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** What a handle (or a conversation) can show happened; a later workflow rule adds its fact here. */
export interface WorkflowFacts {
  /** xos_schema was called. */
  readonly schema?: true;
}

export const SCHEMA_LOADED: WorkflowFacts = { schema: true };

/**
 * Whom a handle belongs to: the credential the request came with (as the serving entry names it;
 * never a secret itself), the client (its name and the transport, as the server knows them) and
 * the conversation when the client names one.
 */
export interface HandleScope {
  readonly credential?: string;
  readonly client: string;
  readonly conversation?: string;
}

export type HandleCheck =
  | { readonly status: 'ok'; readonly facts: WorkflowFacts }
  /** Never minted here (not signed with this store's key): forged, altered, or from before a restart. */
  | { readonly status: 'unknown' }
  /** Older than the lifetime. */
  | { readonly status: 'expired' }
  /** Minted for another credential, client or conversation. */
  | { readonly status: 'foreign' };

export interface WorkflowHandlesOptions {
  /**
   * Most conversations whose facts are kept per credential; the least recently used of that
   * credential goes first, so one credential naming many conversations never pushes out
   * another's. Default 1,000.
   */
  readonly maxEntries?: number;
  /** Most credentials whose conversations are kept; the least recently used goes first. Default 256. */
  readonly maxCredentials?: number;
  /** A handle is valid this long after it was minted, and a conversation unused this long is forgotten. Default 8 hours. */
  readonly idleMs?: number;
  /** The clock in milliseconds (tests turn it). */
  readonly now?: () => number;
}

export const HANDLE_PREFIX = 'xos_h_';
/** Longer than any handle XOS mints (42 characters); the tools refuse a longer argument before it is checked. */
export const HANDLE_MAX_LENGTH = 64;
const DEFAULT_MAX_ENTRIES = 1_000;
const DEFAULT_MAX_CREDENTIALS = 256;
const DEFAULT_IDLE_MS = 8 * 60 * 60 * 1000;

/** A handle's bytes: facts (1), expiry in seconds since the epoch (4), scope tag (6), then the seal (16) over those 11. */
const FACTS_BYTES = 1;
const EXPIRY_BYTES = 4;
const TAG_BYTES = 6;
const SEAL_BYTES = 16;
const SEALED_BYTES = FACTS_BYTES + EXPIRY_BYTES + TAG_BYTES;
const HANDLE_BYTES = SEALED_BYTES + SEAL_BYTES;
const SCHEMA_BIT = 1;

interface Entry {
  readonly scope: HandleScope;
  facts: WorkflowFacts;
  readonly created: number;
  lastUsed: number;
}

/** One serving entry's handle key and the conversations it knows the facts of (bounded, in memory). */
export class WorkflowHandles {
  private readonly key = randomBytes(32);
  /** The conversations of each credential, apart (credentials in least-recently-used order). */
  private readonly credentials = new Map<string, BoundedEntries>();
  private readonly maxEntries: number;
  private readonly maxCredentials: number;
  private readonly lifetimeMs: number;
  private readonly now: () => number;

  constructor(options: WorkflowHandlesOptions = {}) {
    const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
    const maxCredentials = options.maxCredentials ?? DEFAULT_MAX_CREDENTIALS;
    const idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
    if (!(maxEntries >= 1) || !(maxCredentials >= 1) || !(idleMs > 0)) throw new Error('workflow handles need room for one and a lifetime');
    this.now = options.now ?? Date.now;
    this.lifetimeMs = idleMs;
    this.maxEntries = maxEntries;
    this.maxCredentials = maxCredentials;
  }

  /** A new handle for `scope` that shows `facts`, valid for the lifetime from now. */
  mint(scope: HandleScope, facts: WorkflowFacts = SCHEMA_LOADED): string {
    const sealed = Buffer.alloc(SEALED_BYTES);
    sealed.writeUInt8(facts.schema ? SCHEMA_BIT : 0, 0);
    sealed.writeUInt32BE(Math.min(0xffff_ffff, Math.ceil((this.now() + this.lifetimeMs) / 1000)), FACTS_BYTES);
    this.scopeTag(scope).copy(sealed, FACTS_BYTES + EXPIRY_BYTES);
    return HANDLE_PREFIX + Buffer.concat([sealed, this.seal(sealed)]).toString('base64url');
  }

  /** What `handle` shows for a call of `scope`. */
  check(handle: string, scope: HandleScope): HandleCheck {
    if (!handle.startsWith(HANDLE_PREFIX) || handle.length > HANDLE_MAX_LENGTH) return { status: 'unknown' };
    const bytes = Buffer.from(handle.slice(HANDLE_PREFIX.length), 'base64url');
    // Base64url decoding skips what it cannot read: only the exact text XOS minted counts.
    if (bytes.length !== HANDLE_BYTES || bytes.toString('base64url') !== handle.slice(HANDLE_PREFIX.length)) return { status: 'unknown' };
    const sealed = bytes.subarray(0, SEALED_BYTES);
    if (!timingSafeEqual(bytes.subarray(SEALED_BYTES), this.seal(sealed))) return { status: 'unknown' };
    if (this.now() >= sealed.readUInt32BE(FACTS_BYTES) * 1000) return { status: 'expired' };
    if (!timingSafeEqual(sealed.subarray(FACTS_BYTES + EXPIRY_BYTES), this.scopeTag(scope))) return { status: 'foreign' };
    return { status: 'ok', facts: (sealed.readUInt8(0) & SCHEMA_BIT) !== 0 ? SCHEMA_LOADED : {} };
  }

  /** Remembers `facts` for the conversation `scope` names (nothing without one). */
  markConversation(scope: HandleScope, facts: WorkflowFacts = SCHEMA_LOADED): void {
    if (!scope.conversation) return;
    const key = conversationKey(scope);
    const now = this.now();
    const conversations = this.conversationsOf(scope, true);
    const found = conversations.read(key, now);
    const known = typeof found === 'string' ? {} : found.facts;
    conversations.put(key, { scope: { ...scope }, facts: { ...known, ...facts }, created: now, lastUsed: now }, now);
  }

  /** The facts known of the conversation `scope` names; none without one, or once it expired. */
  conversationFacts(scope: HandleScope): WorkflowFacts {
    if (!scope.conversation) return {};
    const key = conversationKey(scope);
    const now = this.now();
    const conversations = this.conversationsOf(scope, false);
    const found = conversations?.read(key, now) ?? 'unknown';
    if (typeof found === 'string') return {};
    conversations!.touch(key, found, now);
    return found.facts;
  }

  /** Conversations whose facts are kept now (handles take no room: they are not kept). */
  get size(): number {
    let size = 0;
    for (const conversations of this.credentials.values()) size += conversations.size;
    return size;
  }

  /** The conversations of the scope's credential (made when `make`), moved to the most recently used end. */
  private conversationsOf(scope: HandleScope, make: true): BoundedEntries;
  private conversationsOf(scope: HandleScope, make: false): BoundedEntries | undefined;
  private conversationsOf(scope: HandleScope, make: boolean): BoundedEntries | undefined {
    const credential = scope.credential ?? '';
    let conversations = this.credentials.get(credential);
    if (!conversations && !make) return undefined;
    conversations ??= new BoundedEntries(this.maxEntries, this.lifetimeMs);
    this.credentials.delete(credential);
    this.credentials.set(credential, conversations);
    while (this.credentials.size > this.maxCredentials) this.credentials.delete(this.credentials.keys().next().value!);
    return conversations;
  }

  private seal(sealed: Buffer): Buffer {
    return createHmac('sha256', this.key).update('xos handle\0').update(sealed).digest().subarray(0, SEAL_BYTES);
  }

  /** Whom a handle is for, as a keyed tag: equal scopes, equal tags; it tells nothing of the scope without the key. */
  private scopeTag(scope: HandleScope): Buffer {
    const named = JSON.stringify([scope.credential ?? null, scope.client, scope.conversation ?? null]);
    return createHmac('sha256', this.key).update('xos handle scope\0').update(named).digest().subarray(0, TAG_BYTES);
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

function conversationKey(scope: HandleScope): string {
  return JSON.stringify([scope.credential ?? null, scope.client, scope.conversation]);
}
