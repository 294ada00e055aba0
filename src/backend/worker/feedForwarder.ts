// The worker's side of the embedded backend's change feed (src/graphql/workerBackend.ts has the other).
import { threadId } from 'node:worker_threads';
import type { ChangeHub } from '../changes/hub.ts';
import type { FromWorker } from './protocol.ts';

/** The storage's change feed, as messages to the front end while it listens; its announcements the other way. */
export class FeedForwarder {
  readonly #hub: ChangeHub;
  readonly #person: string;
  /** This front end among every process on the database. */
  readonly #client = `${process.pid}-${threadId}`;
  #stop: (() => void) | undefined;

  readonly #send: (message: FromWorker) => void;

  constructor(hub: ChangeHub, send: (message: FromWorker) => void, person: unknown) {
    this.#hub = hub;
    this.#send = send;
    this.#person = typeof person === 'string' && person !== '' ? person : 'someone';
  }

  listen(on: boolean): void {
    if (on && !this.#stop && this.#hub.available) {
      this.#stop = this.#hub.subscribe(this.#client, ({ cursor: _cursor, ...event }) => this.#send({ kind: 'feed_event', event }));
      void this.#hub.ready().then(() => this.#send({ kind: 'feed_event', event: { kind: 'connection', live: true, caughtUp: 0 } }));
    } else if (!on) {
      this.#stop?.();
      this.#stop = undefined;
    }
  }

  announce(open: Parameters<ChangeHub['announce']>[2]): void {
    this.#hub.announce(this.#client, this.#person, open).catch(() => undefined);
  }
}
