import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createConversation, type Conversation, type ConversationMessage } from '../../../src/core/chat/conversation';
import { HistoryStore, type DamagedHistory, type HistoryStoreOptions } from '../../../src/core/chat/history/historyStore';
import { replayJournal, replayLog } from '../../../src/core/chat/history/historyLog';
import { serializeConversation } from '../../../src/core/chat/history/serialization';
import { manualTimer } from '../../shared/manualTimer';

const LIVE_PIDS = new Set<number>();
const DEAD_PID = 999_999_001;

describe('chat history store (append-only log and streaming journal)', () => {
  let dir: string;
  let timer: ReturnType<typeof manualTimer>;
  let damaged: DamagedHistory[];
  const open = (options: Partial<HistoryStoreOptions> = {}) => new HistoryStore({
    dir, timer, pid: 4242, isAlive: (pid) => pid === 4242 || LIVE_PIDS.has(pid), onDamaged: (d) => damaged.push(d), ...options,
  });
  const files = () => fs.readdirSync(dir).filter((name) => name !== 'damaged' && name !== 'history.index').sort();

  function conversationWithQuestion(text = 'Question?'): Conversation {
    const conversation = createConversation(1);
    conversation.title = 'T';
    conversation.messages.push({ id: 'u1', role: 'user', text, createdAt: 1 });
    return conversation;
  }
  function startAnswer(conversation: Conversation): ConversationMessage {
    const answer: ConversationMessage = { id: 'a1', role: 'assistant', text: '', createdAt: 2, status: 'streaming', meta: { model: 'm' } };
    conversation.messages.push(answer);
    return answer;
  }

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'history-test-'));
    timer = manualTimer();
    damaged = [];
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('journals a streaming answer append-only and compacts it into the log when the turn ends', async () => {
    const store = open();
    const conversation = conversationWithQuestion();
    await store.save(conversation);
    const logAfterQuestion = fs.readFileSync(path.join(dir, `${conversation.id}.json`), 'utf8');
    const answer = startAnswer(conversation);
    const pieces = ['Hello', ', wor', 'ld ', '"quoted"\n', 'é漢🙂'];
    for (const piece of pieces) {
      answer.text += piece;
      store.saveSoon(conversation);
      timer.fire();
      await store.flush();
    }
    const journal = path.join(dir, `${conversation.id}.4242.stream`);
    const journalText = fs.readFileSync(journal, 'utf8');
    assert.equal(journalText.split('\n').length - 1, pieces.length, 'one start line and one line per later write');
    assert.equal(replayJournal(journalText)?.text, pieces.join(''));
    assert.equal(fs.readFileSync(path.join(dir, `${conversation.id}.json`), 'utf8'), logAfterQuestion, 'the log is not touched while streaming');

    answer.status = 'done';
    await store.save(conversation);
    assert.deepEqual(files(), [`${conversation.id}.json`], 'the journal is gone once the answer is in the log');
    const log = fs.readFileSync(path.join(dir, `${conversation.id}.json`), 'utf8');
    assert.ok(log.startsWith(logAfterQuestion), 'the answer was appended, not rewritten');
    const reopened = await open().load(conversation.id);
    assert.equal(reopened?.messages[1].text, pieces.join(''));
    assert.equal(reopened?.messages[1].status, 'done');
  });

  it('after a crash, reopens the conversation with the text up to the last write, marked interrupted', async () => {
    const crashed = open({ pid: DEAD_PID, isAlive: () => true });
    const conversation = conversationWithQuestion();
    await crashed.save(conversation);
    const answer = startAnswer(conversation);
    answer.text = 'written before the crash';
    await crashed.writeStreaming(conversation);
    answer.text += ' and this never reached the disk';
    // The process dies here: nothing more is written. A torn last write is ignored too.
    fs.appendFileSync(path.join(dir, `${conversation.id}.${DEAD_PID}.stream`), '{"t":"half a wri');

    const store = open();
    const reopened = await store.load(conversation.id);
    assert.equal(reopened?.messages.length, 2);
    assert.equal(reopened?.messages[1].text, 'written before the crash');
    assert.equal(reopened?.messages[1].status, 'interrupted');
    assert.deepEqual(files(), [`${conversation.id}.json`], 'the journal was folded into the log');
    assert.deepEqual(damaged, [], 'a crash is not damage');
    assert.equal((await open().load(conversation.id))?.messages[1].text, 'written before the crash');
  });

  it('a journal carrying this process\'s pid from before it started is a crash too (pid reused)', async () => {
    const before = open({ isAlive: () => true });
    const conversation = conversationWithQuestion();
    await before.save(conversation);
    startAnswer(conversation).text = 'from the previous process';
    await before.writeStreaming(conversation);
    const reopened = await open().load(conversation.id);
    assert.equal(reopened?.messages[1].status, 'interrupted');
    assert.deepEqual(files(), [`${conversation.id}.json`]);
  });

  it('never takes a live window\'s journal for a crash: reads it, leaves it alone', async () => {
    const otherPid = 5151;
    LIVE_PIDS.add(otherPid);
    try {
      const other = open({ pid: otherPid });
      const conversation = conversationWithQuestion();
      await other.save(conversation);
      startAnswer(conversation).text = 'still streaming in the other window';
      await other.writeStreaming(conversation);
      const store = open();
      assert.equal((await store.list()).length, 1);
      assert.equal((await store.load(conversation.id))?.messages[1].text, 'still streaming in the other window');
      assert.ok(files().includes(`${conversation.id}.${otherPid}.stream`));
    } finally {
      LIVE_PIDS.delete(otherPid);
    }
  });

  it('two stores (two windows) streaming at once keep each other\'s conversations', async () => {
    LIVE_PIDS.add(1).add(2);
    try {
      const windows = [open({ pid: 1 }), open({ pid: 2 })];
      const conversations = windows.map((_, i) => conversationWithQuestion(`question ${i}`));
      await Promise.all(windows.map((w, i) => w.save(conversations[i])));
      const answers = conversations.map(startAnswer);
      for (let round = 0; round < 20; round++) {
        windows.forEach((w, i) => {
          answers[i].text += `${i}:${round} `;
          void w.writeStreaming(conversations[i]);
        });
        if (round % 5 === 0) await Promise.all(windows.map((w) => w.list()));
      }
      answers.forEach((a) => (a.status = 'done'));
      await Promise.all(windows.map((w, i) => w.save(conversations[i])));
      const summaries = await open().list();
      assert.equal(summaries.length, 2);
      for (const [i, conversation] of conversations.entries()) {
        const loaded = await open().load(conversation.id);
        assert.equal(loaded?.messages[1].text, answers[i].text);
      }
    } finally {
      LIVE_PIDS.delete(1);
      LIVE_PIDS.delete(2);
    }
  });

  describe('two windows on one conversation: a rewrite keeps what the other window added (issue 37)', () => {
    const turn = (id: string, text: string, createdAt: number): ConversationMessage[] => [
      { id: `${id}-q`, role: 'user', text, createdAt },
      { id: `${id}-a`, role: 'assistant', text: `Answer to ${text}`, createdAt: createdAt + 1, status: 'done' },
    ];

    /** Window 1 writes turn A; window 2 opens the conversation and adds turn F; window 1 never saw F. */
    async function twoWindows(): Promise<{ first: HistoryStore; second: HistoryStore; conversation: Conversation; file: string }> {
      LIVE_PIDS.add(1).add(2);
      const first = open({ pid: 1 });
      const second = open({ pid: 2 });
      const conversation = createConversation(1);
      conversation.messages.push(...turn('A', 'A?', 10));
      await first.save(conversation);
      const elsewhere = await second.load(conversation.id);
      assert.ok(elsewhere);
      elsewhere.messages.push(...turn('F', 'F?', 20));
      await second.save(elsewhere);
      return { first, second, conversation, file: path.join(dir, `${conversation.id}.json`) };
    }
    afterEach(() => {
      LIVE_PIDS.delete(1);
      LIVE_PIDS.delete(2);
    });

    it('compaction: a long question edited into a short one in the first window keeps the second window\'s turn', async () => {
      const { first, conversation, file } = await twoWindows();
      conversation.messages.push(...turn('B', 'x'.repeat(127_000), 30));
      await first.save(conversation);
      // Edit and resend: the long turn goes, a short one takes its place; superseded lines now dominate.
      conversation.messages = conversation.messages.filter((m) => !m.id.startsWith('B-'));
      conversation.messages.push(...turn('C', 'short', 40));
      await first.save(conversation);
      assert.ok(fs.statSync(file).size < 20_000, 'the log was compacted');
      const loaded = await open({ pid: 3 }).load(conversation.id);
      assert.deepEqual(loaded?.messages.map((m) => m.id), ['A-q', 'A-a', 'F-q', 'F-a', 'C-q', 'C-a']);
    });

    it('reorder: a change appending cannot express rewrites the file, and keeps the second window\'s turn', async () => {
      const { first, conversation } = await twoWindows();
      conversation.messages.reverse();
      await first.save(conversation);
      const loaded = await open({ pid: 3 }).load(conversation.id);
      assert.deepEqual(new Set(loaded?.messages.map((m) => m.id)), new Set(['A-q', 'A-a', 'F-q', 'F-a']));
    });

    it('a write after the window let go of the file (closed, or a write failed) keeps the second window\'s turn', async () => {
      const { first, conversation } = await twoWindows();
      first.release(conversation.id);
      await first.flush();
      conversation.messages.push(...turn('D', 'D?', 50));
      await first.save(conversation);
      const loaded = await open({ pid: 3 }).load(conversation.id);
      assert.deepEqual(loaded?.messages.map((m) => m.id), ['A-q', 'A-a', 'F-q', 'F-a', 'D-q', 'D-a']);
    });

    it('the first window reads the second window\'s turn once, and only when the file changed', async () => {
      const { first, second, conversation } = await twoWindows();
      const changed = await first.changedElsewhere(conversation.id);
      assert.deepEqual(changed?.conversation.messages.map((m) => m.id), ['A-q', 'A-a', 'F-q', 'F-a']);
      assert.equal(changed.take(), true);
      assert.equal(await first.changedElsewhere(conversation.id), undefined, 'read once');
      assert.equal(await second.changedElsewhere(conversation.id), undefined, 'nothing changed for the window that wrote last');
      // Later saves go on from what was read: appending keeps both windows' turns, once each.
      const followed = changed.conversation;
      followed.messages.push(...turn('G', 'G?', 30));
      await first.save(followed);
      const loaded = await open({ pid: 3 }).load(conversation.id);
      assert.deepEqual(loaded?.messages.map((m) => m.id), ['A-q', 'A-a', 'F-q', 'F-a', 'G-q', 'G-a']);
      assert.deepEqual((await second.changedElsewhere(conversation.id))?.conversation.messages.map((m) => m.id), ['A-q', 'A-a', 'F-q', 'F-a', 'G-q', 'G-a']);
    });

    it('a look begun before a save of this window takes nothing: the save keeps the other window\'s turn, the next look reads it all', async () => {
      const { first, conversation } = await twoWindows();
      const reading = first.changedElsewhere(conversation.id);
      conversation.messages.push(...turn('H', 'A question of another length', 30));
      const saving = first.save(conversation);
      const changed = await reading;
      assert.equal(changed?.take() ?? false, false, 'this window saved since the look began');
      await saving;
      const again = await first.changedElsewhere(conversation.id);
      // H follows what its window showed when it was written (A), before the turn it never saw.
      assert.deepEqual(again?.conversation.messages.map((m) => m.id), ['A-q', 'A-a', 'H-q', 'H-a', 'F-q', 'F-a']);
      // A save between the read and taking it: not taken either.
      again.conversation.messages.push(...turn('I', 'I?', 40));
      const later = first.save(again.conversation);
      assert.equal(again.take(), false, 'this window saved since the read');
      await later;
    });

    it('a conversation this window never wrote or read is not followed (nothing to compare)', async () => {
      const { conversation } = await twoWindows();
      assert.equal(await open({ pid: 5 }).changedElsewhere(conversation.id), undefined);
    });

    /** Window 1 asks Q1 in a new conversation; window 2 is open on the same folder. */
    async function questionInFirstWindow(): Promise<{ first: HistoryStore; second: HistoryStore; conversation: Conversation; a1: ConversationMessage }> {
      LIVE_PIDS.add(1).add(2);
      const [first, second] = [open({ pid: 1 }), open({ pid: 2 })];
      const conversation = createConversation(1);
      const [q1, a1] = turn('1', 'First window?', 10);
      conversation.messages.push(q1);
      await first.save(conversation);
      return { first, second, conversation, a1 };
    }

    it('two answers streamed at once into one conversation from two windows each follow their own question', async () => {
      const { first, second, conversation, a1 } = await questionInFirstWindow();
      const elsewhere = (await second.load(conversation.id))!;
      const [q2, a2] = turn('2', 'Second window?', 20);
      elsewhere.messages.push(q2);
      await second.save(elsewhere);
      // Each answer ends after both questions are in the log, the first window's first.
      conversation.messages.push(a1);
      await first.save(conversation);
      elsewhere.messages.push(a2);
      await second.save(elsewhere);
      const loaded = await open({ pid: 3 }).load(conversation.id);
      assert.deepEqual(loaded?.messages.map((m) => m.id), ['1-q', '1-a', '2-q', '2-a']);
    });

    it('a recovered journal: the dead window\'s answer goes back after its question, the other window\'s turn kept', async () => {
      const { first, second, conversation, a1 } = await questionInFirstWindow();
      conversation.messages.push({ ...a1, text: 'Half an ans', status: 'streaming' });
      await first.save(conversation);
      await first.writeStreaming(conversation);
      const elsewhere = (await second.load(conversation.id))!;
      elsewhere.messages.push(...turn('F', 'F?', 20));
      await second.save(elsewhere);
      LIVE_PIDS.delete(1); // the first window dies mid-answer
      const loaded = await open({ pid: 3 }).load(conversation.id);
      assert.deepEqual(loaded?.messages.map((m) => [m.id, m.status]), [['1-q', undefined], ['1-a', 'interrupted'], ['F-q', undefined], ['F-a', 'done']]);
      assert.equal(loaded.messages[1].text, 'Half an ans');
      // The rewrite that folded the journal in kept the second window's turn on disk too.
      assert.deepEqual((await open({ pid: 4 }).load(conversation.id))?.messages.map((m) => m.id), ['1-q', '1-a', 'F-q', 'F-a']);
    });

    it('what the first window removed itself stays removed', async () => {
      const { first, conversation } = await twoWindows();
      conversation.messages.reverse();
      await first.save(conversation);
      conversation.messages = conversation.messages.filter((m) => !m.id.startsWith('A-'));
      conversation.messages.push(...turn('E', 'x'.repeat(100_000), 60));
      await first.save(conversation);
      conversation.messages = conversation.messages.filter((m) => !m.id.startsWith('E-'));
      await first.save(conversation);
      const loaded = await open({ pid: 3 }).load(conversation.id);
      assert.deepEqual(new Set(loaded?.messages.map((m) => m.id)), new Set(['F-q', 'F-a']));
    });
  });

  it('a truncated log: reported once, the original moved aside untouched, the readable part kept, others still load', async () => {
    const store = open();
    const good = conversationWithQuestion('good');
    const torn = conversationWithQuestion('torn');
    await store.save(good);
    await store.save(torn);
    torn.messages.push({ id: 'a1', role: 'assistant', text: 'an answer', createdAt: 2, status: 'done' });
    await store.save(torn);
    const tornFile = path.join(dir, `${torn.id}.json`);
    const original = fs.readFileSync(tornFile, 'utf8');
    const cut = original.slice(0, original.length - 10);
    fs.writeFileSync(tornFile, cut);

    const reopened = open();
    const summaries = await reopened.list();
    assert.equal(summaries.length, 2, 'both conversations are listed');
    assert.equal(damaged.length, 1);
    assert.equal(damaged[0].recovered, true);
    assert.deepEqual(damaged[0].problems.map((p) => p.kind), ['truncated']);
    assert.equal(fs.readFileSync(damaged[0].movedTo, 'utf8'), cut, 'the original bytes are kept aside');
    assert.equal((await reopened.load(torn.id))?.messages.length, 1, 'what was readable: the question');
    await open().list();
    assert.equal(damaged.length, 1, 'reported once');
  });

  it('a corrupt log that cannot be read at all is moved aside, not deleted or overwritten', async () => {
    const store = open();
    const good = conversationWithQuestion('good');
    await store.save(good);
    fs.writeFileSync(path.join(dir, 'broken-1.json'), '\u0000\u0001 not json at all');
    const summaries = await open().list();
    assert.deepEqual(summaries.map((s) => s.id), [good.id]);
    assert.equal(damaged.length, 1);
    assert.equal(damaged[0].recovered, false);
    assert.equal(fs.readFileSync(damaged[0].movedTo, 'utf8'), '\u0000\u0001 not json at all');
    assert.ok(!files().includes('broken-1.json'));
  });

  it('reads the single-line files of earlier versions, and appends to them', async () => {
    const conversation = conversationWithQuestion('legacy');
    fs.writeFileSync(path.join(dir, `${conversation.id}.json`), serializeConversation(conversation));
    const store = open();
    const loaded = await store.load(conversation.id);
    assert.equal(loaded?.messages[0].text, 'legacy');
    loaded!.messages.push({ id: 'a9', role: 'assistant', text: 'new', createdAt: 3, status: 'done' });
    await store.save(loaded!);
    assert.equal((await open().load(conversation.id))?.messages[1].text, 'new');
    assert.deepEqual(damaged, []);
  });

  it('records removals and header changes, and compacts when superseded lines dominate', async () => {
    const store = open();
    const conversation = conversationWithQuestion();
    await store.save(conversation);
    conversation.messages.push({ id: 'a1', role: 'assistant', text: 'x'.repeat(40_000), createdAt: 2, status: 'done' });
    await store.save(conversation);
    for (let i = 0; i < 5; i++) {
      conversation.messages = conversation.messages.filter((m) => m.id !== `a${i + 1}`);
      conversation.messages.push({ id: `a${i + 2}`, role: 'assistant', text: 'y'.repeat(40_000), createdAt: 3, status: 'done' });
      conversation.title = `Title ${i}`;
      await store.save(conversation);
    }
    const file = path.join(dir, `${conversation.id}.json`);
    const size = fs.statSync(file).size;
    assert.ok(size < 3 * 40_000 + 70_000, `compacted (${size} bytes)`);
    const loaded = await open().load(conversation.id);
    assert.deepEqual(loaded?.messages.map((m) => m.id), ['u1', 'a6']);
    assert.equal(loaded?.title, 'Title 4');
    assert.deepEqual(replayLog(fs.readFileSync(file, 'utf8')).problems, []);
  });

  it('removes temporary files and journals that dead processes left, keeps those of live ones', async () => {
    LIVE_PIDS.add(6161);
    try {
      const conversation = conversationWithQuestion();
      await open().save(conversation);
      const names = [`${conversation.id}.json.${DEAD_PID}.tmp`, `${conversation.id}.json.6161.tmp`, `orphan-1.${DEAD_PID}.stream`];
      for (const name of names) fs.writeFileSync(path.join(dir, name), '{"op":"begin","message":{"id":"x","role":"assistant","text":"","createdAt":0}}\n');
      await open().list();
      assert.deepEqual(files(), [`${conversation.id}.json`, `${conversation.id}.json.6161.tmp`].sort());
    } finally {
      LIVE_PIDS.delete(6161);
    }
  });

  it('flush() writes the pending streamed text and waits for it (the window is closing)', async () => {
    const store = open();
    const conversation = conversationWithQuestion();
    await store.save(conversation);
    const answer = startAnswer(conversation);
    answer.text = 'pending when the window closed';
    store.saveSoon(conversation);
    await store.flush();
    assert.equal(replayJournal(fs.readFileSync(path.join(dir, `${conversation.id}.4242.stream`), 'utf8'))?.text, answer.text);
  });

  it('a deleted conversation stays deleted, even when its answer ends afterwards', async () => {
    const store = open();
    const conversation = conversationWithQuestion();
    await store.save(conversation);
    const answer = startAnswer(conversation);
    answer.text = 'abc';
    await store.writeStreaming(conversation);
    await store.delete(conversation.id);
    answer.status = 'stopped';
    await store.save(conversation);
    assert.deepEqual(files(), []);
  });
});
