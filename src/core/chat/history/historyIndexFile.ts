import type { ConversationSummary } from '../conversation';
import { indexFile, logFile, logId, tempFile } from './historyFileNames';
import type { HistoryFileSystem } from './historyFileSystem';
import { encodeIndex, encodeIndexEntry, encodeIndexRemoval, indexNeedsRewrite, parseIndex, sameStamp, stampMatches, type FileStamp, type IndexEntry, type ParsedIndex } from './historyIndex';

/** Logs read (or stat'ed) at once while the index is rebuilt or checked: enough to keep the disk busy, few enough to bound memory. */
const READ_CONCURRENCY = 8;
const STAT_BATCH = 256;

export interface HistoryIndexFileOptions {
  fs: HistoryFileSystem;
  dir: string;
  pid: number;
  /** Reads one conversation's summary from its log (recovering a crash's leftovers), undefined when it cannot be read. */
  readSummary(id: string, names: string[]): Promise<ConversationSummary | undefined>;
  /** Runs an index write in the store's write queue (after the log writes queued before it). */
  enqueue(task: () => Promise<void>): Promise<void>;
}

/** Runs `task` over `items` with at most `limit` at a time, in order of start. */
async function eachLimited<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

const newestFirst = (a: ConversationSummary, b: ConversationSummary) => b.updatedAt - a.updatedAt;

/**
 * The history index on disk (historyIndex.ts has the format and why it is safe): listing reads it and
 * the folder's names only; the logs it lacks are read, and `verify` compares every log's size and time.
 */
export class HistoryIndexFile {
  readonly #file: string;
  /**
   * The index as this window last read or wrote it, and the file's stamp then: while the file keeps
   * that stamp, listing reuses it instead of parsing the file again. Any other writer changes the stamp.
   */
  #cached: { stamp: FileStamp; index: ParsedIndex } | undefined;

  readonly #options: HistoryIndexFileOptions;

  constructor(options: HistoryIndexFileOptions) {
    this.#options = options;
    this.#file = indexFile(options.dir);
  }

  /** The index as on disk; a missing or unreadable one is empty and not `valid` (it is then built again). */
  async #read(): Promise<ParsedIndex> {
    const stamp = await this.#indexStamp();
    if (stamp && this.#cached && sameStamp(stamp, this.#cached.stamp)) return this.#cached.index;
    const index = parseIndex(await this.#options.fs.readFile(this.#file).catch(() => ''));
    // Stamped before reading: a write landing meanwhile leaves a stamp that no longer matches.
    this.#cached = stamp && index.valid ? { stamp, index } : undefined;
    return index;
  }

  #indexStamp(): Promise<FileStamp | undefined> {
    return this.#options.fs.stat(this.#file).catch(() => undefined);
  }

  /**
   * Writes to the index file; the cache follows when this window's write is the only change since
   * `index` was read (a rewrite always is), and is dropped otherwise, so that the next listing reads the file.
   */
  async #writeIndex(index: ParsedIndex, write: () => Promise<void>, whole: boolean): Promise<void> {
    const before = await this.#indexStamp();
    const current = whole || (before !== undefined && this.#cached?.index === index && sameStamp(before, this.#cached.stamp));
    this.#cached = undefined;
    await write();
    const after = await this.#indexStamp();
    if (current && after) this.#cached = { stamp: after, index };
  }

  #stat(id: string): Promise<FileStamp | undefined> {
    return this.#options.fs.stat(logFile(this.#options.dir, id)).catch(() => undefined);
  }

  /** A fresh entry from the log; the stamp is taken first, so a write that lands meanwhile makes it disagree (and be read again). */
  async #entryFromLog(id: string, names: string[]): Promise<IndexEntry | undefined> {
    const stamp = await this.#stat(id);
    const summary = stamp && (await this.#options.readSummary(id, names));
    return summary && { summary, stamp };
  }

  /**
   * Every conversation's summary, newest first, from the index and the folder's `names`: logs without
   * an entry (or with an entry that was never stamped) are read, entries without a log dropped. The
   * index read is returned too, for `verify`.
   */
  async list(names: string[]): Promise<{ summaries: ConversationSummary[]; index: ParsedIndex }> {
    const index = await this.#read();
    const ids = new Set(names.map(logId).filter((id): id is string => id !== undefined));
    const changed: IndexEntry[] = [];
    const removed = [...index.entries.keys()].filter((id) => !ids.has(id));
    for (const id of removed) index.entries.delete(id);
    const unknown = [...ids].filter((id) => !index.entries.get(id)?.stamp);
    await eachLimited(unknown, READ_CONCURRENCY, async (id) => {
      const entry = await this.#entryFromLog(id, names);
      if (entry) changed.push(entry);
      else index.entries.delete(id);
    });
    for (const entry of changed) index.entries.set(entry.summary.id, entry);
    if (!index.valid || changed.length || removed.length) await this.#write(index, changed, removed);
    return { summaries: [...index.entries.values()].map((entry) => entry.summary).sort(newestFirst), index };
  }

  /**
   * Compares every log with its entry (size and modification time) and makes again the entries that
   * disagree. Returns whether any did: what was listed before is then out of date.
   */
  async verify(index: ParsedIndex, names: string[]): Promise<boolean> {
    const ids = [...index.entries.keys()];
    const stale: string[] = [];
    for (let start = 0; start < ids.length; start += STAT_BATCH) {
      const batch = ids.slice(start, start + STAT_BATCH);
      const stamps = await Promise.all(batch.map((id) => this.#stat(id)));
      batch.forEach((id, i) => {
        const stamp = stamps[i];
        if (!stamp || !stampMatches(index.entries.get(id), stamp)) stale.push(id);
      });
    }
    if (!stale.length) return false;
    const changed: IndexEntry[] = [];
    const removed: string[] = [];
    await eachLimited(stale, READ_CONCURRENCY, async (id) => {
      const entry = await this.#entryFromLog(id, names);
      if (entry) changed.push(entry);
      else removed.push(id);
    });
    for (const entry of changed) index.entries.set(entry.summary.id, entry);
    for (const id of removed) index.entries.delete(id);
    await this.#write(index, changed, removed);
    return true;
  }

  /**
   * After a save: the conversation's summary, stamped with its log's size and time when the log is
   * exactly what this process wrote (`expectedBytes`); otherwise unstamped, so that the next listing
   * reads the log. Nothing is written while there is no index yet (the first listing builds it).
   */
  async noteSaved(summary: ConversationSummary, expectedBytes: number | undefined): Promise<void> {
    const stamp = await this.#stat(summary.id);
    const trusted = stamp && stamp.size === expectedBytes ? stamp : undefined;
    const entry: IndexEntry = { summary, ...(trusted && { stamp: trusted }) };
    await this.#append(encodeIndexEntry(entry), (index) => index.entries.set(summary.id, entry));
  }

  async noteRemoved(id: string): Promise<void> {
    await this.#append(encodeIndexRemoval(id), (index) => index.entries.delete(id));
  }

  /** Appends a line to an index that exists (the first listing builds it), and applies it to the cache. */
  async #append(line: string, apply: (index: ParsedIndex) => void): Promise<void> {
    if (!(await this.#indexStamp())) return;
    const index = this.#cached?.index;
    if (index) {
      apply(index);
      index.lines++;
    }
    await this.#writeIndex(index ?? parseIndex(''), () => this.#options.fs.appendFile(this.#file, line), false);
  }

  /** Appends the changes, or rewrites the whole index (through a temporary file) when it is new or mostly superseded lines. */
  #write(index: ParsedIndex, changed: IndexEntry[], removed: string[]): Promise<void> {
    index.lines += changed.length + removed.length;
    if (!index.valid || indexNeedsRewrite(index)) {
      const text = encodeIndex(index.entries.values());
      index.valid = true;
      index.lines = index.entries.size;
      return this.#options.enqueue(() => this.#writeIndex(index, async () => {
        await this.#options.fs.mkdir(this.#options.dir);
        const temp = tempFile(this.#file, this.#options.pid);
        await this.#options.fs.writeFile(temp, text);
        await this.#options.fs.rename(temp, this.#file);
      }, true));
    }
    const text = changed.map(encodeIndexEntry).join('') + removed.map(encodeIndexRemoval).join('');
    return this.#options.enqueue(() => this.#writeIndex(index, () => this.#options.fs.appendFile(this.#file, text), false));
  }
}
