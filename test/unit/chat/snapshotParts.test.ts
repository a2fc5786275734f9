import * as assert from 'node:assert/strict';
import { SNAPSHOT_PART_CHARS, snapshotParts } from '../../../src/core/chat/protocol/snapshotParts';
import { CHAT_PROTOCOL_VERSION, type EarlierMessagesMessage, type MessageView, type SnapshotMessage } from '../../../src/core/chat/protocol/chatProtocol';

function snapshotOf(messages: MessageView[], streaming?: string): SnapshotMessage {
  return {
    v: CHAT_PROTOCOL_VERSION, type: 'snapshot',
    conversation: { id: 'c', title: 'Long', params: {}, messages },
    attachments: [], environment: { defaults: {} },
    ...(streaming && { streaming: { messageId: streaming, seq: 3 } }),
  };
}

const message = (index: number, chars: number): MessageView => ({ id: `m${index}`, role: index % 2 ? 'assistant' : 'user', text: 'x'.repeat(chars), createdAt: index });

/** What the webview holds after every part (app.ts: a part goes before the first message it holds, or is dropped). */
function reassemble(parts: ReturnType<typeof snapshotParts>): MessageView[] {
  const [first, ...rest] = parts as [SnapshotMessage, ...EarlierMessagesMessage[]];
  assert.equal(first.type, 'snapshot');
  const held = [...first.conversation.messages];
  for (const part of rest) {
    assert.equal(part.type, 'earlierMessages');
    assert.equal(part.conversationId, 'c');
    assert.equal(part.before, held[0].id, 'each part goes before the first message held');
    held.unshift(...part.messages);
  }
  return held;
}

describe('chat snapshot parts: a long conversation is not one huge message', () => {
  it('sends a short conversation as the snapshot itself', () => {
    const snapshot = snapshotOf([message(0, 10), message(1, 1000)], 'm1');
    assert.deepEqual(snapshotParts(snapshot), [snapshot]);
    assert.deepEqual(snapshotParts(snapshotOf([])), [snapshotOf([])]);
  });

  it('sends 5 MB as the latest messages in the snapshot, then the rest newest first, each part within the budget, the whole conversation in order', () => {
    const messages = Array.from({ length: 1000 }, (_, index) => message(index, index % 2 ? 9000 : 1000));
    const snapshot = snapshotOf(messages, 'm999');
    const parts = snapshotParts(snapshot);
    assert.ok(parts.length >= 5_000_000 / SNAPSHOT_PART_CHARS, `${parts.length} parts`);
    const first = parts[0] as SnapshotMessage;
    assert.deepEqual(first.streaming, { messageId: 'm999', seq: 3 });
    assert.equal(first.conversation.messages.at(-1)?.id, 'm999', 'the streaming answer is in the snapshot');
    assert.deepEqual({ ...first, conversation: { ...first.conversation, messages: [] } }, { ...snapshot, conversation: { ...snapshot.conversation, messages: [] } }, 'everything but the messages as before');
    for (const part of parts) {
      const held = part.type === 'snapshot' ? part.conversation.messages : part.messages;
      assert.ok(held.length > 0);
      assert.ok(held.reduce((sum, m) => sum + m.text.length, 0) <= SNAPSHOT_PART_CHARS);
    }
    assert.deepEqual(reassemble(parts), messages);
  });

  it('gives a message longer than the budget a part of its own, and counts thinking with the text', () => {
    const messages = [message(0, 100), { ...message(1, 100), reasoning: 'r'.repeat(300) }, message(2, 5000), message(3, 100), message(4, 100)];
    const parts = snapshotParts(snapshotOf(messages), 1000);
    assert.deepEqual(parts.map((part) => (part.type === 'snapshot' ? part.conversation.messages : part.messages).map((m) => m.id)), [['m3', 'm4'], ['m2'], ['m0', 'm1']]);
    assert.deepEqual(reassemble(parts), messages);
  });
});
