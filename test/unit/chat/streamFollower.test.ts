import * as assert from 'node:assert/strict';
import type { ConversationView, MessageView } from '../../../src/core/chat/protocol/chatProtocol';
import { StreamFollower } from '../../../src/webview/chat/streamFollower';

const answer = (id: string): MessageView => ({ id, role: 'assistant', text: '', createdAt: 0 });

/** A conversation whose comparison turn `turn` asked two models: columns answered by `x` and `y`. */
function comparisonConversation(): ConversationView {
  const turn: MessageView = { ...answer('turn'), comparison: { columns: [{ model: 'small', answer: answer('x') }, { model: 'large', answer: answer('y') }] } };
  return { id: 'c', title: 'A comparison', params: {}, messages: [turn] };
}

describe('chat webview: which answer the host\'s appends are for, and a lost one', () => {
  it('takes no append while nothing streams', () => {
    const streams = new StreamFollower();
    assert.equal(streams.busy, false);
    assert.equal(streams.take({ seq: 1, text: 'a' }), undefined);
    assert.equal(streams.take({ seq: 1, text: 'a', column: 0 }), undefined);
  });

  it('takes an answer\'s appends in order, and refuses a gap or a repeat without losing its place', () => {
    const streams = new StreamFollower();
    assert.equal(streams.answerStatus('a', 'streaming'), false);
    assert.equal(streams.busy, true);
    assert.deepEqual(streams.take({ seq: 1, text: 'one' }), { messageId: 'a' });
    assert.deepEqual(streams.take({ seq: 2, text: 'two' }), { messageId: 'a' });
    assert.equal(streams.take({ seq: 4, text: 'four' }), undefined, 'the third was lost');
    assert.equal(streams.take({ seq: 2, text: 'two' }), undefined, 'a repeat');
    assert.deepEqual(streams.take({ seq: 3, text: 'three' }), { messageId: 'a' });
    assert.equal(streams.take({ seq: 1, text: 'x', column: 0 }), undefined, 'no comparison streams');
  });

  it('says when the answer that streamed ends, once, and not for another message', () => {
    const streams = new StreamFollower();
    streams.answerStatus('a', 'streaming');
    assert.equal(streams.answerStatus('b', 'done'), false);
    assert.equal(streams.busy, true);
    assert.equal(streams.answerStatus('a', 'stopped'), true);
    assert.equal(streams.busy, false);
    assert.equal(streams.answerStatus('a', 'stopped'), false);
    assert.equal(streams.take({ seq: 1, text: 'late' }), undefined);
  });

  it('numbers a new answer from 1, and keeps the place of one already streaming', () => {
    const streams = new StreamFollower();
    streams.answerStatus('a', 'streaming');
    streams.take({ seq: 1, text: 'one' });
    streams.answerStatus('a', 'streaming');
    assert.deepEqual(streams.take({ seq: 2, text: 'two' }), { messageId: 'a' }, 'an upsert of the same answer');
    streams.answerStatus('b', 'streaming');
    assert.deepEqual(streams.take({ seq: 1, text: 'one' }), { messageId: 'b' });
  });

  it('takes each column\'s appends in its own order, and refuses a single answer\'s while only a comparison streams', () => {
    const streams = new StreamFollower();
    assert.equal(streams.comparisonStatus('turn', 'streaming'), false);
    assert.equal(streams.busy, true);
    assert.deepEqual(streams.take({ seq: 1, text: 'a', column: 0 }), { messageId: 'turn', column: 0 });
    assert.deepEqual(streams.take({ seq: 1, text: 'b', column: 1 }), { messageId: 'turn', column: 1 });
    assert.deepEqual(streams.take({ seq: 2, text: 'a', column: 0 }), { messageId: 'turn', column: 0 });
    assert.equal(streams.take({ seq: 3, text: 'b', column: 1 }), undefined, 'column 1 lost its second');
    assert.equal(streams.take({ seq: 1, text: 'c' }), undefined);
    assert.equal(streams.comparisonStatus('turn', 'done'), true);
    assert.equal(streams.comparisonStatus('turn', 'done'), false);
    assert.equal(streams.busy, false);
  });

  it('goes on from a snapshot\'s numbers: the answer\'s, and each column\'s (one not yet sent from 1)', () => {
    const streams = new StreamFollower();
    streams.restart({ conversation: comparisonConversation(), streaming: { messageId: 'a', seq: 5 } });
    assert.equal(streams.take({ seq: 5, text: 'again' }), undefined);
    assert.deepEqual(streams.take({ seq: 6, text: 'next' }), { messageId: 'a' });

    streams.restart({ conversation: comparisonConversation(), streamingColumns: { turnId: 'turn', columns: [{ columnId: 'y', seq: 3 }] } });
    assert.equal(streams.take({ seq: 7, text: 'old' }), undefined, 'the answer streams no more');
    assert.deepEqual(streams.take({ seq: 1, text: 'x', column: 0 }), { messageId: 'turn', column: 0 });
    assert.equal(streams.take({ seq: 3, text: 'y', column: 1 }), undefined);
    assert.deepEqual(streams.take({ seq: 4, text: 'y', column: 1 }), { messageId: 'turn', column: 1 });

    streams.restart({ conversation: comparisonConversation() });
    assert.equal(streams.busy, false);
  });

  it('follows no comparison whose turn the snapshot does not hold', () => {
    const streams = new StreamFollower();
    streams.restart({ conversation: comparisonConversation(), streamingColumns: { turnId: 'gone', columns: [{ columnId: 'x', seq: 1 }] } });
    assert.equal(streams.busy, false);
    assert.equal(streams.take({ seq: 2, text: 'x', column: 0 }), undefined);
  });
});
