import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ApiError } from '../../../src/core/api/errors';
import { ChatEngine } from '../../../src/core/chat/chatEngine';
import { comparisonsLabel, createConversation, summary } from '../../../src/core/chat/conversation';
import { encodeIndex, parseIndex } from '../../../src/core/chat/history/historyIndex';
import { replayLog } from '../../../src/core/chat/history/historyLog';
import { searchLog } from '../../../src/core/chat/history/historySearch';
import { parseConversation, serializeConversation } from '../../../src/core/chat/history/serialization';
import * as os from 'node:os';
import { newComparisonTurn } from '../../../src/core/chat/comparison/comparisonTurn';
import { HistoryStore } from '../../../src/core/chat/history/historyStore';
import { comparedConversation } from '../../shared/comparedConversation';
import { FakeComparisonBackend, FakeSaver, FakeView } from '../fakes/chatEngine';
import { manualTimer } from '../../shared/manualTimer';

/** A comparison in the conversation's stored form: saved, read back, and older files unchanged. */

const fixture = path.join(__dirname, '..', '..', '..', '..', 'test', 'unit', 'chat', 'fixtures', 'conversation-v1.json');

describe('comparisons in the history (core/chat/history/serialization)', () => {
  it('round-trips a comparison with its columns, their figures, errors and the chosen one', async () => {
    const backend = new FakeComparisonBackend();
    backend.openErrorsByModel.set('b', [new ApiError('modelNotFound', 'Unknown model.', { status: 404 })]);
    const saver = new FakeSaver();
    const engine = new ChatEngine(createConversation(0), new FakeView(), saver, backend, { appendPacing: { flushChars: 1 } });
    await engine.compare('Q', ['a', 'b', 'c']);
    await engine.whenIdle();
    const turn = engine.conversation.messages.at(-1);
    const chosen = turn?.comparison?.columns[2].answer.id ?? assert.fail('no column');
    await engine.continueWith(turn?.id ?? '', chosen);
    const restored = parseConversation(serializeConversation(engine.conversation));
    assert.deepEqual(restored, engine.conversation);
    assert.equal(restored?.messages.at(-1)?.comparison?.chosen, chosen);
    assert.deepEqual(restored?.messages.at(-1)?.comparison?.columns.map((c) => c.answer.status), ['done', 'error', 'done']);
    assert.deepEqual(parseConversation(saver.saved.at(-1) ?? ''), engine.conversation, 'what the engine saved last');
    assert.equal(summary(engine.conversation).model, 'c');
    // A log of one line and a message change replays to the same.
    assert.deepEqual(replayLog(`${serializeConversation(engine.conversation)}\n`).conversation, engine.conversation);
  });

  it('reads a comparison written while it streamed as interrupted, and drops what it cannot read', () => {
    const answer = (id: string, status: string) => ({ id, role: 'assistant', text: 'x', createdAt: 1, status, meta: { model: 'm' } });
    const raw = {
      v: 2, id: 'c1', title: 't', params: {}, createdAt: 0, updatedAt: 0,
      messages: [
        { id: 'q', role: 'user', text: 'Q', createdAt: 0 },
        { id: 't', role: 'assistant', text: '', createdAt: 1, status: 'streaming', comparison: { chosen: 'unknown', columns: [{ model: 'a', answer: answer('a1', 'streaming') }, { answer: answer('b1', 'done') }, { model: 'c', answer: { id: 'c1' } }] } },
        { id: 'u', role: 'user', text: 'not a comparison', createdAt: 2, comparison: { columns: [{ model: 'a', answer: answer('z', 'done') }] } },
        { id: 'e', role: 'assistant', text: '', createdAt: 3, comparison: { columns: [] } },
      ],
    };
    const conversation = parseConversation(JSON.stringify(raw));
    const [, turn, question, empty] = conversation?.messages ?? [];
    assert.equal(turn.status, 'interrupted');
    assert.deepEqual(turn.comparison?.columns.map((c) => [c.model, c.answer.status]), [['a', 'interrupted']]);
    assert.equal(turn.comparison?.chosen, undefined, 'a chosen id naming no column is dropped');
    assert.equal(question.comparison, undefined, 'only an answer can be a comparison');
    assert.equal(empty.comparison, undefined, 'a comparison without columns is not one');
  });

  it('loads conversations written before comparisons unchanged', () => {
    const text = fs.readFileSync(fixture, 'utf8');
    const conversation = parseConversation(text);
    assert.ok(conversation);
    assert.ok(conversation.messages.every((m) => m.comparison === undefined));
    const saved = JSON.parse(serializeConversation(conversation)) as { messages: Record<string, unknown>[] };
    assert.ok(saved.messages.every((m) => !('comparison' in m)), 'and they are saved without the field');
    assert.deepEqual(parseConversation(serializeConversation(conversation)), conversation);
  });

  it('journals each column\'s new text as a single answer\'s, and after a crash reopens every column with its text, interrupted', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'comparison-journal-'));
    try {
      const timer = manualTimer();
      const deadPid = 999_999_002;
      const crashed = new HistoryStore({ dir, timer, pid: deadPid, isAlive: (pid) => pid === deadPid });
      const conversation = createConversation(1);
      conversation.messages.push({ id: 'q', role: 'user', text: 'Q', createdAt: 1 });
      const turn = newComparisonTurn(['a', 'b', 'c'], 2);
      conversation.messages.push(turn);
      await crashed.save(conversation);
      const [a, b] = turn.comparison?.columns.map((column) => column.answer) ?? [];
      a.meta = { ...a.meta, startedAt: 3 };
      b.meta = { ...b.meta, startedAt: 3 };
      const writes = [['Hel', ''], ['lo "a"', 'Bé'], ['', '漢🙂 b']];
      for (const [forA, forB] of writes) {
        a.text += forA;
        b.text += forB;
        crashed.saveSoon(conversation);
        timer.fire();
        await crashed.flush();
      }
      const journalFile = path.join(dir, `${conversation.id}.${deadPid}.stream`);
      const journal = fs.readFileSync(journalFile, 'utf8');
      // Each write carries the new text only, never a column's whole text again.
      assert.ok(journal.length < 1500, `journal of ${journal.length} characters`);
      assert.equal(journal.split('"Hel').length - 1, 1, 'a column\'s text is written once');
      // The process dies: nothing more is written.
      const reopened = await new HistoryStore({ dir, timer, pid: 4243, isAlive: (pid) => pid === 4243 }).load(conversation.id);
      const restored = reopened?.messages[1];
      assert.equal(restored?.id, turn.id);
      assert.equal(restored?.status, 'interrupted');
      assert.deepEqual(restored?.comparison?.columns.map((c) => [c.model, c.answer.text, c.answer.status]), [
        ['a', 'Hello "a"', 'interrupted'], ['b', 'Bé漢🙂 b', 'interrupted'], ['c', '', 'interrupted'],
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('drops a malformed comparison field and keeps the conversation and the turn', () => {
    const raw = JSON.parse(serializeConversation(comparedConversation())) as { messages: Record<string, unknown>[] };
    for (const garbage of [42, 'columns', null, [], { columns: 'x' }, { columns: [1, null, 'a'] }]) {
      raw.messages[1].comparison = garbage;
      const conversation = parseConversation(JSON.stringify(raw));
      assert.deepEqual(conversation?.messages.map((m) => [m.id, m.comparison]), [['q1', undefined], ['turn-1', undefined]], JSON.stringify(garbage));
    }
  });
});

describe('comparisons in the history\'s listing and search', () => {
  const log = (conversation = comparedConversation()) => Buffer.from(`${serializeConversation(conversation)}\n`);

  it('search finds text in any column of a comparison, and names the turn', () => {
    const conversation = comparedConversation();
    assert.deepEqual(searchLog(conversation, log(), 'QUICKSORT'), { id: 'conv-1', title: 'Which sort?', updatedAt: 20, messageId: 'turn-1', snippet: 'Quicksort. ``` unclosed' });
    assert.equal(searchLog(conversation, log(), 'ignore the above')?.messageId, 'turn-1', 'the first column too');
    assert.equal(searchLog(conversation, log(), 'mergesort'), undefined);
  });

  it('summarises a conversation with comparisons distinguishably, and one without as before', () => {
    const compared = summary(comparedConversation());
    assert.equal(compared.comparisons, 1);
    assert.equal(compared.comparedModels, 3);
    // The turn's meta holds the comparison's total (comparisonRun.ts); its columns are not added again.
    assert.equal(compared.credits, 0, 'the turn\'s own total, which this one has not');
    assert.equal(summary({ ...comparedConversation(), messages: comparedConversation().messages.map((m) => (m.comparison ? { ...m, meta: { ...m.meta, creditsSpent: 0.75 } } : m)) }).credits, 0.75);
    assert.equal(comparisonsLabel(compared), 'compared 3 models');
    assert.equal(comparisonsLabel({ comparisons: 2, comparedModels: 4 }), '2 comparisons of 4 models');
    const plain = summary(createConversation(0));
    assert.ok(!('comparisons' in plain) && !('comparedModels' in plain));
    assert.equal(comparisonsLabel(plain), undefined);
  });

  it('the index keeps the comparison counts, reads older lines without them, and drops malformed ones keeping the entry', () => {
    const compared = summary(comparedConversation());
    assert.deepEqual(parseIndex(encodeIndex([{ summary: compared }])).entries.get('conv-1')?.summary, compared);
    const { comparisons: _c, comparedModels: _m, ...older } = compared;
    assert.deepEqual(parseIndex(encodeIndex([{ summary: older }])).entries.get('conv-1')?.summary, older);
    for (const bad of [{ comparisons: 'one', comparedModels: 3 }, { comparisons: 1.5, comparedModels: 3 }, { comparisons: 1 }, { comparisons: 0, comparedModels: 0 }]) {
      const text = `${encodeIndex([])}${JSON.stringify({ ...older, ...bad })}\n`;
      assert.deepEqual(parseIndex(text).entries.get('conv-1')?.summary, older, JSON.stringify(bad));
    }
  });
});
