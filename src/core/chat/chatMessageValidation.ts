import { NUMBER_PARAMS } from './numberParams';
import { ERROR_ACTION_IDS } from '../errorActions';
import {
  CHAT_PROTOCOL_VERSION, COMPOSER_ATTACHMENT_KINDS, MENTION_KINDS, CHAT_STATE_VERSION,
  type AppendMessage, type ChatWebviewState,
} from './chatProtocol';
import type { ChatMethod, ChatRequestMessage, WebviewToHost } from './chatRequests';

/**
 * The host's gate for everything the webview posts. The webview runs model output, so its messages
 * are untrusted input: each method's params are checked against their declared types and enums,
 * and the table below is typed over every method, so a new request cannot skip validation.
 */

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const isString = (value: unknown): value is string => typeof value === 'string';
const optional = (test: (value: unknown) => boolean) => (value: unknown) => value === undefined || test(value);
const isFiniteNumber = (value: unknown) => typeof value === 'number' && Number.isFinite(value);
const oneOf = (allowed: readonly string[]) => (value: unknown) => isString(value) && allowed.includes(value);
/** Longer than any path a user types after `#`; the host never matches more. */
export const MAX_MENTION_QUERY_CHARS = 512;
const noParams = (params: Json) => Object.keys(params).length === 0;

function isChatParams(value: unknown): boolean {
  if (!isRecord(value)) return false;
  // Only the shape: the engine's sanitiser applies each number's range (chat/params.ts).
  return optional(isString)(value.systemPrompt) && NUMBER_PARAMS.every(({ wire }) => optional(isFiniteNumber)(value[wire]))
    && optional(isRecord)(value.service_parameters);
}

export const REQUEST_PARAM_VALIDATORS: { readonly [M in ChatMethod]: (params: Json) => boolean } = {
  send: (p) => isString(p.text),
  stop: noParams,
  regenerate: noParams,
  editLast: (p) => isString(p.text),
  copyText: (p) => isString(p.text),
  insertCode: (p) => isString(p.code),
  openInNewFile: (p) => isString(p.code) && optional(isString)(p.language),
  applyCode: (p) => isString(p.code) && optional(isString)(p.info),
  openLink: (p) => isString(p.href),
  chatModels: noParams,
  setChatModel: (p) => optional(isString)(p.model) && optional(isString)(p.answerAgain),
  attach: (p) => oneOf(COMPOSER_ATTACHMENT_KINDS)(p.kind),
  attachImage: (p) => isString(p.name) && isString(p.data),
  imageData: (p) => isString(p.id),
  removeAttachment: (p) => isString(p.id),
  mentionQuery: (p) => isString(p.query) && p.query.length <= MAX_MENTION_QUERY_CHARS,
  // Only files name a path; the host still looks it up in its own listing and checks containment.
  mention: (p) => oneOf(MENTION_KINDS)(p.kind) && (p.kind === 'file' ? isString(p.path) : p.path === undefined),
  errorAction: (p) => isString(p.messageId) && oneOf(ERROR_ACTION_IDS)(p.action),
  setParams: (p) => isChatParams(p.params),
  newConversation: noParams,
  openHistory: noParams,
  renameConversation: noParams,
  exportMarkdown: noParams,
  requestSnapshot: noParams,
};

const METHODS = Object.keys(REQUEST_PARAM_VALIDATORS) as ChatMethod[];

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
  if (!isString(method) || !(METHODS as string[]).includes(method)) return undefined;
  if (!isRecord(raw.params) || !REQUEST_PARAM_VALIDATORS[method as ChatMethod](raw.params)) return undefined;
  return { v: CHAT_PROTOCOL_VERSION, type: 'request', id: raw.id, method, params: raw.params } as ChatRequestMessage;
}

/**
 * The webview's reader of an append tuple (chatProtocol.ts AppendTuple): `undefined` for anything that
 * is not one of this version, so that the caller never renders a half-understood message.
 */
export function parseAppend(raw: unknown): AppendMessage | undefined {
  if (!Array.isArray(raw) || raw.length < 3 || raw.length > 4 || raw[0] !== CHAT_PROTOCOL_VERSION) return undefined;
  const [, seq, text, reasoning] = raw as unknown[];
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 1 || !isString(text)) return undefined;
  if (raw.length === 4 && reasoning !== 1) return undefined;
  return reasoning === 1 ? { seq, text, reasoning: true } : { seq, text };
}
