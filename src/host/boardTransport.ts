// The host's side of the Board transport: the only module that touches
// webview.postMessage and onDidReceiveMessage.
import * as vscode from 'vscode';
import { MessageEndpoint } from '../board/protocol.ts';

export function connectWebview(webview: vscode.Webview): { endpoint: MessageEndpoint; disposable: vscode.Disposable } {
  const endpoint = new MessageEndpoint((message) => {
    // A hidden webview drops messages; the ready handshake re-sends what it missed.
    void webview.postMessage(message).then(undefined, () => {});
  });
  const disposable = webview.onDidReceiveMessage((message: unknown) => endpoint.receive(message));
  return { endpoint, disposable };
}
