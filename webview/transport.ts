// The webview's side of the Board transport: the only module that touches
// acquireVsCodeApi() and the window's message events.
import { MessageEndpoint } from '../src/board/protocol.ts';

interface VsCodeApi {
  postMessage(message: unknown): void;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

const api = acquireVsCodeApi();
// The Board's content lives in the host; a state of its own only tells VS Code to bring the
// tab back after a window reload (the host's serializer then fills it).
api.setState({ board: 1 });

export const hostEndpoint = new MessageEndpoint((message) => api.postMessage(message));

window.addEventListener('message', (event: MessageEvent) => hostEndpoint.receive(event.data));
