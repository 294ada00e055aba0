// The webview's side of the Board transport: the only module that touches
// acquireVsCodeApi() and the window's message events. main.ts connects once and gives
// the endpoint to the Board's store; importing this module does nothing by itself.
import { MessageEndpoint } from '../src/board/protocol.ts';

interface VsCodeApi {
  postMessage(message: unknown): void;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

/** The endpoint to the host, over the VS Code API (VS Code allows one acquireVsCodeApi() per page: call this once). */
export function connectHost(): MessageEndpoint {
  const api = acquireVsCodeApi();
  // The Board's content lives in the host; a state of its own only tells VS Code to bring the
  // tab back after a window reload (the host's serializer then fills it).
  api.setState({ board: 1 });
  const endpoint = new MessageEndpoint((message) => api.postMessage(message));
  window.addEventListener('message', (event: MessageEvent) => endpoint.receive(event.data));
  return endpoint;
}
