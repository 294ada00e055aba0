// Unsaved Board work kept on disk: the loaded record with the person's edits and the agent's
// proposals, and the mail draft, written atomically (a temporary file renamed over the last one)
// shortly after every change, so a crash of the extension host loses at most that moment.
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import type { BoardDraft, BoardState } from './state.ts';

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
    if (draft.form.length === 0 && !draft.mail) {
      this.clear();
      return;
    }
    const temporary = `${this.path}.${process.pid}.tmp`;
    const fd = openSync(temporary, 'w', 0o600);
    try {
      writeSync(fd, JSON.stringify({ format: FORMAT, savedAt: new Date().toISOString(), draft }));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, this.path);
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

/** Writes the Board's draft DRAFT_DELAY_MS after each change (one write for a burst of changes). */
export function keepDrafts(state: BoardState, file: DraftFile, { delayMs = DRAFT_DELAY_MS, onError = (_error: unknown) => {} } = {}): { flush(): void; dispose(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    try {
      file.write(state.draft());
    } catch (error) {
      onError(error);
    }
  };
  const subscription = state.onChange(() => {
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
