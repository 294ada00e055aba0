// Watches whether the data source answers: every minute while it does, every few seconds while
// it does not, so the status bar and the Board say at once what happened and clear by themselves
// when the fault ends.
import type { DsnStatus } from './domain.ts';

export interface ConnectionWatchOptions {
  /** Asks the data source; undefined when there is no backend yet. */
  readonly status: () => Promise<DsnStatus | undefined>;
  /** Called with every answer; `changed` when reachability flipped. */
  readonly onStatus: (status: DsnStatus | undefined, changed: boolean) => void;
  readonly healthyMs?: number;
  readonly failingMs?: number;
}

export class ConnectionWatch {
  private readonly options: ConnectionWatchOptions;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private reachable: boolean | undefined;
  private stopped = false;
  private running: Promise<void> | undefined;

  constructor(options: ConnectionWatchOptions) {
    this.options = options;
  }

  /** Checks now (and plans the next check); concurrent calls share one check. */
  check(): Promise<void> {
    this.running ??= this.checkNow().finally(() => { this.running = undefined; });
    return this.running;
  }

  private async checkNow(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    let status: DsnStatus | undefined;
    try {
      status = await this.options.status();
    } catch {
      status = undefined;
    }
    if (this.stopped) return;
    const reachable = status?.ok === true;
    const changed = this.reachable !== undefined && this.reachable !== reachable;
    this.reachable = reachable;
    this.options.onStatus(status, changed);
    const next = reachable ? this.options.healthyMs ?? 60_000 : this.options.failingMs ?? 5_000;
    this.timer = setTimeout(() => void this.check(), next);
    this.timer.unref?.();
  }

  dispose(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }
}
