import { replayLog } from './historyLog';

/**
 * Search across the whole history: conversations are read one after another (a few ahead, so the disk
 * stays busy) and let go, so memory holds a few logs whatever the history's size. A log whose bytes
 * cannot contain the query is neither decoded nor parsed: for a query in ASCII (most are) the bytes
 * are looked at as Latin-1, one byte a character, which is several times faster than decoding UTF-8;
 * ASCII letters are single bytes in UTF-8, so this finds every log that holds the query (and maybe more).
 */

/** A conversation to search: what the index knows, and how to read its log. */
export interface SearchableLog {
  id: string;
  title: string;
  updatedAt: number;
  /** The log's stored bytes; undefined when it is gone. */
  read(): Promise<Buffer | undefined>;
}

export interface SearchHit {
  id: string;
  title: string;
  updatedAt: number;
  /** The first message that matches; absent when only the title does. */
  messageId?: string;
  /** The text around the match, on one line. */
  snippet: string;
}

export interface SearchOptions {
  signal?: AbortSignal;
  /** Logs read ahead of the one being searched. */
  readAhead?: number;
}

/** Logs read ahead by default: enough to keep the disk and thread pool busy; a few MB for typical logs. */
const READ_AHEAD = 8;
const SNIPPET_CHARS = 90;
/** Characters of context kept before the match in a snippet. */
const SNIPPET_LEAD = 30;

function escapeRegExp(text: string): RegExp {
  return new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
}

/** The text around `index`, whitespace folded, with an ellipsis where it was cut. */
export function snippetAround(text: string, index: number, length: number): string {
  const start = Math.max(0, index - SNIPPET_LEAD);
  const end = Math.min(text.length, Math.max(index + length, start + SNIPPET_CHARS));
  const body = text.slice(start, end).replace(/\s+/g, ' ').trim();
  return `${start > 0 ? '…' : ''}${body}${end < text.length ? '…' : ''}`;
}

/** The query as it appears in a log's JSON text (the stored text is JSON-escaped). */
function storedForm(query: string): RegExp {
  return escapeRegExp(JSON.stringify(query).slice(1, -1));
}

/** Reads the logs in order, `ahead` at a time, stopping when `signal` aborts. */
async function* readAhead(logs: AsyncIterable<SearchableLog> | Iterable<SearchableLog>, ahead: number, signal?: AbortSignal): AsyncGenerator<{ log: SearchableLog; text: Buffer | undefined }> {
  const pending: { log: SearchableLog; text: Promise<Buffer | undefined> }[] = [];
  for await (const log of logs) {
    if (signal?.aborted) return;
    pending.push({ log, text: log.read().catch(() => undefined) });
    if (pending.length > ahead) {
      const next = pending.shift()!;
      yield { log: next.log, text: await next.text };
    }
  }
  for (const next of pending) {
    if (signal?.aborted) return;
    yield { log: next.log, text: await next.text };
  }
}

/** The first place a conversation's log matches `query`, or undefined. */
export function searchLog(log: Pick<SearchableLog, 'id' | 'title' | 'updatedAt'>, bytes: Buffer, query: string): SearchHit | undefined {
  const pattern = escapeRegExp(query);
  const hit = (snippet: string, messageId?: string): SearchHit => ({ id: log.id, title: log.title, updatedAt: log.updatedAt, ...(messageId && { messageId }), snippet });
  const ascii = /^[\x20-\x7e]*$/.test(query);
  const text = ascii ? undefined : bytes.toString('utf8');
  if (!storedForm(query).test(text ?? bytes.toString('latin1'))) return pattern.test(log.title) ? hit(log.title) : undefined;
  const { conversation } = replayLog(text ?? bytes.toString('utf8'), []);
  for (const message of conversation?.messages ?? []) {
    // A comparison's text is in its columns: a match in any of them finds the turn.
    for (const text of [message.text, ...(message.comparison?.columns.map((column) => column.answer.text) ?? [])]) {
      const found = pattern.exec(text);
      if (found) return hit(snippetAround(text, found.index, found[0].length), message.id);
    }
  }
  const title = conversation?.title ?? log.title;
  return pattern.test(title) ? hit(title) : undefined;
}

/**
 * Every conversation whose title or message text (a comparison's: any column's) contains `query`
 * (case-insensitively), in the order of `logs`, as each is found. Stops when `signal` aborts.
 */
export async function* searchHistory(logs: AsyncIterable<SearchableLog> | Iterable<SearchableLog>, query: string, options: SearchOptions = {}): AsyncGenerator<SearchHit> {
  const needle = query.trim();
  if (!needle) return;
  for await (const { log, text } of readAhead(logs, options.readAhead ?? READ_AHEAD, options.signal)) {
    if (text === undefined) continue;
    const found = searchLog(log, text, needle);
    if (options.signal?.aborted) return;
    if (found) yield found;
  }
}
