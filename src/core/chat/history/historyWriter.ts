import type { Conversation, ConversationMessage } from '../conversation';
import { journalFile, logFile, tempFile } from './historyFileNames';
import type { HistoryFileSystem } from './historyFileSystem';
import { changeRecords, encodeJournalPatch, encodeJournalStart, encodeJournalText, encodeSnapshot, journalPatchKey, liveBytes, replayLog, writtenState, type WrittenState } from './historyLog';

/** The log is rewritten whole when superseded lines exceed the live ones by this factor (and this many bytes). */
const COMPACT_FACTOR = 2;
const COMPACT_MIN_BYTES = 64 * 1024;

/** `flatLength`: the text's length when it was last flattened; `columnLengths`: a comparison's columns' texts' lengths, as journaled. */
interface Journal { file: string; messageId: string; textLength: number; patchKey: string; flatLength: number; columnLengths: number[] }
/** What this process knows of a log on disk; `unterminated`: a file of an earlier version, without its last newline. */
interface Tracked { state?: WrittenState; logBytes: number; journal?: Journal; unterminated?: boolean }

export type Write = () => Promise<void>;

export const isStreaming = (message: ConversationMessage): boolean => message.status === 'streaming';

/**
 * A streamed answer is built with `+=`, which V8 keeps as a rope of every delta (~8 bytes per
 * character for small deltas). Reading it whole flattens it in place; `Number()` reads it whole
 * without building anything. Done each time the text has grown by a tenth, so the cost stays linear.
 */
const FLATTEN_GROWTH = 1.1;
function flattenString(text: string): void {
  void Number(text);
}

/**
 * What this process knows of each conversation's files, and the writes that bring them up to date.
 * Every `plan…` method decides what its write holds when it is called and returns the write for the
 * store to queue: the store runs them in call order, so an older state can never land after a newer one.
 */
export class HistoryWriter {
  readonly #tracked = new Map<string, Tracked>();

  readonly #fs: HistoryFileSystem;
  readonly #dir: string;
  readonly #pid: number;

  constructor(fs: HistoryFileSystem, dir: string, pid: number) {
    this.#fs = fs;
    this.#dir = dir;
    this.#pid = pid;
  }

  /** A save (a turn started or ended, a rename): appends what changed, closes a finished answer's journal. */
  planSave(conversation: Conversation): Write {
    const id = conversation.id;
    const tracked = this.#trackedFor(id);
    const journalWrite = this.#journalWrite(conversation, tracked);
    const finished = tracked.journal && !conversation.messages.some((m) => m.id === tracked.journal?.messageId && isStreaming(m)) ? tracked.journal : undefined;
    if (finished) tracked.journal = undefined;
    const changes = tracked.state ? changeRecords(tracked.state, conversation, isStreaming) : undefined;
    let write: Write;
    if (changes && tracked.logBytes + changes.text.length <= COMPACT_FACTOR * liveBytes(changes.next) + COMPACT_MIN_BYTES) {
      tracked.state = changes.next;
      const text = changes.text && tracked.unterminated ? `\n${changes.text}` : changes.text;
      if (text) tracked.unterminated = false;
      tracked.logBytes += Buffer.byteLength(text);
      write = async () => {
        if (text) await this.#fs.appendFile(logFile(this.#dir, id), text);
      };
    } else {
      write = this.#rewrite(conversation, tracked);
    }
    return async () => {
      await journalWrite?.();
      await write();
      // Only once the finished answer is in the log may its journal go.
      if (finished) await this.#fs.rm(finished.file);
    };
  }

  /** The streaming answer's new text for its journal; undefined when nothing is new. */
  planJournal(conversation: Conversation): Write | undefined {
    return this.#journalWrite(conversation, this.#trackedFor(conversation.id));
  }

  /** The whole log as one line (through a temporary file, so a crash leaves the old file). */
  planRewrite(conversation: Conversation): Write {
    return this.#rewrite(conversation, this.#trackedFor(conversation.id));
  }

  /** The log `text` of `id` just read from disk: later saves append to it, unless this process already tracks it. */
  adopt(id: string, conversation: Conversation, text: string): void {
    if (this.#tracked.has(id)) return;
    this.#tracked.set(id, { state: writtenState(conversation), logBytes: Buffer.byteLength(text), unterminated: !text.endsWith('\n') });
  }

  /** The size the log will have once the writes planned so far have landed, if this process knows it. */
  expectedBytes(id: string): number | undefined {
    const tracked = this.#tracked.get(id);
    return tracked?.state ? tracked.logBytes : undefined;
  }

  /** The journal this process is writing for the conversation, if any: not a crash's leftover. */
  activeJournal(id: string): string | undefined {
    return this.#tracked.get(id)?.journal?.file;
  }

  /** Forgets what is on disk (a failed write, a file moved or deleted): the next save rewrites the file whole. */
  forget(id: string): void {
    this.#tracked.delete(id);
  }

  #trackedFor(id: string): Tracked {
    let tracked = this.#tracked.get(id);
    if (!tracked) this.#tracked.set(id, (tracked = { logBytes: 0 }));
    return tracked;
  }

  #journalWrite(conversation: Conversation, tracked: Tracked): Write | undefined {
    const message = conversation.messages.find(isStreaming);
    if (!message) return undefined;
    const journal = tracked.journal;
    const patchKey = journalPatchKey(message);
    const columns = message.comparison?.columns.map((column) => column.answer.text) ?? [];
    const shrunk = journal !== undefined && (message.text.length < journal.textLength || columns.some((text, index) => text.length < (journal.columnLengths[index] ?? 0)));
    if (!journal || journal.messageId !== message.id || shrunk) {
      const file = journalFile(this.#dir, conversation.id, this.#pid);
      const start = encodeJournalStart(message, conversation.messages[conversation.messages.indexOf(message) - 1]?.id);
      tracked.journal = { file, messageId: message.id, textLength: message.text.length, patchKey, flatLength: message.text.length, columnLengths: columns.map((text) => text.length) };
      // A journal needs its conversation's log (the question it answers) on disk first.
      const rewrite = tracked.state ? undefined : this.#rewrite(conversation, tracked);
      return async () => {
        await rewrite?.();
        await this.#fs.writeFile(file, start);
      };
    }
    const added = message.text.slice(journal.textLength);
    if (message.text.length >= journal.flatLength * FLATTEN_GROWTH) {
      flattenString(message.text);
      journal.flatLength = message.text.length;
    }
    let text = added ? encodeJournalText(added) : '';
    // A comparison's columns: each its new text, as a single answer's (their texts are not in the patch).
    columns.forEach((columnText, index) => {
      const from = journal.columnLengths[index] ?? 0;
      if (columnText.length > from) text += encodeJournalText(columnText.slice(from), index);
      journal.columnLengths[index] = columnText.length;
    });
    if (patchKey !== journal.patchKey) text += encodeJournalPatch(message);
    if (!text) return undefined;
    journal.textLength = message.text.length;
    journal.patchKey = patchKey;
    return () => this.#fs.appendFile(journal.file, text);
  }

  /**
   * The whole log from this process's picture of the conversation, with every message that another
   * window (another extension host) added to the file and this process has never seen: a rewrite may
   * drop what this process removed, never what it did not know (issue 37: a compaction in one window
   * erased the turns another window had appended). The file is read only when its size is not what
   * this process's own writes made it.
   */
  #rewrite(conversation: Conversation, tracked: Tracked): Write {
    const live = { ...conversation, messages: conversation.messages.filter((m) => !isStreaming(m)) };
    const text = encodeSnapshot(live);
    // The ids this process wrote or read: of those, only the ones it still has belong in the file.
    const known = new Set(tracked.state?.order);
    const ownBytes = tracked.state ? tracked.logBytes : undefined;
    tracked.state = writtenState(live);
    tracked.logBytes = Buffer.byteLength(text);
    const target = logFile(this.#dir, conversation.id);
    return async () => {
      await this.#fs.mkdir(this.#dir);
      const others = await this.#unknownMessages(target, ownBytes, live, known);
      const temp = tempFile(target, this.#pid);
      await this.#fs.writeFile(temp, others.length ? encodeSnapshot({ ...live, messages: inTimeOrder(live.messages, others) }) : text);
      await this.#fs.rename(temp, target);
    };
  }

  /** Messages of the log on disk that are neither in `live` nor among the `known` ids; none when the file is as this process left it (`ownBytes`). */
  async #unknownMessages(file: string, ownBytes: number | undefined, live: Conversation, known: ReadonlySet<string>): Promise<ConversationMessage[]> {
    let onDisk: string;
    try {
      if (ownBytes !== undefined && (await this.#fs.stat(file)).size === ownBytes) return [];
      onDisk = await this.#fs.readFile(file);
    } catch {
      return []; // No file yet (a new conversation), or gone: nothing of anyone else's to keep.
    }
    const ours = new Set(live.messages.map((m) => m.id));
    return (replayLog(onDisk).conversation?.messages ?? []).filter((m) => !ours.has(m.id) && !known.has(m.id) && !isStreaming(m));
  }
}

/** `messages` with `others` placed by their time among them (each before the first message created after it). */
function inTimeOrder(messages: readonly ConversationMessage[], others: readonly ConversationMessage[]): ConversationMessage[] {
  const merged = [...messages];
  for (const other of others) {
    const later = merged.findIndex((m) => m.createdAt > other.createdAt);
    merged.splice(later === -1 ? merged.length : later, 0, other);
  }
  return merged;
}
