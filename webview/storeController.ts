// How a part of the Board reaches the Board's store: the root <xos-board> provides it
// (boardStoreContext, @lit/context), each part takes it from the element tree with a
// StoreController, which also subscribes the part to the topics it reads while it is
// connected. No part imports a store: main.ts makes the one store and gives it to the root.
import { ContextConsumer, createContext } from '@lit/context';
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { BoardStore, Topic } from './state.ts';

/** The Board's store in the element tree; undefined until main.ts gave the root one. */
export const boardStoreContext = createContext<BoardStore | undefined>(Symbol('xos.boardStore'));

/** A Lit element, as far as the controller uses it. */
export type StoreHost = ReactiveControllerHost & HTMLElement;

export class StoreController implements ReactiveController {
  private readonly host: StoreHost;
  private readonly topics: readonly Topic[];
  private readonly onChange: (() => void) | undefined;
  private current: BoardStore | undefined;
  private unsubscribe: (() => void) | undefined;
  private connected = false;

  /**
   * `topics`: what the part reads; a change of one updates it (after `onChange`, for a part
   * that does more than render again). The store comes from the nearest provider above.
   */
  constructor(host: StoreHost, topics: readonly Topic[], onChange?: () => void) {
    this.host = host;
    this.topics = topics;
    this.onChange = onChange;
    // Added before this controller, so the store is known when hostConnected subscribes. It asks
    // on every connect and follows the provider should the root get another store.
    new ContextConsumer(host, { context: boardStoreContext, subscribe: true, callback: (store) => this.setStore(store) });
    host.addController(this);
  }

  /** The Board's store. Parts render only inside <xos-board>, which provides it before they connect. */
  get store(): BoardStore {
    if (!this.current) throw new Error(`<${this.host.localName}> has no Board store: it works only inside <xos-board>, which provides one`);
    return this.current;
  }

  /** Uses this store from now on; the root calls it with its own (a provider does not answer its own element). */
  setStore(store: BoardStore | undefined): void {
    if (store === this.current) return;
    this.stopListening();
    this.current = store;
    if (this.connected) this.listen();
    this.host.requestUpdate();
  }

  hostConnected(): void {
    this.connected = true;
    this.listen();
  }

  hostDisconnected(): void {
    this.connected = false;
    this.stopListening();
  }

  private listen(): void {
    if (!this.current || this.unsubscribe) return;
    this.unsubscribe = this.current.subscribe(this.topics, () => {
      this.onChange?.();
      this.host.requestUpdate();
    });
  }

  private stopListening(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }
}
