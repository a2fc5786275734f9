import { SPEND_NOT_MEASURED, type AnswerMeta, type AnswerStatus, type ChatParams, type SentContext, type SpendNotMeasured } from '../protocol/chatProtocol';
import type { Usage } from '../../api/types';
import type { ErrorFacts } from '../../errorView';
import type { Attachment, Comparison, ComparisonColumn, Conversation, ConversationMessage } from '../conversation';
import { readNumberParams, type NumberParamValues } from '../../numberParams';
import { isChatImageMime, isImageFileName, type ChatImage } from '../chatImages';
import { asServiceParameters } from '../params';
import { parseJson } from '../../json';

/**
 * The history file format: its own versioned type, converted explicitly to and from the engine's
 * conversation, so that a change to the webview protocol never changes what is on disk, and view
 * details (button labels, actions) never get there. Files are read back defensively: a file from
 * another version or a hand-edited one must not break the panel.
 *
 * Version 1 (until protocol 2) saved the webview's view types: error cards with their action
 * labels. Version 2 keeps only the facts of an error; the actions are derived when it is shown.
 * A message's `comparison` (several models' answers to one question) came later as an optional
 * field, so the version stayed: older files have none, and an older reader drops it and shows the
 * turn as an empty answer rather than refusing the whole conversation.
 */
export const STORED_CONVERSATION_VERSION = 2;

// Field lists copied from the engine's types on purpose: a file format must not follow their changes.
const STORED_ATTACHMENT_KINDS = ['selection', 'file', 'image', 'problems', 'terminal', 'changes'] as const;
type StoredAttachmentKind = (typeof STORED_ATTACHMENT_KINDS)[number];

export interface StoredAttachment {
  id: string;
  kind: StoredAttachmentKind;
  label: string;
  detail?: string;
  /** Empty for an image: its bytes are a file beside the log (historyImages.ts), never inlined here. */
  content: string;
  languageId?: string;
  image?: { mime: string; bytes: number; file: string };
}

export interface StoredAnswerError {
  kind: string;
  message: string;
  status?: number;
  requestId?: string;
}

export interface StoredAnswerMeta {
  model?: string;
  requestId?: string;
  host?: string;
  startedAt?: number;
  firstDeltaAt?: number;
  finishedAt?: number;
  creditsSpent?: number;
  spendNotMeasured?: SpendNotMeasured;
  finishReason?: string;
  usage?: { promptTokens?: number; completionTokens?: number; totalTokens?: number };
  context?: { kind: StoredAttachmentKind; label: string; chars: number }[];
  continuations?: number;
}

export interface StoredMessage {
  id: string;
  role: 'user' | 'assistant';
  text: string;
  createdAt: number;
  reasoning?: string;
  /** `streaming` only in a file written while an answer streamed (the window died): read as `interrupted`. */
  status?: 'streaming' | 'done' | 'stopped' | 'error' | 'interrupted';
  meta?: StoredAnswerMeta;
  error?: StoredAnswerError;
  attachments?: StoredAttachment[];
  comparison?: StoredComparison;
}

/** Several models' answers to one question: each column's answer a message of its own, without attachments or a comparison. */
export interface StoredComparison {
  columns: { model: string; answer: StoredMessage }[];
  /** The id of the column's answer the conversation went on with. */
  chosen?: string;
}

export interface StoredConversation {
  v: typeof STORED_CONVERSATION_VERSION;
  id: string;
  title: string;
  model?: string;
  /**
   * The number parameters follow core/numberParams.ts's table, unlike the other fields: a new one is an
   * optional field, which older files lack and older readers drop, so the format's version stays.
   */
  params: NumberParamValues & { systemPrompt?: string; service_parameters?: Record<string, unknown> };
  createdAt: number;
  updatedAt: number;
  messages: StoredMessage[];
}

// ---------------------------------------------------------------------------------------------
// Engine -> disk

export function toStoredConversation(conversation: Conversation): StoredConversation {
  const stored: StoredConversation = {
    v: STORED_CONVERSATION_VERSION,
    id: conversation.id,
    title: conversation.title,
    params: { ...conversation.params },
    createdAt: conversation.createdAt,
    updatedAt: conversation.updatedAt,
    messages: conversation.messages.map(toStoredMessage),
  };
  if (conversation.model !== undefined) stored.model = conversation.model;
  return stored;
}

export function toStoredMessage(message: ConversationMessage): StoredMessage {
  const stored: StoredMessage = { id: message.id, role: message.role, text: message.text, createdAt: message.createdAt };
  if (message.reasoning) stored.reasoning = message.reasoning;
  if (message.status !== undefined) stored.status = message.status;
  if (message.meta !== undefined) {
    stored.meta = { ...message.meta, ...(message.meta.usage && { usage: { ...message.meta.usage } }), ...(message.meta.context && { context: message.meta.context.map((c) => ({ ...c })) }) };
  }
  if (message.error !== undefined) stored.error = { ...message.error };
  if (message.attachments?.length) stored.attachments = message.attachments.map(toStoredAttachment);
  if (message.comparison) stored.comparison = toStoredComparison(message.comparison);
  return stored;
}

function toStoredComparison(comparison: Comparison): StoredComparison {
  const columns = comparison.columns.map(({ model, answer: { attachments: _attachments, comparison: _nested, ...answer } }) => ({ model, answer: toStoredMessage(answer) }));
  return { columns, ...(comparison.chosen !== undefined && { chosen: comparison.chosen }) };
}

/** Field by field: an image's pending bytes (`data`) never reach the log. */
function toStoredAttachment(attachment: Attachment): StoredAttachment {
  const { image, ...fields } = attachment;
  return { ...fields, ...(image && { image: { mime: image.mime, bytes: image.bytes, file: image.file } }) };
}

export function serializeConversation(conversation: Conversation): string {
  return JSON.stringify(toStoredConversation(conversation));
}

// ---------------------------------------------------------------------------------------------
// Disk -> engine

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): value is string => typeof value === 'string';
const num = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

function pick<T extends object>(source: Json, keys: readonly string[], test: (value: unknown) => boolean): Partial<T> {
  const out: Json = {};
  for (const key of keys) if (test(source[key])) out[key] = source[key];
  return out as Partial<T>;
}

function readParams(raw: unknown): ChatParams {
  if (!isObject(raw)) return {};
  const params: ChatParams = { ...readNumberParams(raw), ...pick<ChatParams>(raw, ['systemPrompt'], str) };
  const serviceParameters = asServiceParameters(raw.service_parameters);
  if (serviceParameters) params.service_parameters = serviceParameters;
  return params;
}

function readUsage(raw: unknown): Usage | undefined {
  if (!isObject(raw)) return undefined;
  const usage = pick<Usage>(raw, ['promptTokens', 'completionTokens', 'totalTokens'], num);
  return Object.keys(usage).length ? usage : undefined;
}

function readMeta(raw: unknown): AnswerMeta | undefined {
  if (!isObject(raw)) return undefined;
  const meta: AnswerMeta = { ...pick<AnswerMeta>(raw, ['model', 'requestId', 'host', 'finishReason'], str), ...pick<AnswerMeta>(raw, ['startedAt', 'firstDeltaAt', 'finishedAt', 'creditsSpent', 'continuations'], num) };
  const usage = readUsage(raw.usage);
  if (usage) meta.usage = usage;
  const reason = SPEND_NOT_MEASURED.find((known) => known === raw.spendNotMeasured);
  if (reason) meta.spendNotMeasured = reason;
  const context = Array.isArray(raw.context) ? raw.context.map(readSentContext).filter((c) => c !== undefined) : [];
  if (context.length) meta.context = context;
  return meta;
}

function readSentContext(raw: unknown): SentContext | undefined {
  if (!isObject(raw) || !str(raw.label) || !num(raw.chars)) return undefined;
  const kind = STORED_ATTACHMENT_KINDS.find((known) => known === raw.kind);
  return kind && { kind, label: raw.label, chars: raw.chars };
}

/** Only the facts: a version-1 file's `actions` (labels of the view at that time) are dropped here. */
function readError(raw: unknown): ErrorFacts | undefined {
  if (!isObject(raw) || !str(raw.kind) || !str(raw.message)) return undefined;
  return { kind: raw.kind, message: raw.message, ...pick<ErrorFacts>(raw, ['requestId'], str), ...pick<ErrorFacts>(raw, ['status'], num) };
}

/** An image reference names a file as chatImages.ts makes them, so a hand-edited log cannot point elsewhere. */
function readImage(raw: unknown): ChatImage | undefined {
  if (!isObject(raw) || !isChatImageMime(raw.mime) || !num(raw.bytes) || !str(raw.file) || !isImageFileName(raw.file)) return undefined;
  return { mime: raw.mime, bytes: raw.bytes, file: raw.file };
}

function readAttachment(raw: unknown): Attachment | undefined {
  if (!isObject(raw) || !str(raw.id) || !str(raw.label) || !str(raw.content)) return undefined;
  const fields = { id: raw.id, label: raw.label, content: raw.content, ...pick<Attachment>(raw, ['detail', 'languageId'], str) };
  if (raw.kind === 'image') {
    const image = readImage(raw.image);
    return image && { ...fields, kind: 'image', image };
  }
  const kind = STORED_ATTACHMENT_KINDS.find((known) => known === raw.kind && known !== 'image');
  return kind && { ...fields, kind };
}

const STATUSES: ReadonlySet<string> = new Set<AnswerStatus>(['done', 'stopped', 'error', 'interrupted', 'streaming']);

function readMessage(raw: unknown): ConversationMessage | undefined {
  if (!isObject(raw) || !str(raw.id) || !str(raw.text) || (raw.role !== 'user' && raw.role !== 'assistant')) return undefined;
  const message: ConversationMessage = { id: raw.id, role: raw.role, text: raw.text, createdAt: num(raw.createdAt) ? raw.createdAt : 0 };
  if (str(raw.reasoning) && raw.reasoning) message.reasoning = raw.reasoning;
  if (str(raw.status) && STATUSES.has(raw.status)) {
    message.status = raw.status === 'streaming' ? 'interrupted' : (raw.status as AnswerStatus);
  }
  const meta = readMeta(raw.meta);
  if (meta) message.meta = meta;
  const error = readError(raw.error);
  if (error) message.error = error;
  if (Array.isArray(raw.attachments)) {
    const attachments = raw.attachments.map(readAttachment).filter((a): a is Attachment => a !== undefined);
    if (attachments.length) message.attachments = attachments;
  }
  const comparison = message.role === 'assistant' ? readComparison(raw.comparison) : undefined;
  if (comparison) message.comparison = comparison;
  return message;
}

/** Columns without a model or a readable answer are dropped; a comparison left with none is not one. */
function readComparison(raw: unknown): Comparison | undefined {
  if (!isObject(raw) || !Array.isArray(raw.columns)) return undefined;
  const columns = raw.columns.map(readColumn).filter((column) => column !== undefined);
  if (!columns.length) return undefined;
  const chosen = columns.find((column) => column.answer.id === raw.chosen)?.answer.id;
  return { columns, ...(chosen !== undefined && { chosen }) };
}

function readColumn(raw: unknown): ComparisonColumn | undefined {
  if (!isObject(raw) || !str(raw.model) || !raw.model) return undefined;
  const answer = readMessage(raw.answer);
  if (answer?.role !== 'assistant') return undefined;
  delete answer.comparison;
  delete answer.attachments;
  return { model: raw.model, answer };
}

/** Versions 1 and 2 share their shape except for what readError drops; later versions are not guessed at. */
const READABLE_VERSIONS: ReadonlySet<unknown> = new Set([1, STORED_CONVERSATION_VERSION]);

export function parseConversation(text: string): Conversation | undefined {
  const raw = parseJson(text);
  return raw === undefined ? undefined : conversationFromJson(raw);
}

/** The conversation in an already parsed JSON value (a history log is replayed into one). */
export function conversationFromJson(raw: unknown): Conversation | undefined {
  if (!isObject(raw) || !READABLE_VERSIONS.has(raw.v) || !str(raw.id) || !Array.isArray(raw.messages)) return undefined;
  const conversation: Conversation = {
    id: raw.id,
    title: str(raw.title) && raw.title.trim() ? raw.title : 'Untitled chat',
    params: readParams(raw.params),
    createdAt: num(raw.createdAt) ? raw.createdAt : 0,
    updatedAt: num(raw.updatedAt) ? raw.updatedAt : 0,
    messages: raw.messages.map(readMessage).filter((m): m is ConversationMessage => m !== undefined),
  };
  if (str(raw.model) && raw.model) conversation.model = raw.model;
  return conversation;
}
