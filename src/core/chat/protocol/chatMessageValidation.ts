import {
  CHAT_PROTOCOL_VERSION, CHAT_STATE_VERSION, MAX_COMPARED_MODELS,
  type AppendMessage, type ChatWebviewState,
} from './chatProtocol';
import { CHAT_REQUESTS, type ChatMethod, type ChatRequestMessage, type WebviewToHost } from './chatRequests';
import { isRecord } from '../../json';
import { isString } from '../paramChecks';

/**
 * The host's gate for everything the webview posts. The webview runs model output, so its messages
 * are untrusted input: each method's params pass the check declared with the method (CHAT_REQUESTS),
 * which no method can be declared without.
 */

const isMethod = (method: string): method is ChatMethod => Object.hasOwn(CHAT_REQUESTS, method);

/** Restores persisted state written by any version; unknown versions and shapes become `undefined`. */
export function parseChatWebviewState(raw: unknown): ChatWebviewState | undefined {
  if (!isRecord(raw) || raw.v !== CHAT_STATE_VERSION) return undefined;
  const state: ChatWebviewState = { v: CHAT_STATE_VERSION };
  if (typeof raw.conversationId === 'string' && raw.conversationId) state.conversationId = raw.conversationId;
  if (typeof raw.draft === 'string') state.draft = raw.draft;
  return state;
}

/** A wrong version, an unknown method or params of the wrong shape are dropped (and logged by the caller). */
export function parseWebviewMessage(raw: unknown): WebviewToHost | undefined {
  if (!isRecord(raw) || raw.v !== CHAT_PROTOCOL_VERSION) return undefined;
  if (raw.type === 'ready') {
    const state = parseChatWebviewState(raw.state);
    return state ? { v: CHAT_PROTOCOL_VERSION, type: 'ready', state } : { v: CHAT_PROTOCOL_VERSION, type: 'ready' };
  }
  if (raw.type !== 'request' || typeof raw.id !== 'number' || !Number.isInteger(raw.id)) return undefined;
  const method = raw.method;
  if (!isString(method) || !isMethod(method)) return undefined;
  if (!isRecord(raw.params) || !CHAT_REQUESTS[method].check(raw.params)) return undefined;
  return { v: CHAT_PROTOCOL_VERSION, type: 'request', id: raw.id, method, params: raw.params } as ChatRequestMessage;
}

/**
 * The webview's reader of an append tuple (chatProtocol.ts AppendTuple): `undefined` for anything that
 * is not one of this version, so that the caller never renders a half-understood message.
 */
export function parseAppend(raw: unknown): AppendMessage | undefined {
  if (!Array.isArray(raw) || raw.length < 3 || raw.length > 5 || raw[0] !== CHAT_PROTOCOL_VERSION) return undefined;
  const [, seq, text, reasoning, column] = raw as unknown[];
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 1 || !isString(text)) return undefined;
  if (raw.length === 4 && reasoning !== 1) return undefined;
  if (raw.length === 5) {
    if ((reasoning !== 0 && reasoning !== 1) || typeof column !== 'number' || !Number.isInteger(column) || column < 0 || column >= MAX_COMPARED_MODELS) return undefined;
    return reasoning === 1 ? { seq, text, reasoning: true, column } : { seq, text, column };
  }
  return reasoning === 1 ? { seq, text, reasoning: true } : { seq, text };
}
