import * as path from 'node:path';
import { realTimer, type Timer } from '../appendBatcher';
import { summary, type Conversation, type ConversationSummary } from '../conversation';
import type { SavedElsewhere } from '../ports';
import { logFile, parseJournalName } from './historyFileNames';
import { processIsAlive } from '../../processIsAlive';
import { nodeFileSystem, type HistoryFileSystem } from './historyFileSystem';
import { HistoryIndexFile } from './historyIndexFile';
import { HistoryImages } from './historyImages';
import type { ChatImage } from '../chatImages';
import { searchHistory, type SearchHit } from './historySearch';
import { HistoryReader, type DamagedHistory } from './historyReader';
import { replayLog } from './historyLog';
import { HistoryWriter } from './historyWriter';

export { nodeFileSystem, type HistoryFileSystem } from './historyFileSystem';
export type { DamagedHistory } from './historyReader';

export interface HistoryStoreOptions {
  dir: string;
  fs?: HistoryFileSystem;
  /** This process; journals carry it so that a live window's journal is never taken for a crash. */
  pid?: number;
  isAlive?: (pid: number) => boolean;
  /** While an answer streams, its new text is written at most once per this interval. */
  streamingIntervalMs?: number;
  timer?: Timer;
  now?: () => number;
  onChange?: () => void;
  onDamaged?: (damaged: DamagedHistory) => void;
  onError?: (message: string) => void;
}

/** While an answer streams, its text is journaled at most once per this interval: a crash loses at most this much. */
export const STREAMING_SAVE_INTERVAL_MS = 300;

/**
 * Conversations on disk (see historyLog.ts for the format): the queue of the reads (historyReader.ts,
 * which recovers what a crash left) and the writes (historyWriter.ts plans them). Every write is queued in call order, and what a
 * write holds is decided when it is called, so an older state can never land after a newer one.
 */
export class HistoryStore {
  readonly #fs: HistoryFileSystem;
  readonly #timer: Timer;
  readonly #writer: HistoryWriter;
  readonly #reader: HistoryReader;
  readonly #index: HistoryIndexFile;
  readonly #images: HistoryImages;
  /** The check of the index against every log that the last listing started. */
  #verifying: Promise<boolean> = Promise.resolve(false);
  readonly #deleted = new Set<string>();
  readonly #timers = new Map<string, { handle: unknown; conversation: Conversation }>();
  #writing: Promise<void>;
  /** Writes planned per conversation (see changedElsewhere); an entry goes when the store lets go of the conversation. */
  readonly #plans = new Map<string, number>();

  readonly #options: HistoryStoreOptions;

  constructor(options: HistoryStoreOptions) {
    this.#options = options;
    this.#fs = options.fs ?? nodeFileSystem;
    const pid = options.pid ?? process.pid;
    this.#timer = options.timer ?? realTimer;
    this.#writer = new HistoryWriter(this.#fs, options.dir, pid);
    this.#reader = new HistoryReader({
      fs: this.#fs,
      dir: options.dir,
      pid,
      isAlive: options.isAlive ?? processIsAlive,
      writer: this.#writer,
      now: options.now,
      onDamaged: options.onDamaged,
      onError: (what, error) => this.#error(what, error),
    });
    this.#images = new HistoryImages(options.dir, pid);
    this.#index = new HistoryIndexFile({
      fs: this.#fs,
      dir: options.dir,
      pid,
      // Listing reads a conversation without keeping what a later save would need: nothing grows with the history.
      readSummary: async (id, names) => {
        const conversation = await this.#reader.read(id, names, { track: false }).catch(() => undefined);
        return conversation && summary(conversation);
      },
      enqueue: (task) => this.#enqueue(task, 'index', 'history index'),
    });
    this.#writing = this.#reader.recoverCrashed();
  }

  #enqueue(task: () => Promise<void>, what: string, id: string): Promise<void> {
    this.#writing = this.#writing.then(task).catch((error: unknown) => {
      this.#writer.forget(id);
      this.#error(`Could not ${what} chat ${id}`, error);
    });
    return this.#writing;
  }

  #error(what: string, error: unknown): void {
    this.#options.onError?.(`${what}: ${error instanceof Error ? error.message : String(error)}`);
  }

  /** Saves now (a turn started or ended, a rename): appends what changed, closes a finished answer's journal. */
  save(conversation: Conversation): Promise<void> {
    this.#cancelTimer(conversation.id);
    if (this.#deleted.has(conversation.id)) return this.#writing;
    this.#planned(conversation.id);
    const write = this.#writer.planSave(conversation);
    const expectedBytes = this.#writer.expectedBytes(conversation.id);
    const listed = summary(conversation);
    return this.#enqueue(async () => {
      await write();
      // The log is saved: an index that could not follow is only out of date, and the check corrects it.
      await this.#index.noteSaved(listed, expectedBytes).catch(() => undefined);
      this.#options.onChange?.();
    }, 'save', conversation.id);
  }

  /** Called on every streamed delta: journals the new text at most once per interval. */
  saveSoon(conversation: Conversation): void {
    const pending = this.#timers.get(conversation.id);
    if (pending) {
      pending.conversation = conversation;
      return;
    }
    const handle = this.#timer.set(() => {
      this.#timers.delete(conversation.id);
      void this.writeStreaming(entry.conversation);
    }, this.#options.streamingIntervalMs ?? STREAMING_SAVE_INTERVAL_MS);
    const entry = { handle, conversation };
    this.#timers.set(conversation.id, entry);
  }

  /** Journals the streaming answer's new text now. */
  writeStreaming(conversation: Conversation): Promise<void> {
    if (this.#deleted.has(conversation.id)) return this.#writing;
    this.#planned(conversation.id);
    const task = this.#writer.planJournal(conversation);
    return task ? this.#enqueue(task, 'journal', conversation.id) : this.#writing;
  }

  /**
   * Writes a message's images before the log line that names them (both go through the write queue).
   * Unlike a log write, a failure rejects: the message is then not sent, and stays in the composer.
   */
  writeImages(conversationId: string, images: readonly ChatImage[]): Promise<void> {
    const task = this.#writing.then(() => this.#images.write(conversationId, images));
    this.#writing = task.catch((error: unknown) => this.#error(`Could not write an image of chat ${conversationId}`, error));
    return task;
  }

  readImage(conversationId: string, file: string): Promise<Buffer> {
    return this.#images.read(conversationId, file);
  }

  /** Deletes images of the conversation that no message of its saved log names (HistoryImages.forget), after the writes queued before. */
  forgetImages(conversationId: string, files: readonly string[]): Promise<void> {
    if (!files.length) return this.#writing;
    return this.#enqueue(() => this.#images.forget(conversationId, files, () => this.#fs.readFile(logFile(this.#options.dir, conversationId))), 'forget images of', conversationId);
  }

  async load(id: string): Promise<Conversation | undefined> {
    await this.#writing;
    return this.#reader.read(id);
  }

  /**
   * The conversation as its log now has it, when another window (another extension host) changed the
   * log since this process last wrote or read it; undefined when none did, or when that cannot be told
   * (this process never wrote or read it, or the log is being written or damaged: the next question
   * goes on with what this window has, and a rewrite still keeps the other window's turns). Read from
   * the log alone: an answer another window is streaming is its own until it ends there. Costs a stat
   * when nothing changed. `take()` makes it what later saves go on from, unless this process planned a
   * write of the conversation since the read (its picture is then newer: the next look reads again).
   */
  async changedElsewhere(id: string): Promise<SavedElsewhere | undefined> {
    // Writes planned before this call land before the read; one planned after it makes the read older.
    const plans = this.#plansOf(id);
    let read: { conversation: Conversation; text: string } | undefined;
    await this.#enqueue(async () => {
      const expected = this.#writer.expectedBytes(id);
      if (expected === undefined || this.#deleted.has(id) || this.#plansOf(id) !== plans) return;
      const file = logFile(this.#options.dir, id);
      const size = await this.#fs.stat(file).then((stat) => stat.size, () => undefined);
      if (size === undefined || size === expected) return;
      const text = await this.#fs.readFile(file);
      const { conversation, problems } = replayLog(text);
      if (conversation && !problems.length) read = { conversation, text };
    }, 'read', id);
    if (!read) return undefined;
    const { conversation, text } = read;
    return {
      conversation,
      take: () => {
        if (this.#plansOf(id) !== plans || this.#deleted.has(id)) return false;
        this.#writer.forget(id);
        this.#writer.adopt(id, conversation, text);
        return true;
      },
    };
  }

  #plansOf(id: string): number {
    return this.#plans.get(id) ?? 0;
  }

  /** Counts a write planned for `id` (a read of its file begun before it is older than this process's picture). */
  #planned(id: string): void {
    this.#plans.set(id, this.#plansOf(id) + 1);
  }

  /**
   * Every conversation's summary, newest first, from the index (historyIndex.ts): only the logs it
   * lacks are read. Then, in the background, every log is compared with its entry; `onChange` tells
   * when that found one out of date (`verified` resolves to whether it did).
   */
  async list(): Promise<ConversationSummary[]> {
    const listed = await this.#fromIndex();
    if (!listed) return [];
    const { summaries, index, names } = listed;
    this.#verifying = this.#index.verify(index, names).catch((error: unknown) => {
      this.#error('Could not check the history index', error);
      return false;
    });
    void this.#verifying.then((changed) => changed && this.#options.onChange?.());
    return summaries;
  }

  /** The listing from the index, without the check (undefined: no history folder yet). */
  async #fromIndex() {
    await this.#writing;
    let names: string[];
    try {
      names = await this.#fs.readdir(this.#options.dir);
    } catch {
      return undefined;
    }
    return { ...(await this.#index.list(names)), names };
  }

  /** Whether the check the last listing started found entries out of date. */
  get verified(): Promise<boolean> {
    return this.#verifying;
  }

  /**
   * Conversations whose text contains `query`, newest first (the index's order), as they are found;
   * each log is read as stored (no recovery, nothing kept). Stops when `signal` aborts. It starts no
   * check of the index (listing does): its stat calls would compete with the search's reads.
   */
  async *search(query: string, signal?: AbortSignal): AsyncGenerator<SearchHit> {
    const logs = ((await this.#fromIndex())?.summaries ?? []).map((s) => ({ id: s.id, title: s.title, updatedAt: s.updatedAt, read: () => this.#fs.readBytes(logFile(this.#options.dir, s.id)) }));
    yield* searchHistory(logs, query, { ...(signal && { signal }) });
  }

  /** Forgets what this process knew of a conversation no longer open (memory stays bounded by what is open). */
  release(id: string): void {
    void this.#writing.then(() => {
      if (this.#timers.has(id) || this.#writer.activeJournal(id)) return;
      this.#writer.forget(id);
      this.#plans.delete(id);
    });
  }

  async delete(id: string): Promise<void> {
    this.#cancelTimer(id);
    this.#deleted.add(id);
    this.#writer.forget(id);
    await this.#enqueue(async () => {
      const names = await this.#fs.readdir(this.#options.dir).catch(() => [] as string[]);
      for (const name of names) if (parseJournalName(name)?.id === id) await this.#fs.rm(path.join(this.#options.dir, name));
      await this.#fs.rm(logFile(this.#options.dir, id));
      await this.#images.remove(id);
      await this.#index.noteRemoved(id).catch(() => undefined);
      this.#options.onChange?.();
    }, 'delete', id);
  }

  #cancelTimer(id: string): void {
    const pending = this.#timers.get(id);
    if (pending) this.#timer.clear(pending.handle);
    this.#timers.delete(id);
  }

  /** Writes whatever is pending and resolves when every queued write has landed (window closing). */
  async flush(): Promise<void> {
    const pending = [...this.#timers.values()].map((entry) => entry.conversation);
    for (const conversation of pending) {
      this.#cancelTimer(conversation.id);
      void this.writeStreaming(conversation);
    }
    await this.#writing;
  }
}
