import type { AttachmentView, ConversationHeader, ConversationView, MessageView } from './chatProtocol';
import { errorView } from '../errorView';
import type { Attachment, Conversation, ConversationMessage } from './conversation';

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
  if (message.error !== undefined) view.error = errorView(message.error, { canRetry: true, canContinue: canContinue(message) });
  if (message.attachments?.length) view.attachments = message.attachments.map(attachmentView);
  return view;
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
