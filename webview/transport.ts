// The webview's side of the Board transport: the only module that touches
// acquireVsCodeApi() and the window's message events.
import { MessageEndpoint } from '../src/board/protocol.ts';

interface VsCodeApi {
  postMessage(message: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

const api = acquireVsCodeApi();

export const hostEndpoint = new MessageEndpoint((message) => api.postMessage(message));

window.addEventListener('message', (event: MessageEvent) => hostEndpoint.receive(event.data));
