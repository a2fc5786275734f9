import { ERROR_ACTION_IDS } from '../../errorActions';
import {
  COMPOSER_ATTACHMENT_KINDS, MENTION_KINDS,
  type AttachmentView, type ChatImageMime, type ComposerAttachmentKind, type MentionItemView, type MentionRefusal, type MentionTarget,
  type ChatParams, type ChatWebviewState, type ErrorActionId, type Versioned, MAX_COMPARED_MODELS, MIN_COMPARED_MODELS,
} from './chatProtocol';
import type { ComparisonEstimate } from './comparisonEstimate';
import { NUMBER_PARAMS } from '../../numberParams';
import { isRecord, type Json } from '../../json';
import { isFiniteNumber, isString, noParams, oneOf, optional } from '../paramChecks';

/**
 * What the chat webview asks of its host (the other half of the protocol, chatProtocol.ts): one
 * `ready` notification, everything else a request answered once by id, with a typed response.
 * Each request is declared once, in CHAT_REQUESTS: its params, its result, the check its params pass
 * on arrival (the webview runs model output, so what it sends is untrusted) and whether it waits for
 * the user. The types below are read from that table.
 */

/** What the panel's model menu lists: the environment's chat models, the conversation's own and the environment's selection. */
export interface ChatModelsView {
  environment: string;
  models: string[];
  /** The conversation's own model; none when it uses the environment's. */
  current?: string;
  /** The environment's selected model, which a conversation without its own uses. */
  environmentModel?: string;
}

/** The models of a comparison: 2–4 ids as the menu listed them (the engine checks they differ). */
function isModelList(value: unknown): boolean {
  return Array.isArray(value) && value.length >= MIN_COMPARED_MODELS && value.length <= MAX_COMPARED_MODELS && value.every((model) => isString(model) && model.length > 0 && model.length <= 256);
}

/** Longer than any path a user types after `#`; the host never matches more. */
const MAX_MENTION_QUERY_CHARS = 512;

/** One request: `check` tells whether params received are `Params`; the type parameters exist for the types only. */
interface Request<Params, Result> {
  readonly check: (params: Json) => boolean;
  /** It waits for the user (a quick pick, a dialog), so the webview waits long for its answer. */
  readonly waitsForUser: boolean;
  readonly types?: { params: Params; result: Result };
}

function request<Params = Record<string, never>, Result = void>(check: (params: Json) => boolean, options: { waitsForUser?: true } = {}): Request<Params, Result> {
  return { check, waitsForUser: options.waitsForUser ?? false };
}

type Attachments = { attachments: AttachmentView[] };

function isChatParams(value: unknown): boolean {
  if (!isRecord(value)) return false;
  // Only the shape: the engine's sanitiser applies each number's range (chat/params.ts).
  return optional(isString)(value.systemPrompt) && NUMBER_PARAMS.every(({ wire }) => optional(isFiniteNumber)(value[wire]))
    && optional(isRecord)(value.service_parameters);
}

export const CHAT_REQUESTS = {
  send: request<{ text: string }, Attachments>((p) => isString(p.text)),
  stop: request(noParams),
  regenerate: request(noParams),
  /** Replace the last user message (and drop the answer after it), then resend. */
  editLast: request<{ text: string }, Attachments>((p) => isString(p.text)),
  copyText: request<{ text: string }>((p) => isString(p.text)),
  insertCode: request<{ code: string }>((p) => isString(p.code)),
  openInNewFile: request<{ code: string; language?: string }>((p) => isString(p.code) && optional(isString)(p.language)),
  /** Propose the block as a change to a file, in a diff the user accepts or rejects; `info` is the fence's info string. */
  applyCode: request<{ code: string; info?: string }>((p) => isString(p.code) && optional(isString)(p.info), { waitsForUser: true }),
  openLink: request<{ href: string }>((p) => isString(p.href)),
  /** The models the panel's model menu offers (the environment's chat models), and which is in use. */
  chatModels: request<Record<string, never>, ChatModelsView>(noParams),
  /**
   * The conversation's model from the panel's menu; none: the environment's. The host checks it is
   * listed. `answerAgain`: the failed answer whose card's Pick Model opened the menu, answered again
   * with the pick when it is still the last message.
   */
  setChatModel: request<{ model?: string; answerAgain?: string }>((p) => optional(isString)(p.model) && optional(isString)(p.answerAgain)),
  /** `image` opens a file dialog on the host. */
  attach: request<{ kind: ComposerAttachmentKind }, Attachments>((p) => oneOf(COMPOSER_ATTACHMENT_KINDS)(p.kind), { waitsForUser: true }),
  /** A pasted or dropped image: its name and its bytes in base64; the host checks both. */
  attachImage: request<{ name: string; data: string }, Attachments>((p) => isString(p.name) && isString(p.data)),
  /** The bytes of an attached image (pending or sent), to show its thumbnail. */
  imageData: request<{ id: string }, { mime: ChatImageMime; data: string }>((p) => isString(p.id)),
  removeAttachment: request<{ id: string }, Attachments>((p) => isString(p.id)),
  /** The `#` picker's rows for what the user typed after `#`. */
  mentionQuery: request<{ query: string }, { items: MentionItemView[] }>((p) => isString(p.query) && p.query.length <= MAX_MENTION_QUERY_CHARS),
  // Only files name a path; the host still looks it up in its own listing and checks containment.
  mention: request<MentionTarget, Attachments & { refused?: MentionRefusal }>((p) => oneOf(MENTION_KINDS)(p.kind) && (p.kind === 'file' ? isString(p.path) : p.path === undefined)),
  errorAction: request<{ messageId: string; action: ErrorActionId }>((p) => isString(p.messageId) && oneOf(ERROR_ACTION_IDS)(p.action), { waitsForUser: true }),
  setParams: request<{ params: ChatParams }>((p) => isChatParams(p.params)),
  newConversation: request(noParams, { waitsForUser: true }),
  openHistory: request(noParams, { waitsForUser: true }),
  renameConversation: request(noParams, { waitsForUser: true }),
  exportMarkdown: request(noParams, { waitsForUser: true }),
  requestSnapshot: request(noParams),
  /** What asking `models` the question `text` (with the composer's context) would cost: per model and in total, before sending. */
  compareEstimate: request<{ models: string[]; text: string }, ComparisonEstimate>((p) => isModelList(p.models) && isString(p.text)),
  /** Asks 2–4 models the question at once; past a spending limit the host asks once for all of them (waits for the user). */
  compare: request<{ models: string[]; text: string }, Attachments>((p) => isModelList(p.models) && isString(p.text), { waitsForUser: true }),
  /** Stops one column of the comparison streaming (Stop all is `stop`). */
  stopColumn: request<{ columnId: string }>((p) => isString(p.columnId)),
  /** Continue with this answer: the conversation goes on with that column's model and answer. */
  continueWith: request<{ turnId: string; columnId: string }>((p) => isString(p.turnId) && isString(p.columnId)),
  /** The comparison's report (Inference: Export Comparison), for this conversation's turn. */
  exportComparison: request<{ turnId: string }>((p) => isString(p.turnId), { waitsForUser: true }),
  /** The usage view, filtered to this comparison's requests. */
  comparisonUsage: request<{ turnId: string }>((p) => isString(p.turnId)),
};

export type ChatMethod = keyof typeof CHAT_REQUESTS;

type Declared<M extends ChatMethod> = NonNullable<(typeof CHAT_REQUESTS)[M]['types']>;

/** What each request takes. */
export type ChatRequests = { [M in ChatMethod]: Declared<M>['params'] };

/** What each request answers with; `void` requests answer only that they are done. */
export type ChatResponses = { [M in ChatMethod]: Declared<M>['result'] };

export type ChatRequestMessage = {
  [M in ChatMethod]: Versioned & { type: 'request'; id: number; method: M; params: ChatRequests[M] };
}[ChatMethod];

export type WebviewToHost =
  | (Versioned & { type: 'ready'; state?: ChatWebviewState })
  | ChatRequestMessage;
