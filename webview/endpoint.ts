// What the webview's state uses of the host connection (one type, so the store's parts need not import the store).
import type * as protocol from '../src/board/protocol.ts';

/** What the store uses of the host connection: protocol.ts's MessageEndpoint (transport.ts makes it), or a test's fake host. */
export type BoardEndpoint = Pick<protocol.MessageEndpoint, 'notify' | 'request' | 'onNotification' | 'onRequest'>;
