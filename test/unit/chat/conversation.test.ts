import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppendBatcher, type Timer } from '../../../src/core/chat/appendBatcher';
import { createConversation, effectiveParams, requestMessages, titleFrom, type Conversation } from '../../../src/core/chat/conversation';
import { conversationView } from '../../../src/core/chat/conversationView';
import { exportMarkdown } from '../../../src/core/chat/exportMarkdown';
import { parseConversation, serializeConversation, STORED_CONVERSATION_VERSION } from '../../../src/core/chat/history/serialization';
import type { AppendMessage } from '../../../src/core/chat/protocol/chatProtocol';
import { contentText } from '../../../src/core/api/contentParts';

function manualTimer(): Timer & { fire(): void; pending: number } {
  let callbacks: (() => void)[] = [];
  return {
    set: (callback) => { callbacks.push(callback); return callbacks.length; },
    clear: () => { callbacks = []; },
    fire() { const run = callbacks; callbacks = []; run.forEach((c) => c()); },
    get pending() { return callbacks.length; },
  };
}

function sample(): Conversation {
  const c = createConversation(1000);
  c.title = 'Sample';
  c.messages.push(
    { id: 'u1', role: 'user', text: 'Explain this', createdAt: 1, attachments: [{ id: 'a', kind: 'selection', label: 'x.ts:1-2', detail: 'src/x.ts, lines 1-2', content: 'let a = 1;', languageId: 'typescript' }] },
    { id: 'a1', role: 'assistant', text: 'It declares', createdAt: 2, status: 'stopped', meta: { model: 'm-1', requestId: 'req-1', creditsSpent: 0.5 } },
    { id: 'u2', role: 'user', text: 'Again', createdAt: 3 },
    { id: 'a2', role: 'assistant', text: '', createdAt: 4, status: 'error', error: { kind: 'rateLimited', message: 'Slow down', status: 429 } },
  );
  return c;
}

describe('chat append batcher', () => {
  it('sends the first text at once, then coalesces until enough text or the longest wait, with consecutive seq numbers', () => {
    const timer = manualTimer();
    const sent: AppendMessage[] = [];
    const batcher = new AppendBatcher((a) => sent.push(a), { maxWaitMs: 200, flushChars: 8 }, timer);
    batcher.push('Hi');
    assert.deepEqual(sent, [{ seq: 1, text: 'Hi' }], 'the first text is not held back');
    batcher.push('a');
    batcher.push('b');
    assert.equal(sent.length, 1);
    assert.equal(timer.pending, 1, 'one timer for the pending text');
    timer.fire();
    assert.deepEqual(sent.at(-1), { seq: 2, text: 'ab' }, 'the longest wait sends what gathered');
    batcher.push('12345');
    batcher.push('678');
    assert.deepEqual(sent.at(-1), { seq: 3, text: '12345678' }, 'enough text goes without waiting');
    assert.equal(timer.pending, 0, 'flush cancels the timer');
    batcher.push('d');
    batcher.flush();
    assert.deepEqual(sent.at(-1), { seq: 4, text: 'd' });
  });

  it('sends pending answer text before thinking text (and back), each append of one kind', () => {
    const timer = manualTimer();
    const sent: AppendMessage[] = [];
    const batcher = new AppendBatcher((a) => sent.push(a), { flushChars: 100 }, timer);
    batcher.push('think', true);
    batcher.push('ing', true);
    batcher.push('Ans');
    batcher.push('wer');
    batcher.flush();
    assert.deepEqual(sent, [{ seq: 1, text: 'think', reasoning: true }, { seq: 2, text: 'ing', reasoning: true }, { seq: 3, text: 'Answer' }]);
  });

  it('drops pending text on discard (the snapshot carries it) without reusing seq numbers', () => {
    const timer = manualTimer();
    const sent: AppendMessage[] = [];
    const batcher = new AppendBatcher((a) => sent.push(a), {}, timer);
    batcher.push('x');
    batcher.push('lost-to-snapshot');
    batcher.discardPending();
    assert.equal(batcher.lastSeq, 1);
    batcher.push('y');
    batcher.flush();
    assert.deepEqual(sent.map((a) => [a.seq, a.text]), [[1, 'x'], [2, 'y']]);
  });
});

describe('chat conversation model', () => {
  it('builds request messages with the system prompt and attached context, skipping failed answers', () => {
    const c = sample();
    const messages = requestMessages(c, 'Be brief', 3);
    assert.deepEqual(messages.map((m) => m.role), ['system', 'user', 'assistant', 'user']);
    assert.match(contentText(messages[1].content), /Selected code from src\/x.ts, lines 1-2:\n```typescript\nlet a = 1;\n```\n\nExplain this$/);
    assert.equal(messages[2].content, 'It declares', 'a stopped partial answer is part of the context');
    assert.equal(requestMessages(c, '   ').filter((m) => m.role === 'assistant').length, 1, 'the error card is not sent');
  });

  it('keeps attachment content out of the webview view', () => {
    const view = conversationView(sample());
    assert.deepEqual(view.messages[0].attachments, [{ id: 'a', kind: 'selection', label: 'x.ts:1-2', detail: 'src/x.ts, lines 1-2', chars: 10 }], 'its size, never its content');
    assert.doesNotMatch(JSON.stringify(view), /let a = 1/);
  });

  it('lets per-conversation overrides win over settings', () => {
    const c = sample();
    c.params = { temperature: 0.1 };
    assert.deepEqual(effectiveParams(c, { temperature: 0.9, max_tokens: 100 }), { temperature: 0.1, max_tokens: 100 });
  });

  it('titles a conversation from the first line of the first message', () => {
    assert.equal(titleFrom('  How do I\nparse SSE?'), 'How do I');
    assert.equal(titleFrom('x'.repeat(100)).length, 58);
    assert.equal(titleFrom('   '), 'New chat');
  });
});

describe('chat history serialisation', () => {
  it('round-trips a conversation', () => {
    const c = sample();
    assert.deepEqual(parseConversation(serializeConversation(c)), c);
    c.messages.push({ id: 'a3', role: 'assistant', text: 'At the same time', createdAt: 5, status: 'done', meta: { requestId: 'req-3', spendNotMeasured: 'overlapped' } });
    assert.deepEqual(parseConversation(serializeConversation(c)), c, 'with why an answer has no spend');
    const raw = JSON.parse(serializeConversation(c));
    raw.messages.at(-1).meta.spendNotMeasured = 'whatever';
    assert.equal(parseConversation(JSON.stringify(raw))?.messages.at(-1)?.meta?.spendNotMeasured, undefined, 'an unknown reason is dropped');
  });

  it('restores an answer saved mid-stream as interrupted, keeping its text', () => {
    const c = sample();
    c.messages.push({ id: 'a3', role: 'assistant', text: 'partial', createdAt: 5, status: 'streaming' });
    const restored = parseConversation(serializeConversation(c));
    assert.equal(restored?.messages.at(-1)?.status, 'interrupted');
    assert.equal(restored?.messages.at(-1)?.text, 'partial');
  });

  it('rejects other versions and garbage, and drops malformed messages', () => {
    assert.equal(parseConversation('{'), undefined);
    assert.equal(parseConversation(JSON.stringify({ ...JSON.parse(serializeConversation(sample())), v: 3 })), undefined);
    const raw = JSON.parse(serializeConversation(sample()));
    raw.messages.push({ role: 'system', text: 'x', id: 'bad' }, 'nope');
    raw.apiKey = 'sk-should-not-survive';
    const parsed = parseConversation(JSON.stringify(raw));
    assert.equal(parsed?.messages.length, 4);
    assert.doesNotMatch(JSON.stringify(parsed), /sk-should-not-survive/);
  });
});

describe('chat markdown export', () => {
  it('exports turns, stopped/error states and answer metadata', () => {
    const md = exportMarkdown(sample());
    assert.match(md, /^# Sample\n/);
    assert.match(md, /## You\n\n_Attached: src\/x.ts, lines 1-2_\n\nExplain this/);
    assert.match(md, /## Assistant\n\nIt declares\n\n_\(stopped by the user; partial answer\)_/);
    assert.match(md, /model m-1 · request req-1 · 0.5 credits/);
    const overlapped = sample();
    overlapped.messages.push({ id: 'a3', role: 'assistant', text: 'At the same time', createdAt: 5, status: 'done', meta: { requestId: 'req-3', spendNotMeasured: 'overlapped' } });
    assert.match(exportMarkdown(overlapped), /request req-3 · credits not measured/);
    assert.match(md, /> \*\*Error:\*\* Slow down/);
  });
});

describe('chat history migration', () => {
  const fixture = (name: string) => readFileSync(join(__dirname, '..', '..', '..', '..', 'test', 'unit', 'chat', 'fixtures', name), 'utf8');

  it('reads a version-1 file as the extension wrote it before protocol 2, and saves it as version 2 without view labels', () => {
    const v1 = fixture('conversation-v1.json');
    const conversation = parseConversation(v1);
    assert.ok(conversation, 'the old file is read');
    assert.equal(conversation.title, 'Explain this');
    assert.equal(conversation.model, 'emu-chat-small');
    assert.deepEqual(conversation.params, { temperature: 0.3, max_tokens: 200 });
    assert.equal(conversation.messages.length, 6);
    assert.equal(conversation.messages[0].attachments?.[0].content, 'let a = 1;');
    assert.equal(conversation.messages[1].meta?.creditsSpent, 0.0042);
    assert.deepEqual(conversation.messages[3].error, { kind: 'rateLimited', message: 'Rate limit reached for this key (HTTP 429).', status: 429, requestId: 'req_2' });
    assert.equal(conversation.messages[5].status, 'interrupted', 'an answer saved mid-stream');

    const v2 = serializeConversation(conversation);
    assert.equal(JSON.parse(v2).v, STORED_CONVERSATION_VERSION);
    assert.doesNotMatch(v2, /"actions"|"label":"Retry"|Copy Request ID/, 'no button label is written back');
    assert.deepEqual(parseConversation(v2), conversation, 'version 2 reads back the same conversation');
    // The card shown for the migrated error gets today's actions.
    assert.deepEqual(conversationView(conversation).messages[3].error?.actions.map((a) => a.id), ['retry', 'copyRequestId', 'openLogs']);
  });
});
