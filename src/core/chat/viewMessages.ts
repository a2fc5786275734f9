import { appendMessage, hostMessage, type AppendMessage, type AppendTuple, type ChatEnvironmentView, type HostMessage } from './protocol/chatProtocol';
import type { ComparisonColumn, Conversation, ConversationMessage } from './conversation';
import { columnAnswerView, conversationHeader, messageView } from './conversationView';
import type { ChatBackend } from './ports';

/**
 * What the engine tells its view about a conversation, as protocol messages: built here so that the
 * engine (chatEngine.ts) keeps only when to say it.
 */

/** The environment as the conversation sees it: its model (its own, else the environment's), defaults and estimate. */
export function environmentView(backend: ChatBackend, conversation: Conversation): ChatEnvironmentView {
  const env = backend.environment();
  const effectiveModel = conversation.model ?? env.selectedModel;
  const estimate = effectiveModel ? backend.estimate(effectiveModel) : undefined;
  return { environmentLabel: env.label, defaults: backend.chatDefaults(effectiveModel), ...(effectiveModel && { effectiveModel }), ...(estimate && { estimate }) };
}

export function headerChanged(backend: ChatBackend, conversation: Conversation): HostMessage {
  return hostMessage('conversationChanged', { conversation: conversationHeader(conversation), environment: environmentView(backend, conversation) });
}

export function messageUpserted(conversation: Conversation, message: ConversationMessage): HostMessage {
  return hostMessage('messageUpsert', { conversationId: conversation.id, message: messageView(message) });
}

/** The end-of-answer fields, without the text the view already has from the appends. */
export function messagePatched(conversation: Conversation, message: ConversationMessage): HostMessage {
  const { status, meta, error } = messageView(message);
  return hostMessage('messagePatch', {
    conversationId: conversation.id, messageId: message.id, ...(status && { status }), ...(meta && { meta }), ...(error && { error }),
  });
}

export function messageRemoved(conversation: Conversation, messageId: string): HostMessage {
  return hostMessage('messageRemoved', { conversationId: conversation.id, messageId });
}

/** Text of one column of the comparison streaming: the column by its index in the turn (the webview knows the turn). */
export function columnAppended(turn: ConversationMessage, columnId: string, append: AppendMessage): AppendTuple | undefined {
  const column = turn.comparison?.columns.findIndex((c) => c.answer.id === columnId) ?? -1;
  return column < 0 ? undefined : appendMessage({ ...append, column });
}

/** A column's status, meta or error, without its text. */
export function columnPatched(conversation: Conversation, turn: ConversationMessage, column: ComparisonColumn): HostMessage {
  const { status, meta, error } = columnAnswerView(column.answer);
  return hostMessage('columnPatch', {
    conversationId: conversation.id, turnId: turn.id, columnId: column.answer.id, ...(status && { status }), ...(meta && { meta }), ...(error && { error }),
  });
}
