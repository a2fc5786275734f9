import { hostMessage, type EarlierMessagesMessage, type MessageView, type SnapshotMessage } from './chatProtocol';

/**
 * Characters of message text per webview message. A 5 MB conversation posted as one snapshot was
 * one 5 MB message to clone, send and receive before the panel could show anything; its latest
 * 256 KB show as soon as they arrive, and the rest follow (the webview renders only what is near
 * the screen anyway, lazyMessages.ts).
 */
export const SNAPSHOT_PART_CHARS = 256 * 1024;

/** A message's characters as posted: its text and thinking, and a comparison's columns' (its own text is empty). */
export function messageChars(message: Pick<MessageView, 'text' | 'reasoning' | 'comparison'>): number {
  let chars = message.text.length + (message.reasoning?.length ?? 0);
  for (const { answer } of message.comparison?.columns ?? []) chars += messageChars(answer);
  return chars;
}
const size = messageChars;

/** Counts back from `end` while the part stays within `budget` (one message at least, however long). */
function partStart(messages: readonly MessageView[], end: number, budget: number): number {
  let start = end - 1;
  let chars = size(messages[start]);
  while (start > 0 && chars + size(messages[start - 1]) <= budget) chars += size(messages[--start]);
  return start;
}

/**
 * A snapshot as the webview receives it: the snapshot with the conversation's latest messages, then
 * the older ones in `earlierMessages` parts, newest first. A short conversation is the snapshot alone.
 */
export function snapshotParts(snapshot: SnapshotMessage, budget = SNAPSHOT_PART_CHARS): Array<SnapshotMessage | EarlierMessagesMessage> {
  const all = snapshot.conversation.messages;
  if (all.length === 0) return [snapshot];
  let start = partStart(all, all.length, budget);
  const parts: Array<SnapshotMessage | EarlierMessagesMessage> = [{ ...snapshot, conversation: { ...snapshot.conversation, messages: all.slice(start) } }];
  while (start > 0) {
    const end = start;
    start = partStart(all, end, budget);
    parts.push(hostMessage('earlierMessages', { conversationId: snapshot.conversation.id, before: all[end].id, messages: all.slice(start, end) }));
  }
  return parts;
}

/** The webview renders the latest messages up to at least this much text when it shows a conversation (a few screens of it). */
export const EAGER_CHARS = 32 * 1024;

/**
 * Where the messages the webview renders at once start, of their sizes in characters (a
 * conversation's, oldest first: messageChars): the latest, up to EAGER_CHARS; the ones before wait
 * until scrolled near (webview/chat/lazyMessages.ts).
 */
export function eagerFrom(sizes: readonly number[]): number {
  let chars = 0;
  let index = sizes.length;
  while (index > 0 && chars < EAGER_CHARS) chars += sizes[--index];
  return index;
}
