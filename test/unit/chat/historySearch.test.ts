import * as assert from 'node:assert/strict';
import { createConversation, type Conversation } from '../../../src/core/chat/conversation';
import { searchHistory, searchLog, snippetAround, type SearchableLog, type SearchHit } from '../../../src/core/chat/history/historySearch';
import { encodeRecord } from '../../../src/core/chat/history/historyLog';
import { serializeConversation, toStoredMessage } from '../../../src/core/chat/history/serialization';

function chat(id: string, title: string, texts: string[]): Conversation {
  const c = createConversation(1);
  c.id = id;
  c.title = title;
  texts.forEach((text, i) => c.messages.push({ id: `${id}-m${i}`, role: i % 2 ? 'assistant' : 'user', text, createdAt: i }));
  return c;
}

/** Logs that count their reads; `text` overrides what a log holds (a damaged or vanished file). */
function logsOf(conversations: Conversation[], reads: string[] = [], text: Record<string, string | undefined> = {}): SearchableLog[] {
  const bytes = (value: string | undefined) => (value === undefined ? undefined : Buffer.from(value));
  return conversations.map((c) => ({
    id: c.id,
    title: c.title,
    updatedAt: c.updatedAt,
    read: async () => {
      reads.push(c.id);
      return bytes(c.id in text ? text[c.id] : `${serializeConversation(c)}\n`);
    },
  }));
}

async function all(hits: AsyncIterable<SearchHit>): Promise<SearchHit[]> {
  const out: SearchHit[] = [];
  for await (const hit of hits) out.push(hit);
  return out;
}

describe('chat history search', () => {
  const history = [
    chat('a', 'Rust lifetimes', ['How do lifetimes work?', 'A lifetime names the scope of a borrow.']),
    chat('b', 'Cooking', ['A recipe with "quotes" and\nnew lines', 'Use a BORROWED pan.']),
    chat('c', 'Nothing here', ['plain', 'text']),
  ];

  it('finds every conversation whose text matches, case-insensitively, in the order given, with the message and a snippet', async () => {
    const hits = await all(searchHistory(logsOf(history), 'borrow'));
    assert.deepEqual(hits.map((h) => [h.id, h.messageId]), [['a', 'a-m1'], ['b', 'b-m1']]);
    assert.equal(hits[1].snippet, 'Use a BORROWED pan.');
  });

  it('matches text the log stores escaped (quotes, line breaks) and titles alone', async () => {
    assert.deepEqual((await all(searchHistory(logsOf(history), '"quotes" and\nnew'))).map((h) => h.id), ['b']);
    assert.deepEqual((await all(searchHistory(logsOf(history), 'WITH "QUOTES"'))).map((h) => h.id), ['b'], 'the same in ASCII only');
    const byTitle = await all(searchHistory(logsOf(history), 'nothing HERE'));
    assert.deepEqual(byTitle.map((h) => [h.id, h.messageId, h.snippet]), [['c', undefined, 'Nothing here']]);
  });

  it('searches what the log says now: a later change line replaces a message, a removal removes it', () => {
    const c = chat('d', 'Edited', ['first version', 'answer']);
    let text = `${serializeConversation(c)}\n`;
    text += encodeRecord({ op: 'message', message: toStoredMessage({ ...c.messages[0], text: 'second draft' }) });
    text += encodeRecord({ op: 'remove', id: 'd-m1' });
    const log = Buffer.from(text);
    assert.equal(searchLog(c, log, 'first version'), undefined);
    assert.equal(searchLog(c, log, 'answer'), undefined);
    assert.equal(searchLog(c, log, 'second draft')?.messageId, 'd-m0');
  });

  it('finds text beyond ASCII, case-insensitively where the language has case', async () => {
    const world = [chat('u', 'Unicode', ['Les ÉLÈVES étudient 漢字 🙂', 'Straße'])];
    assert.equal((await all(searchHistory(logsOf(world), 'élèves')))[0]?.messageId, 'u-m0');
    assert.equal((await all(searchHistory(logsOf(world), '漢字 🙂')))[0]?.messageId, 'u-m0');
    assert.equal((await all(searchHistory(logsOf(world), 'STRASSE'))).length, 0, 'no case folding beyond simple case');
    assert.equal((await all(searchHistory(logsOf(world), 'straSSe'))).length, 0);
    assert.equal((await all(searchHistory(logsOf(world), 'STRAßE')))[0]?.messageId, 'u-m1');
  });

  it('does not parse a log that cannot contain the query, and skips logs that vanished', async () => {
    const logs = logsOf(history, [], { a: '{not json at all', c: undefined });
    assert.deepEqual((await all(searchHistory(logs, 'borrow'))).map((h) => h.id), ['b']);
  });

  it('streams: reads only a few logs ahead of the results it has given, and stops reading when cancelled', async () => {
    const many = Array.from({ length: 50 }, (_, i) => chat(`x${i}`, `chat ${i}`, [`needle ${i}`]));
    const reads: string[] = [];
    const controller = new AbortController();
    async function* source(): AsyncGenerator<SearchableLog> {
      for (const log of logsOf(many, reads)) yield log;
    }
    const found: SearchHit[] = [];
    for await (const hit of searchHistory(source(), 'needle', { signal: controller.signal, readAhead: 2 })) {
      found.push(hit);
      assert.ok(reads.length <= found.length + 2, `read ${reads.length} logs for ${found.length} results`);
      if (found.length === 5) controller.abort();
    }
    assert.equal(found.length, 5);
    assert.ok(reads.length <= 8, `stopped reading after the cancel (${reads.length} read)`);
  });

  it('makes one-line snippets cut with ellipses', () => {
    const text = `${'a'.repeat(100)} the match\n\nafter ${'b'.repeat(200)}`;
    const snippet = snippetAround(text, 101, 9);
    assert.ok(snippet.startsWith('…') && snippet.endsWith('…') && snippet.includes('the match after'), snippet);
    assert.ok(!snippet.includes('\n'));
  });

  it('an empty query finds nothing and reads nothing', async () => {
    const reads: string[] = [];
    assert.deepEqual(await all(searchHistory(logsOf(history, reads), '  ')), []);
    assert.deepEqual(reads, []);
  });
});
