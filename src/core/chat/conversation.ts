import { randomUUID } from 'node:crypto';
import type {
  AttachmentView, ChatParams, ConversationHeader, ConversationView, MessageView,
} from '../chatProtocol';
import type { ChatMessage } from '../types';

/**
 * The conversation as the host keeps and saves it. It differs from what the webview sees only in
 * that attachments carry their content (the webview shows chips). No field may hold a secret.
 */
export const CONVERSATION_VERSION = 1;

export interface StoredAttachment extends AttachmentView {
  content: string;
  languageId?: string;
}

export interface StoredMessage extends Omit<MessageView, 'attachments'> {
  attachments?: StoredAttachment[];
}

export interface Conversation extends ConversationHeader {
  v: typeof CONVERSATION_VERSION;
  createdAt: number;
  updatedAt: number;
  messages: StoredMessage[];
}

export interface ConversationSummary {
  id: string;
  title: string;
  updatedAt: number;
  messageCount: number;
}

export const DEFAULT_TITLE = 'New chat';

export function newId(): string {
  return randomUUID();
}

export function createConversation(now = Date.now()): Conversation {
  return { v: CONVERSATION_VERSION, id: newId(), title: DEFAULT_TITLE, params: {}, createdAt: now, updatedAt: now, messages: [] };
}

/** A title from the first user message: its first line, trimmed to a readable length. */
export function titleFrom(text: string): string {
  const line = text.trim().split(/\r?\n/)[0]?.replace(/\s+/g, ' ') ?? '';
  if (!line) return DEFAULT_TITLE;
  return line.length > 60 ? `${line.slice(0, 57)}…` : line;
}

export function attachmentView(attachment: StoredAttachment): AttachmentView {
  const view: AttachmentView = { id: attachment.id, kind: attachment.kind, label: attachment.label };
  if (attachment.detail !== undefined) view.detail = attachment.detail;
  return view;
}

export function messageView(message: StoredMessage): MessageView {
  const { attachments, ...rest } = message;
  return attachments?.length ? { ...rest, attachments: attachments.map(attachmentView) } : rest;
}

export function conversationView(conversation: Conversation): ConversationView {
  return { ...conversationHeader(conversation), messages: conversation.messages.map(messageView) };
}

export function conversationHeader(conversation: Conversation): ConversationHeader {
  const header: ConversationHeader = { id: conversation.id, title: conversation.title, params: { ...conversation.params } };
  if (conversation.model !== undefined) header.model = conversation.model;
  return header;
}

/** The user's text with its attached context, as the model receives it. */
export function userContent(message: StoredMessage): string {
  if (!message.attachments?.length) return message.text;
  const context = message.attachments.map((a) => {
    const fence = a.content.includes('```') ? '````' : '```';
    return `${a.kind === 'selection' ? 'Selected code from' : 'File'} ${a.detail ?? a.label}:\n${fence}${a.languageId ?? ''}\n${a.content}\n${fence}`;
  });
  return `${context.join('\n\n')}\n\n${message.text}`;
}

/**
 * The request messages for an answer to the conversation up to `endIndex` (exclusive). Failed answers
 * (error cards) and empty answers are not sent back to the model; stopped partial answers are.
 */
export function requestMessages(conversation: Conversation, systemPrompt: string | undefined, endIndex = conversation.messages.length): ChatMessage[] {
  const messages: ChatMessage[] = [];
  if (systemPrompt?.trim()) messages.push({ role: 'system', content: systemPrompt });
  for (const message of conversation.messages.slice(0, endIndex)) {
    if (message.role === 'user') messages.push({ role: 'user', content: userContent(message) });
    else if (!message.error && message.text) messages.push({ role: 'assistant', content: message.text });
  }
  return messages;
}

/** Effective parameters: per-conversation overrides over the settings. */
export function effectiveParams(conversation: Conversation, defaults: ChatParams): ChatParams {
  const merged: ChatParams = { ...defaults };
  for (const [key, value] of Object.entries(conversation.params) as [keyof ChatParams, ChatParams[keyof ChatParams]][]) {
    if (value !== undefined) (merged as Record<string, unknown>)[key] = value;
  }
  return merged;
}

export function summary(conversation: Conversation): ConversationSummary {
  return { id: conversation.id, title: conversation.title, updatedAt: conversation.updatedAt, messageCount: conversation.messages.length };
}
