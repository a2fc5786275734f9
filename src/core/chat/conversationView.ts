import type { AttachmentView, ComparisonTurnView, ConversationHeader, ConversationView, MessageView } from './protocol/chatProtocol';
import * as l10n from '@vscode/l10n';
import { errorView, type ErrorFacts } from '../errorView';
import type { Attachment, Comparison, Conversation, ConversationMessage } from './conversation';

/** What the webview shows of a conversation: attachments as chips (no content), errors with their actions. */

export function attachmentView(attachment: Attachment): AttachmentView {
  const view: AttachmentView = { id: attachment.id, kind: attachment.kind, label: attachment.label };
  // An image's chip shows its bytes (`image`); text context its characters.
  if (!attachment.image) view.chars = attachment.content.length;
  if (attachment.detail !== undefined) view.detail = attachment.detail;
  if (attachment.image) view.image = { mime: attachment.image.mime, bytes: attachment.image.bytes };
  return view;
}

/** Field by field like toStoredMessage (serialization.ts), but errors get their actions and attachments lose their content. */
export function messageView(message: ConversationMessage): MessageView {
  const view: MessageView = { id: message.id, role: message.role, text: message.text, createdAt: message.createdAt };
  if (message.reasoning) view.reasoning = message.reasoning;
  if (message.status !== undefined) view.status = message.status;
  if (message.meta !== undefined) view.meta = { ...message.meta };
  // A failed answer can always be answered again: Retry is offered wherever retrying can help, and
  // Continue where the answer was cut short after some of its text arrived.
  const error = answerErrorFacts(message);
  if (error !== undefined) view.error = errorView(error, { canRetry: true, canContinue: canContinue(message) });
  if (message.attachments?.length) view.attachments = message.attachments.map(attachmentView);
  if (message.comparison) view.comparison = comparisonView(message.comparison);
  return view;
}

/** A comparison's columns: each answer as a message's view, its error without Retry or Continue (the comparison is asked again as a whole). */
function comparisonView({ columns, chosen }: Comparison): ComparisonTurnView {
  return {
    columns: columns.map(({ model, answer }) => ({ model, answer: columnAnswerView(answer) })),
    ...(chosen !== undefined && { chosen }),
  };
}

export function columnAnswerView(answer: ConversationMessage): MessageView {
  const { error: _error, comparison: _comparison, attachments: _attachments, ...rest } = answer;
  const view = messageView(rest);
  const error = answerErrorFacts(answer);
  if (error !== undefined) view.error = errorView(error, { canRetry: false, canContinue: false });
  return view;
}

/**
 * What an answer's card says: its error, or, for an answer cut short without one (VS Code closed
 * mid-answer and it was recovered, or its stream ended without the model's finish), that it was.
 */
export function answerErrorFacts(message: ConversationMessage): ErrorFacts | undefined {
  if (message.error !== undefined || message.role !== 'assistant' || message.status !== 'interrupted') return message.error;
  return { kind: 'answerCut', message: l10n.t('The answer ended before the model finished it (VS Code closed, or the stream ended early); the text received until then is kept.') };
}

/** An answer cut short after some of its text arrived: the model can be asked to go on from there. */
export function canContinue(message: ConversationMessage): boolean {
  return message.role === 'assistant' && message.status === 'interrupted' && message.text.length > 0;
}

export function conversationHeader(conversation: Conversation): ConversationHeader {
  const header: ConversationHeader = { id: conversation.id, title: conversation.title, params: { ...conversation.params } };
  if (conversation.model !== undefined) header.model = conversation.model;
  return header;
}

export function conversationView(conversation: Conversation): ConversationView {
  return { ...conversationHeader(conversation), messages: conversation.messages.map(messageView) };
}
