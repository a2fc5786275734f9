import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createConversation, type Conversation } from '../../../src/core/chat/conversation';
import { HistoryStore, nodeFileSystem, type HistoryFileSystem } from '../../../src/core/chat/history/historyStore';
import { encodeIndex, parseIndex } from '../../../src/core/chat/history/historyIndex';
import { serializeConversation } from '../../../src/core/chat/history/serialization';
import { manualTimer } from '../../shared/manualTimer';

const INDEX = 'history.index';

/** A file system that counts what is read, and can "kill the process" at the index write: that write never happens. */
function instrumentedFs(): HistoryFileSystem & { reads: string[]; killAtIndexWrite: boolean } {
  const isIndex = (file: string) => path.basename(file).startsWith(INDEX);
  const files = {
    ...nodeFileSystem,
    reads: [] as string[],
    killAtIndexWrite: false,
    readFile: (file: string) => {
      files.reads.push(path.basename(file));
      return nodeFileSystem.readFile(file);
    },
    appendFile: async (file: string, data: string) => {
      if (files.killAtIndexWrite && isIndex(file)) return;
      await nodeFileSystem.appendFile(file, data);
    },
    writeFile: async (file: string, data: string) => {
      if (files.killAtIndexWrite && isIndex(file)) return;
      await nodeFileSystem.writeFile(file, data);
    },
    rename: async (from: string, to: string) => {
      if (files.killAtIndexWrite && isIndex(to)) return;
      await nodeFileSystem.rename(from, to);
    },
  };
  return files;
}

describe('chat history index (listing without reading the conversations)', () => {
  let dir: string;
  const open = (fs?: HistoryFileSystem) => new HistoryStore({ dir, timer: manualTimer(), pid: 4242, isAlive: () => true, ...(fs && { fs }) });

  function conversation(title: string, at: number, answers = 1): Conversation {
    const c = createConversation(at);
    c.title = title;
    c.updatedAt = at;
    c.model = 'model-a';
    for (let i = 0; i < answers; i++) {
      c.messages.push({ id: `u${i}`, role: 'user', text: `question ${i} of ${title}`, createdAt: at });
      c.messages.push({ id: `a${i}`, role: 'assistant', text: `answer ${i}`, createdAt: at, status: 'done', meta: { model: 'model-a', creditsSpent: 0.25 } });
    }
    return c;
  }

  async function saved(store: HistoryStore, count: number): Promise<Conversation[]> {
    const all = Array.from({ length: count }, (_, i) => conversation(`chat ${i}`, 1000 + i));
    for (const c of all) await store.save(c);
    return all;
  }

  const titles = async (store: HistoryStore) => (await store.list()).map((s) => s.title);

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'history-index-test-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('lists from the index alone once it is built, and opening a conversation reads that one log', async () => {
    await saved(open(), 5);
    const files = instrumentedFs();
    const store = open(files);
    assert.deepEqual(await titles(store), ['chat 4', 'chat 3', 'chat 2', 'chat 1', 'chat 0'], 'first listing builds the index');
    await store.verified;
    files.reads.length = 0;
    const summaries = await open(files).list();
    assert.deepEqual(files.reads, [INDEX], 'another window\'s listing reads the index only');
    files.reads.length = 0;
    await store.list();
    assert.deepEqual(files.reads, [], 'a second listing in the same window reuses the index it holds');
    assert.deepEqual(summaries[0], { id: summaries[0].id, title: 'chat 4', createdAt: 1004, updatedAt: 1004, messageCount: 2, model: 'model-a', credits: 0.25 });
    await store.verified;
    files.reads.length = 0;
    await store.load(summaries[0].id);
    assert.deepEqual(files.reads, [`${summaries[0].id}.json`]);
  });

  it('keeps the index up to date as conversations are saved and deleted, without reading them back', async () => {
    const files = instrumentedFs();
    const store = open(files);
    const [first, second] = await saved(store, 2);
    await store.list();
    await store.verified;
    first.title = 'renamed';
    first.updatedAt = 5000;
    await store.save(first);
    await store.delete(second.id);
    files.reads.length = 0;
    assert.deepEqual(await titles(store), ['renamed']);
    assert.deepEqual(files.reads, [], 'the index it holds followed its own writes');
    assert.equal(await store.verified, false, 'every entry agreed with its log');
    assert.deepEqual(await titles(open()), ['renamed'], 'and so did the file');
  });

  it('sees what another window saved although it holds the index', async () => {
    const store = open();
    const [first] = await saved(store, 2);
    await store.list();
    await store.verified;
    const other = open();
    const renamed = (await other.load(first.id))!;
    renamed.title = 'renamed in the other window';
    renamed.updatedAt = 8000;
    await other.save(renamed);
    assert.deepEqual(await titles(store), ['renamed in the other window', 'chat 1'], 'at once, not only after the check');
  });

  it('a kill between a log write and its index write loses no conversation and no change', async () => {
    const files = instrumentedFs();
    const store = open(files);
    const [first] = await saved(store, 3);
    await store.list();
    await store.verified;
    // The process dies after each log write, before the index's: the index never hears of these saves.
    files.killAtIndexWrite = true;
    const added = conversation('added before the kill', 9000);
    await store.save(added);
    first.title = 'renamed before the kill';
    first.messages.push({ id: 'u9', role: 'user', text: 'one more', createdAt: 9001 });
    first.updatedAt = 9001;
    await store.save(first);

    const restarted = open();
    const listed = await restarted.list();
    assert.ok(listed.some((s) => s.id === added.id), 'a conversation the index never saw is listed at once');
    assert.equal(await restarted.verified, true, 'the entry that disagrees with its log is found');
    const after = await restarted.list();
    assert.deepEqual(after.map((s) => s.title).slice(0, 2), ['renamed before the kill', 'added before the kill']);
    assert.equal(after.find((s) => s.id === first.id)?.messageCount, 3);
    assert.equal(after.length, 4);
  });

  it('a failing index write does not fail the save, and the next listing is right', async () => {
    const store = open();
    const [first] = await saved(store, 2);
    await store.list();
    await store.verified;
    const errors: string[] = [];
    const fullDisk: HistoryFileSystem = {
      ...nodeFileSystem,
      appendFile: async (file, data) => {
        if (path.basename(file) === INDEX) throw new Error('disk full');
        await nodeFileSystem.appendFile(file, data);
      },
    };
    const failing = new HistoryStore({ dir, timer: manualTimer(), pid: 4242, isAlive: () => true, fs: fullDisk, onError: (m) => errors.push(m) });
    const loaded = (await failing.load(first.id))!;
    loaded.title = 'renamed while the index could not be written';
    await failing.save(loaded);
    assert.deepEqual(errors, [], 'the conversation was saved');
    const reopened = open();
    await reopened.list();
    assert.equal(await reopened.verified, true);
    assert.equal((await reopened.list()).find((s) => s.id === first.id)?.title, 'renamed while the index could not be written');
  });

  it('an index that disagrees with its files is never trusted over them', async () => {
    const store = open();
    const kept = await saved(store, 3);
    await store.list();
    await store.verified;
    // Wrong titles and stamps, an entry for a conversation that has no file, none for one that has.
    const lying = kept.slice(1).map((c) => ({ summary: { id: c.id, title: 'lie', createdAt: 0, updatedAt: 99_999, messageCount: 7, credits: 9 }, stamp: { size: 1, mtimeMs: 1 } }));
    lying.push({ summary: { id: 'ghost', title: 'ghost', createdAt: 0, updatedAt: 1, messageCount: 1, credits: 0 }, stamp: { size: 1, mtimeMs: 1 } });
    fs.writeFileSync(path.join(dir, INDEX), encodeIndex(lying));
    const reopened = open();
    const first = await reopened.list();
    assert.deepEqual(first.map((s) => s.id).sort(), kept.map((c) => c.id).sort(), 'no ghost, and the unindexed conversation is read');
    assert.equal(await reopened.verified, true);
    assert.deepEqual(await titles(reopened), ['chat 2', 'chat 1', 'chat 0']);
    assert.equal(await reopened.verified, false, 'the rewritten index now agrees');
  });

  it('a missing, corrupt or torn index is rebuilt from the files', async () => {
    await saved(open(), 3);
    const expected = ['chat 2', 'chat 1', 'chat 0'];
    assert.deepEqual(await titles(open()), expected, 'no index yet');
    fs.writeFileSync(path.join(dir, INDEX), '\u0000garbage{{{\n');
    assert.deepEqual(await titles(open()), expected, 'a corrupt index');
    assert.equal(parseIndex(fs.readFileSync(path.join(dir, INDEX), 'utf8')).entries.size, 3, 'and rebuilt');
    fs.appendFileSync(path.join(dir, INDEX), '{"id":"x","title":"half a wr');
    assert.deepEqual(await titles(open()), expected, 'a torn last line');
    fs.rmSync(path.join(dir, INDEX));
    assert.deepEqual(await titles(open()), expected, 'a deleted index');
  });

  it('a conversation written by a version without the index (an old file) is listed and indexed', async () => {
    const store = open();
    await saved(store, 1);
    await store.list();
    await store.verified;
    const old = conversation('from an older version', 7000);
    fs.writeFileSync(path.join(dir, `${old.id}.json`), serializeConversation(old));
    assert.deepEqual(await titles(open()), ['from an older version', 'chat 0']);
  });

  it('searches every saved conversation through the store, newest first, without keeping them', async () => {
    const store = open();
    await saved(store, 4);
    const hits = [];
    for await (const hit of store.search('QUESTION 0 of chat')) hits.push(hit);
    assert.deepEqual(hits.map((h) => [h.title, h.messageId]), [['chat 3', 'u0'], ['chat 2', 'u0'], ['chat 1', 'u0'], ['chat 0', 'u0']]);
  });

  it('reads the index back defensively: the last line of an id wins, a removal removes, a bad entry drops it', () => {
    const summary = { id: 'a', title: 'one', createdAt: 1, updatedAt: 1, messageCount: 1, credits: 0 };
    const text = `${encodeIndex([{ summary }])}${JSON.stringify({ ...summary, title: 'two' })}\n{"id":"b","title":"b","createdAt":1,"updatedAt":1,"messageCount":1,"credits":0}\n{"id":"b","removed":true}\n{"id":"a","title":5}\n`;
    assert.equal(parseIndex(text).entries.size, 0);
    assert.equal(parseIndex(text.replace('{"id":"a","title":5}\n', '')).entries.get('a')?.summary.title, 'two');
    assert.equal(parseIndex('{"v":999}\n').valid, false, 'another version is rebuilt, not misread');
  });
});
