import * as path from 'node:path';
import { realTimer, type Timer } from '../appendBatcher';
import { summary, type Conversation, type ConversationSummary } from '../conversation';
import { logFile, parseJournalName, tempFilePid } from './historyFileNames';
import { nodeFileSystem, processIsAlive, type HistoryFileSystem } from './historyFileSystem';
import { HistoryIndexFile } from './historyIndexFile';
import { HistoryImages } from './historyImages';
import type { ChatImage } from '../chatImages';
import { searchHistory, type SearchHit } from './historySearch';
import { replayLog, type LogProblem } from './historyLog';
import { HistoryWriter } from './historyWriter';

export { nodeFileSystem, type HistoryFileSystem } from './historyFileSystem';

/** A history file that could not be read whole: it was moved to `movedTo` (never overwritten or deleted). */
export interface DamagedHistory {
  file: string;
  movedTo: string;
  /** Whether a conversation could be rebuilt from its readable part (it is then saved afresh). */
  recovered: boolean;
  problems: LogProblem[];
}

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
 * Conversations on disk (see historyLog.ts for the format): reading them, recovering what a crash left,
 * and queueing the writes that historyWriter.ts plans. Every write is queued in call order, and what a
 * write holds is decided when it is called, so an older state can never land after a newer one.
 */
export class HistoryStore {
  private readonly fs: HistoryFileSystem;
  private readonly pid: number;
  private readonly isAlive: (pid: number) => boolean;
  private readonly timer: Timer;
  private readonly writer: HistoryWriter;
  private readonly index: HistoryIndexFile;
  private readonly images: HistoryImages;
  /** The check of the index against every log that the last listing started. */
  private verifying: Promise<boolean> = Promise.resolve(false);
  private readonly deleted = new Set<string>();
  private readonly timers = new Map<string, { handle: unknown; conversation: Conversation }>();
  private writing: Promise<void>;

  constructor(private readonly options: HistoryStoreOptions) {
    this.fs = options.fs ?? nodeFileSystem;
    this.pid = options.pid ?? process.pid;
    this.isAlive = options.isAlive ?? processIsAlive;
    this.timer = options.timer ?? realTimer;
    this.writer = new HistoryWriter(this.fs, options.dir, this.pid);
    this.images = new HistoryImages(options.dir, this.pid);
    this.index = new HistoryIndexFile({
      fs: this.fs,
      dir: options.dir,
      pid: this.pid,
      // Listing reads a conversation without keeping what a later save would need: nothing grows with the history.
      readSummary: async (id, names) => {
        const conversation = await this.read(id, names, { track: false }).catch(() => undefined);
        return conversation && summary(conversation);
      },
      enqueue: (task) => this.enqueue(task, 'index', 'history index'),
    });
    this.writing = this.start();
  }

  /** Removes what crashed writers left: temporary files of dead processes, and their journals (recovered first). */
  private async start(): Promise<void> {
    let names: string[];
    try {
      names = await this.fs.readdir(this.options.dir);
    } catch {
      return;
    }
    for (const name of names) {
      const pid = tempFilePid(name);
      if (pid && (pid === this.pid || !this.isAlive(pid))) await this.fs.rm(path.join(this.options.dir, name)).catch(() => undefined);
    }
    // Before this store wrote anything, a journal with its own pid is a dead process's (pid reused).
    const crashed = names.map((name) => ({ name, journal: parseJournalName(name) })).filter(({ journal }) => journal && (journal.pid === this.pid || !this.isAlive(journal.pid)));
    for (const id of new Set(crashed.map(({ journal }) => journal!.id))) {
      const recovered = await this.read(id, names, { track: false }).catch((error: unknown) => this.error(`Could not recover chat ${id}`, error));
      // A journal without a conversation (deleted meanwhile) has nothing to belong to.
      if (!recovered) for (const { name, journal } of crashed) if (journal!.id === id) await this.fs.rm(path.join(this.options.dir, name)).catch(() => undefined);
    }
  }

  private enqueue(task: () => Promise<void>, what: string, id: string): Promise<void> {
    this.writing = this.writing.then(task).catch((error: unknown) => {
      this.writer.forget(id);
      this.error(`Could not ${what} chat ${id}`, error);
    });
    return this.writing;
  }

  private error(what: string, error: unknown): void {
    this.options.onError?.(`${what}: ${error instanceof Error ? error.message : String(error)}`);
  }

  /** Saves now (a turn started or ended, a rename): appends what changed, closes a finished answer's journal. */
  save(conversation: Conversation): Promise<void> {
    this.cancelTimer(conversation.id);
    if (this.deleted.has(conversation.id)) return this.writing;
    const write = this.writer.planSave(conversation);
    const expectedBytes = this.writer.expectedBytes(conversation.id);
    const listed = summary(conversation);
    return this.enqueue(async () => {
      await write();
      // The log is saved: an index that could not follow is only out of date, and the check corrects it.
      await this.index.noteSaved(listed, expectedBytes).catch(() => undefined);
      this.options.onChange?.();
    }, 'save', conversation.id);
  }

  /** Called on every streamed delta: journals the new text at most once per interval. */
  saveSoon(conversation: Conversation): void {
    const pending = this.timers.get(conversation.id);
    if (pending) {
      pending.conversation = conversation;
      return;
    }
    const handle = this.timer.set(() => {
      this.timers.delete(conversation.id);
      void this.writeStreaming(entry.conversation);
    }, this.options.streamingIntervalMs ?? STREAMING_SAVE_INTERVAL_MS);
    const entry = { handle, conversation };
    this.timers.set(conversation.id, entry);
  }

  /** Journals the streaming answer's new text now. */
  writeStreaming(conversation: Conversation): Promise<void> {
    if (this.deleted.has(conversation.id)) return this.writing;
    const task = this.writer.planJournal(conversation);
    return task ? this.enqueue(task, 'journal', conversation.id) : this.writing;
  }

  /**
   * Writes a message's images before the log line that names them (both go through the write queue).
   * Unlike a log write, a failure rejects: the message is then not sent, and stays in the composer.
   */
  writeImages(conversationId: string, images: readonly ChatImage[]): Promise<void> {
    const task = this.writing.then(() => this.images.write(conversationId, images));
    this.writing = task.catch((error: unknown) => this.error(`Could not write an image of chat ${conversationId}`, error));
    return task;
  }

  readImage(conversationId: string, file: string): Promise<Buffer> {
    return this.images.read(conversationId, file);
  }

  async load(id: string): Promise<Conversation | undefined> {
    await this.writing;
    return this.read(id);
  }

  /**
   * Reads a conversation with its journals. A journal of a dead process is a crash: the answer is
   * recovered (marked interrupted by the parser) and folded into the log. A damaged log is moved aside.
   */
  private async read(id: string, names?: string[], { retried = false, track = true } = {}): Promise<Conversation | undefined> {
    const file = logFile(this.options.dir, id);
    let text: string;
    try {
      text = await this.fs.readFile(file);
    } catch {
      return undefined;
    }
    const all = names ?? (await this.fs.readdir(this.options.dir).catch(() => [] as string[]));
    const journals = all.map((name) => ({ name, journal: parseJournalName(name) })).filter(({ journal }) => journal?.id === id);
    const active = this.writer.activeJournal(id);
    const crashed = journals.filter(({ name, journal }) => (journal!.pid === this.pid ? path.join(this.options.dir, name) !== active : !this.isAlive(journal!.pid)));
    const bodies = await Promise.all(journals.map(({ name }) => this.fs.readFile(path.join(this.options.dir, name)).catch(() => '')));
    const { conversation, problems } = replayLog(text, bodies);
    if (problems.length && !(await this.moveAside(file, id, conversation !== undefined, problems))) {
      // Another window moved it first (and reported it): read what it left.
      return retried ? undefined : this.read(id, undefined, { retried: true, track });
    }
    if (conversation && (problems.length || crashed.length)) {
      await this.writer.planRewrite(conversation)();
    } else if (conversation && track) {
      this.writer.adopt(id, conversation, text);
    }
    for (const { name } of crashed) await this.fs.rm(path.join(this.options.dir, name));
    return conversation;
  }

  /** Moves a damaged file aside and reports it once; false when another window moved it first. */
  private async moveAside(file: string, id: string, recovered: boolean, problems: LogProblem[]): Promise<boolean> {
    const dir = path.join(this.options.dir, 'damaged');
    const stamp = new Date(this.options.now?.() ?? Date.now()).toISOString().replace(/[:.]/g, '-');
    const movedTo = path.join(dir, `${id}-${stamp}.json`);
    await this.fs.mkdir(dir);
    try {
      await this.fs.rename(file, movedTo);
    } catch {
      return false;
    }
    this.writer.forget(id);
    this.options.onDamaged?.({ file, movedTo, recovered, problems });
    return true;
  }

  /**
   * Every conversation's summary, newest first, from the index (historyIndex.ts): only the logs it
   * lacks are read. Then, in the background, every log is compared with its entry; `onChange` tells
   * when that found one out of date (`verified` resolves to whether it did).
   */
  async list(): Promise<ConversationSummary[]> {
    const listed = await this.fromIndex();
    if (!listed) return [];
    const { summaries, index, names } = listed;
    this.verifying = this.index.verify(index, names).catch((error: unknown) => {
      this.error('Could not check the history index', error);
      return false;
    });
    void this.verifying.then((changed) => changed && this.options.onChange?.());
    return summaries;
  }

  /** The listing from the index, without the check (undefined: no history folder yet). */
  private async fromIndex() {
    await this.writing;
    let names: string[];
    try {
      names = await this.fs.readdir(this.options.dir);
    } catch {
      return undefined;
    }
    return { ...(await this.index.list(names)), names };
  }

  /** Whether the check the last listing started found entries out of date. */
  get verified(): Promise<boolean> {
    return this.verifying;
  }

  /**
   * Conversations whose text contains `query`, newest first (the index's order), as they are found;
   * each log is read as stored (no recovery, nothing kept). Stops when `signal` aborts. It starts no
   * check of the index (listing does): its stat calls would compete with the search's reads.
   */
  async *search(query: string, signal?: AbortSignal): AsyncGenerator<SearchHit> {
    const logs = ((await this.fromIndex())?.summaries ?? []).map((s) => ({ id: s.id, title: s.title, updatedAt: s.updatedAt, read: () => this.fs.readBytes(logFile(this.options.dir, s.id)) }));
    yield* searchHistory(logs, query, { ...(signal && { signal }) });
  }

  /** Forgets what this process knew of a conversation no longer open (memory stays bounded by what is open). */
  release(id: string): void {
    void this.writing.then(() => {
      if (!this.timers.has(id) && !this.writer.activeJournal(id)) this.writer.forget(id);
    });
  }

  async delete(id: string): Promise<void> {
    this.cancelTimer(id);
    this.deleted.add(id);
    this.writer.forget(id);
    await this.enqueue(async () => {
      const names = await this.fs.readdir(this.options.dir).catch(() => [] as string[]);
      for (const name of names) if (parseJournalName(name)?.id === id) await this.fs.rm(path.join(this.options.dir, name));
      await this.fs.rm(logFile(this.options.dir, id));
      await this.images.remove(id);
      await this.index.noteRemoved(id).catch(() => undefined);
      this.options.onChange?.();
    }, 'delete', id);
  }

  private cancelTimer(id: string): void {
    const pending = this.timers.get(id);
    if (pending) this.timer.clear(pending.handle);
    this.timers.delete(id);
  }

  /** Writes whatever is pending and resolves when every queued write has landed (window closing). */
  async flush(): Promise<void> {
    const pending = [...this.timers.values()].map((entry) => entry.conversation);
    for (const conversation of pending) {
      this.cancelTimer(conversation.id);
      void this.writeStreaming(conversation);
    }
    await this.writing;
  }
}
