// Unsaved Board work kept on disk: the loaded record with the person's edits and the agent's
// proposals, and the mail draft (and, in a file of its own, where the Board was), written atomically (a temporary file renamed over the last one)
// shortly after every change, so a crash of the extension host loses at most that moment.
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import type { BoardHistory, SavedHistory } from '../core/history.ts';
import type { BoardDraft, BoardState } from '../board/state.ts';

/** How long after a change the draft is written: edits older than twice this survive a crash. */
export const DRAFT_DELAY_MS = 250;
const FORMAT = 1;

export interface KeptDraft {
  readonly savedAt: string;
  readonly draft: BoardDraft;
}

export class DraftFile {
  readonly path: string;

  constructor(path: string) {
    this.path = path;
  }

  /** Replaces the kept draft in one step: readers see the old file or the new one, never a mix. */
  write(draft: BoardDraft): void {
    // Only unsaved work is worth keeping: a record without edits is just what is stored.
    if (draft.form.length === 0 && !draft.mail && !draft.grid) {
      this.clear();
      return;
    }
    writeAtomically(this.path, JSON.stringify({ format: FORMAT, savedAt: new Date().toISOString(), draft }));
  }

  /** The kept draft, or undefined when there is none or it cannot be read (a foreign or damaged file is set aside). */
  read(): KeptDraft | undefined {
    if (!existsSync(this.path)) return undefined;
    try {
      const kept = JSON.parse(readFileSync(this.path, 'utf8')) as { format?: unknown; savedAt?: unknown; draft?: BoardDraft };
      if (kept.format !== FORMAT || typeof kept.savedAt !== 'string' || !kept.draft || !Array.isArray(kept.draft.form)) throw new Error('not a Board draft');
      return { savedAt: kept.savedAt, draft: kept.draft };
    } catch {
      renameSync(this.path, `${this.path}.unreadable`);
      return undefined;
    }
  }

  clear(): void {
    rmSync(this.path, { force: true });
  }
}

/** Replaces `path` in one step: readers see the old file or the new one, never a mix; only the user can read it. */
function writeAtomically(path: string, text: string): void {
  const temporary = `${path}.${process.pid}.tmp`;
  const fd = openSync(temporary, 'w', 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, path);
}

/** Where the Board was: Back, Forward and the current list or record, kept like the draft (without a notice: it holds no unsaved work). */
export class HistoryFile {
  readonly path: string;

  constructor(path: string) {
    this.path = path;
  }

  write(history: SavedHistory): void {
    if (history.steps.length === 0) {
      this.clear();
      return;
    }
    writeAtomically(this.path, JSON.stringify({ format: FORMAT, history }));
  }

  /** The kept history, or undefined (a foreign or damaged file is set aside). */
  read(): SavedHistory | undefined {
    if (!existsSync(this.path)) return undefined;
    try {
      const kept = JSON.parse(readFileSync(this.path, 'utf8')) as { format?: unknown; history?: unknown };
      if (kept.format !== FORMAT || !isSavedHistory(kept.history)) throw new Error('not a Board history');
      return kept.history;
    } catch {
      renameSync(this.path, `${this.path}.unreadable`);
      return undefined;
    }
  }

  clear(): void {
    rmSync(this.path, { force: true });
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function isSavedHistory(v: unknown): v is SavedHistory {
  if (!isObject(v) || !Number.isInteger(v.index) || !Array.isArray(v.steps)) return false;
  return v.steps.every((step: unknown) => isObject(step) && typeof step.context === 'string' && (
    (step.kind === 'list' && isObject(step.origin) && typeof step.origin.selection === 'string')
    || (step.kind === 'detail' && typeof step.id === 'string' && isObject(step.record))));
}

interface KeepOptions {
  readonly delayMs?: number;
  readonly onError?: (error: unknown) => void;
}

interface Keeper {
  flush(): void;
  dispose(): void;
}

/** Calls `write` DRAFT_DELAY_MS after each change (one write for a burst of changes), and once more on dispose if one is due. */
function keepOnChange(onChange: (listener: () => void) => { dispose(): void }, write: () => void, { delayMs = DRAFT_DELAY_MS, onError = () => {} }: KeepOptions): Keeper {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    try {
      write();
    } catch (error) {
      onError(error);
    }
  };
  const subscription = onChange(() => {
    if (!timer) timer = setTimeout(flush, delayMs);
  });
  return {
    flush,
    dispose: () => {
      subscription.dispose();
      if (timer) flush();
    },
  };
}

/** Writes the Board's draft after each change. */
export function keepDrafts(state: BoardState, file: DraftFile, options: KeepOptions = {}): Keeper {
  return keepOnChange((listener) => state.onChange(listener), () => file.write(state.draft()), options);
}

/** Writes where the Board was after each step (Back, Forward, a new list or record). */
export function keepHistory(history: BoardHistory, file: HistoryFile, options: KeepOptions = {}): Keeper {
  return keepOnChange((listener) => history.onChange(listener), () => file.write(history.saved()), options);
}
