import * as assert from 'node:assert/strict';
import { answerDetails } from '../../../../src/core/chat/protocol/answerDetails';
import { createConversation, sentContext, type Conversation } from '../../../../src/core/chat/conversation';
import { parseConversation, serializeConversation } from '../../../../src/core/chat/history/serialization';

function conversationWithContext(): Conversation {
  const conversation = createConversation(1);
  conversation.messages.push(
    { id: 'u1', role: 'user', text: 'First', createdAt: 1, attachments: [{ id: 'a', kind: 'file', label: 'a.ts', content: 'x'.repeat(1200) }] },
    { id: 'r1', role: 'assistant', text: 'One', createdAt: 2 },
    { id: 'u2', role: 'user', text: 'Second', createdAt: 3, attachments: [{ id: 'b', kind: 'changes', label: 'Changes', content: '-a\n+b' }] },
    { id: 'r2', role: 'assistant', text: '', createdAt: 4 },
  );
  return conversation;
}

describe("mentions: an answer's details list the context that was sent", () => {
  it('counts every attachment the request carries: the earlier questions\' ones are sent again', () => {
    const conversation = conversationWithContext();
    assert.deepEqual(sentContext(conversation, 3), [{ kind: 'file', label: 'a.ts', chars: 1200 }, { kind: 'changes', label: 'Changes', chars: 5 }]);
    assert.deepEqual(sentContext(conversation, 1), [{ kind: 'file', label: 'a.ts', chars: 1200 }]);
  });

  it('shows the total as a detail and lists each attachment with its size in the hover', () => {
    const [context] = answerDetails({ context: [{ kind: 'file', label: 'a.ts', chars: 1200 }, { kind: 'changes', label: 'Changes', chars: 5 }] });
    assert.deepEqual(context, { kind: 'context', text: 'context: 1.2K chars', title: 'Context sent with the question:\na.ts (1.2K chars)\nChanges (5 chars)' });
    assert.deepEqual(answerDetails({ startedAt: 1 }), [], 'no context, no detail');
  });

  it('keeps the list through the history file, dropping malformed entries', () => {
    const conversation = conversationWithContext();
    const answer = conversation.messages[3];
    assert.ok(answer);
    answer.meta = { context: [{ kind: 'terminal', label: 'bash: last command', chars: 42 }] };
    const stored = JSON.parse(serializeConversation(conversation)) as { messages: { meta?: { context?: unknown[] } }[] };
    stored.messages[3]?.meta?.context?.push({ kind: 'evil', label: 'x', chars: 1 }, { kind: 'file', label: 3, chars: 1 });
    assert.deepEqual(parseConversation(JSON.stringify(stored))?.messages[3]?.meta?.context, [{ kind: 'terminal', label: 'bash: last command', chars: 42 }]);
  });
});
