import assert from 'node:assert/strict';
import { createConversation, type ConversationMessage } from '../../../src/core/chat/conversation';
import { newComparisonTurn } from '../../../src/core/chat/comparison/comparisonTurn';
import { conversationView } from '../../../src/core/chat/conversationView';
import { columnAppended, columnPatched } from '../../../src/core/chat/viewMessages';
import { messageChars, snapshotParts } from '../../../src/core/chat/protocol/snapshotParts';
import { parseAppend } from '../../../src/core/chat/protocol/chatMessageValidation';
import { CHAT_PROTOCOL_VERSION, type SnapshotMessage } from '../../../src/core/chat/protocol/chatProtocol';

/** What the webview is shown of a comparison turn (conversationView.ts, viewMessages.ts, snapshotParts.ts). */

function comparison(): { turn: ConversationMessage; conversation: ReturnType<typeof createConversation> } {
  const conversation = createConversation(0);
  conversation.messages.push({ id: 'q', role: 'user', text: 'Q', createdAt: 0 });
  const turn = newComparisonTurn(['a', 'b'], 1);
  const [a, b] = turn.comparison?.columns ?? [];
  Object.assign(a.answer, { text: 'A answers', status: 'done', meta: { model: 'a-1', startedAt: 1, firstDeltaAt: 2, finishedAt: 5, spendNotMeasured: 'overlapped' } });
  Object.assign(b.answer, { text: 'cut', status: 'interrupted', error: { kind: 'server', message: 'Gone.', status: 503 } });
  turn.status = 'done';
  turn.meta = { ...turn.meta, creditsSpent: 1.25 };
  conversation.messages.push(turn);
  return { turn, conversation };
}

describe('comparison turns in the view (core/chat/conversationView, viewMessages)', () => {
  it('shows each column as a message of its own, its error without Retry or Continue, the chosen one and the whole\'s spend', () => {
    const { turn, conversation } = comparison();
    const chosen = turn.comparison ?? assert.fail('no comparison');
    chosen.chosen = chosen.columns[0].answer.id;
    const view = conversationView(conversation).messages[1];
    assert.equal(view.text, '');
    assert.equal(view.meta?.creditsSpent, 1.25, 'the comparison\'s total on its turn');
    assert.equal(view.comparison?.chosen, turn.comparison?.columns[0].answer.id);
    const [a, b] = view.comparison?.columns ?? [];
    assert.deepEqual([a.model, a.answer.text, a.answer.status, a.answer.meta?.spendNotMeasured], ['a', 'A answers', 'done', 'overlapped']);
    assert.equal(b.answer.error?.status, 503);
    assert.deepEqual(b.answer.error?.actions.map((action) => action.id).filter((id) => id === 'retry' || id === 'continue'), [], 'a column is not retried or continued alone');
  });

  it('posts a column\'s text by its index and its end without the text', () => {
    const { turn, conversation } = comparison();
    const [, b] = turn.comparison?.columns ?? [];
    assert.deepEqual(parseAppend(columnAppended(turn, b.answer.id, { seq: 4, text: 'more' })), { seq: 4, text: 'more', column: 1 });
    assert.equal(columnAppended(turn, 'not a column', { seq: 1, text: 'x' }), undefined);
    const patch = columnPatched(conversation, turn, b);
    assert.deepEqual({ ...patch, error: undefined }, { v: CHAT_PROTOCOL_VERSION, type: 'columnPatch', conversationId: conversation.id, turnId: turn.id, columnId: b.answer.id, status: 'interrupted', meta: { model: 'b' }, error: undefined });
    assert.ok(!('text' in patch));
  });

  it('counts a comparison\'s columns in what a snapshot part holds', () => {
    const { conversation } = comparison();
    const messages = conversationView(conversation).messages;
    assert.equal(messageChars(messages[1]), 'A answers'.length + 'cut'.length);
    const snapshot: SnapshotMessage = { v: CHAT_PROTOCOL_VERSION, type: 'snapshot', conversation: { id: 'c', title: 't', params: {}, messages }, attachments: [], environment: { defaults: {} } };
    // A budget below the comparison's columns: the question goes to a part of its own.
    assert.equal(snapshotParts(snapshot, 12).length, 2);
  });
});
