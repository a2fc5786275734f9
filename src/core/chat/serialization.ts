import type { AnswerMeta, ChatParams, ErrorCardView } from '../chatProtocol';
import { CONVERSATION_VERSION, type Conversation, type StoredAttachment, type StoredMessage } from './conversation';

/**
 * History files are read back defensively: a file from another version or a hand-edited one must not
 * break the panel. An answer saved while it was streaming (the window died) comes back `interrupted`.
 */
export function serializeConversation(conversation: Conversation): string {
  return JSON.stringify(conversation);
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): value is string => typeof value === 'string';
const num = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

function pick<T extends object>(source: Json, keys: readonly string[], test: (value: unknown) => boolean): Partial<T> {
  const out: Json = {};
  for (const key of keys) if (test(source[key])) out[key] = source[key];
  return out as Partial<T>;
}

function parseParams(raw: unknown): ChatParams {
  if (!isObject(raw)) return {};
  return { ...pick<ChatParams>(raw, ['temperature', 'top_p', 'max_tokens'], num), ...pick<ChatParams>(raw, ['systemPrompt'], str) };
}

function parseMeta(raw: unknown): AnswerMeta | undefined {
  if (!isObject(raw)) return undefined;
  return { ...pick<AnswerMeta>(raw, ['model', 'requestId', 'finishReason'], str), ...pick<AnswerMeta>(raw, ['startedAt', 'finishedAt', 'creditsSpent'], num) };
}

function parseError(raw: unknown): ErrorCardView | undefined {
  if (!isObject(raw) || !str(raw.kind) || !str(raw.message)) return undefined;
  const actions = Array.isArray(raw.actions) ? raw.actions.filter((a): a is ErrorCardView['actions'][number] => isObject(a) && str(a.id) && str(a.label)) : [];
  return { kind: raw.kind, message: raw.message, actions, ...pick<ErrorCardView>(raw, ['requestId'], str), ...pick<ErrorCardView>(raw, ['status'], num) };
}

function parseAttachment(raw: unknown): StoredAttachment | undefined {
  if (!isObject(raw) || !str(raw.id) || !str(raw.label) || !str(raw.content)) return undefined;
  if (raw.kind !== 'selection' && raw.kind !== 'file') return undefined;
  return { id: raw.id, kind: raw.kind, label: raw.label, content: raw.content, ...pick<StoredAttachment>(raw, ['detail', 'languageId'], str) };
}

const STATUSES = new Set(['done', 'stopped', 'error', 'interrupted', 'streaming']);

function parseMessage(raw: unknown): StoredMessage | undefined {
  if (!isObject(raw) || !str(raw.id) || !str(raw.text) || (raw.role !== 'user' && raw.role !== 'assistant')) return undefined;
  const message: StoredMessage = { id: raw.id, role: raw.role, text: raw.text, createdAt: num(raw.createdAt) ? raw.createdAt : 0 };
  if (str(raw.status) && STATUSES.has(raw.status)) {
    message.status = raw.status === 'streaming' ? 'interrupted' : (raw.status as StoredMessage['status']);
  }
  const meta = parseMeta(raw.meta);
  if (meta) message.meta = meta;
  const error = parseError(raw.error);
  if (error) message.error = error;
  if (Array.isArray(raw.attachments)) {
    const attachments = raw.attachments.map(parseAttachment).filter((a): a is StoredAttachment => a !== undefined);
    if (attachments.length) message.attachments = attachments;
  }
  return message;
}

export function parseConversation(text: string): Conversation | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(raw) || raw.v !== CONVERSATION_VERSION || !str(raw.id) || !Array.isArray(raw.messages)) return undefined;
  const conversation: Conversation = {
    v: CONVERSATION_VERSION,
    id: raw.id,
    title: str(raw.title) && raw.title.trim() ? raw.title : 'Untitled chat',
    params: parseParams(raw.params),
    createdAt: num(raw.createdAt) ? raw.createdAt : 0,
    updatedAt: num(raw.updatedAt) ? raw.updatedAt : 0,
    messages: raw.messages.map(parseMessage).filter((m): m is StoredMessage => m !== undefined),
  };
  if (str(raw.model) && raw.model) conversation.model = raw.model;
  return conversation;
}
