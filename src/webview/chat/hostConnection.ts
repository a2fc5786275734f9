import type { WebviewApi } from 'vscode-webview';
import {
  CHAT_PROTOCOL_VERSION,
  type ChatWebviewState,
  type HostMessage,
} from '../../core/chat/protocol/chatProtocol';
import { CHAT_REQUESTS, type ChatMethod, type ChatRequests, type ChatResponses, type WebviewToHost } from '../../core/chat/protocol/chatRequests';

/** Requests that wait for the user (a quick pick, an input box) get a long timeout; the rest a short one. */
const REQUEST_TIMEOUT_MS = 30_000;
const INTERACTIVE_TIMEOUT_MS = 15 * 60_000;

interface Pending {
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
  timer: ReturnType<typeof setTimeout>;
}

/** The webview's side of the protocol: requests correlated by id, each settled exactly once. */
export class HostConnection {
  #nextId = 1;
  readonly #pending = new Map<number, Pending>();

  readonly #api: WebviewApi<ChatWebviewState>;

  constructor(api: WebviewApi<ChatWebviewState>) {
    this.#api = api;
  }

  ready(state: ChatWebviewState | undefined): void {
    this.#post(state ? { v: CHAT_PROTOCOL_VERSION, type: 'ready', state } : { v: CHAT_PROTOCOL_VERSION, type: 'ready' });
  }

  /** Resolves with the host's typed answer to the request. */
  request<M extends ChatMethod>(method: M, params: ChatRequests[M]): Promise<ChatResponses[M]> {
    const id = this.#nextId++;
    return new Promise<ChatResponses[M]>((resolve, reject) => {
      const timeout = CHAT_REQUESTS[method].waitsForUser ? INTERACTIVE_TIMEOUT_MS : REQUEST_TIMEOUT_MS;
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new Error(`The extension did not answer "${method}" in time.`));
      }, timeout);
      this.#pending.set(id, { resolve: (result) => resolve(result as ChatResponses[M]), reject, timer });
      this.#post({ v: CHAT_PROTOCOL_VERSION, type: 'request', id, method, params } as WebviewToHost);
    });
  }

  /** Returns true when the message was a response (and has been consumed). */
  handleResponse(message: HostMessage): boolean {
    if (message.type !== 'response') return false;
    const pending = this.#pending.get(message.id);
    if (!pending) return true;
    this.#pending.delete(message.id);
    clearTimeout(pending.timer);
    if (message.ok) pending.resolve(message.result);
    else pending.reject(new Error(message.error));
    return true;
  }

  #post(message: WebviewToHost): void {
    this.#api.postMessage(message);
  }
}
