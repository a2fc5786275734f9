import { parseChatWebviewState } from '../../core/chat/protocol/chatMessageValidation';
import type { ChatWebviewState, HostToWebview } from '../../core/chat/protocol/chatProtocol';
import { ChatApp } from './app';
import { HostConnection } from './hostConnection';
import { configureLocalization } from '../shared/localize';

/** Entry point of the chat webview bundle: wire the app to the host, then announce `ready`. */
function start(): void {
  const api = acquireVsCodeApi<ChatWebviewState>();
  // State written by an older version may have any shape: parse it instead of trusting the type.
  const state = parseChatWebviewState(api.getState() as unknown);
  const root = document.getElementById('chat-root');
  if (!root) throw new Error('chat-root element missing from the webview HTML');
  configureLocalization(root);
  const host = new HostConnection(api);
  const app = new ChatApp(root, host, api, state);
  window.addEventListener('message', (event: MessageEvent<HostToWebview>) => {
    // Messages come from the host only; anything without our protocol shape is ignored by handle().
    if (event.data && typeof event.data === 'object') app.handle(event.data);
  });
  host.ready(state);
}

start();
