import * as path from 'node:path';
import { realTimer, type Timer } from './appendBatcher';
import { summary, type Conversation, type ConversationMessage, type ConversationSummary } from './conversation';
import { nodeFileSystem, processIsAlive, type HistoryFileSystem } from './historyFileSystem';
import {
  changeRecords, encodeJournalPatch, encodeJournalStart, encodeJournalText, encodeSnapshot, journalPatchKey, liveBytes,
  replayLog, writtenState, type LogProblem, type WrittenState,
} from './historyLog';

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

/** The log is rewritten whole when superseded lines exceed the live ones by this factor (and this many bytes). */
const COMPACT_FACTOR = 2;
const COMPACT_MIN_BYTES = 64 * 1024;

const LOG = /^([\w-]+)\.json$/;
const JOURNAL = /^([\w-]+)\.(\d+)\.stream$/;
const TEMP = /^[\w-]+\.json\.(\d+)\.tmp$/;

/** `flatLength`: the text's length when it was last flattened. */
interface Journal { file: string; messageId: string; textLength: number; patchKey: string; flatLength: number }
/** What this process knows of a log on disk; `unterminated`: a file of an earlier version, without its last newline. */
interface Tracked { state?: WrittenState; logBytes: number; journal?: Journal; unterminated?: boolean }

const isStreaming = (message: ConversationMessage) => message.status === 'streaming';

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
 * Conversations on disk (see historyLog.ts for the format). Every write is queued in call order, and
 * what a write holds is decided when it is called, so an older state can never land after a newer one.
 */
export class HistoryStore {
  private readonly fs: HistoryFileSystem;
  private readonly pid: number;
  private readonly isAlive: (pid: number) => boolean;
  private readonly timer: Timer;
  private readonly tracked = new Map<string, Tracked>();
  private readonly deleted = new Set<string>();
  private readonly timers = new Map<string, { handle: unknown; conversation: Conversation }>();
  private writing: Promise<void>;

  constructor(private readonly options: HistoryStoreOptions) {
    this.fs = options.fs ?? nodeFileSystem;
    this.pid = options.pid ?? process.pid;
    this.isAlive = options.isAlive ?? processIsAlive;
    this.timer = options.timer ?? realTimer;
    this.writing = this.start();
  }

  private file(id: string): string {
    if (!/^[\w-]+$/.test(id)) throw new Error(`Invalid conversation id "${id}"`);
    return path.join(this.options.dir, `${id}.json`);
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
      const pid = Number(TEMP.exec(name)?.[1]);
      if (pid && (pid === this.pid || !this.isAlive(pid))) await this.fs.rm(path.join(this.options.dir, name)).catch(() => undefined);
    }
    // Before this store wrote anything, a journal with its own pid is a dead process's (pid reused).
    const crashed = names.map((name) => ({ name, match: JOURNAL.exec(name) })).filter(({ match }) => match && (Number(match[2]) === this.pid || !this.isAlive(Number(match[2]))));
    for (const id of new Set(crashed.map(({ match }) => match![1]))) {
      const recovered = await this.read(id, names).catch((error: unknown) => this.error(`Could not recover chat ${id}`, error));
      // A journal without a conversation (deleted meanwhile) has nothing to belong to.
      if (!recovered) for (const { name, match } of crashed) if (match![1] === id) await this.fs.rm(path.join(this.options.dir, name)).catch(() => undefined);
    }
  }

  private enqueue(task: () => Promise<void>, what: string, id: string): Promise<void> {
    this.writing = this.writing.then(task).catch((error: unknown) => {
      this.tracked.delete(id); // The next save rewrites the file whole.
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
    const id = conversation.id;
    const tracked = this.trackedFor(id);
    const journalTask = this.journalTask(conversation, tracked);
    const finished = tracked.journal && !conversation.messages.some((m) => m.id === tracked.journal?.messageId && isStreaming(m)) ? tracked.journal : undefined;
    if (finished) tracked.journal = undefined;
    const changes = tracked.state ? changeRecords(tracked.state, conversation, isStreaming) : undefined;
    let write: () => Promise<void>;
    if (changes && tracked.logBytes + changes.text.length <= COMPACT_FACTOR * liveBytes(changes.next) + COMPACT_MIN_BYTES) {
      tracked.state = changes.next;
      const text = changes.text && tracked.unterminated ? `\n${changes.text}` : changes.text;
      if (text) tracked.unterminated = false;
      tracked.logBytes += Buffer.byteLength(text);
      write = async () => {
        if (text) await this.fs.appendFile(this.file(id), text);
      };
    } else {
      write = this.rewriteTask(conversation, tracked);
    }
    return this.enqueue(async () => {
      await journalTask?.();
      await write();
      // Only once the finished answer is in the log may its journal go.
      if (finished) await this.fs.rm(finished.file);
      this.options.onChange?.();
    }, 'save', id);
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
    const task = this.journalTask(conversation, this.trackedFor(conversation.id));
    return task ? this.enqueue(task, 'journal', conversation.id) : this.writing;
  }

  private trackedFor(id: string): Tracked {
    let tracked = this.tracked.get(id);
    if (!tracked) this.tracked.set(id, (tracked = { logBytes: 0 }));
    return tracked;
  }

  /** The journal write for the conversation's streaming answer, decided now; undefined when nothing is new. */
  private journalTask(conversation: Conversation, tracked: Tracked): (() => Promise<void>) | undefined {
    const message = conversation.messages.find(isStreaming);
    if (!message) return undefined;
    const journal = tracked.journal;
    const patchKey = journalPatchKey(message);
    if (!journal || journal.messageId !== message.id || message.text.length < journal.textLength) {
      const file = path.join(this.options.dir, `${conversation.id}.${this.pid}.stream`);
      const start = encodeJournalStart(message);
      tracked.journal = { file, messageId: message.id, textLength: message.text.length, patchKey, flatLength: message.text.length };
      // A journal needs its conversation's log (the question it answers) on disk first.
      const rewrite = tracked.state ? undefined : this.rewriteTask(conversation, tracked);
      return async () => {
        await rewrite?.();
        await this.fs.writeFile(file, start);
      };
    }
    const added = message.text.slice(journal.textLength);
    if (message.text.length >= journal.flatLength * FLATTEN_GROWTH) {
      flattenString(message.text);
      journal.flatLength = message.text.length;
    }
    let text = added ? encodeJournalText(added) : '';
    if (patchKey !== journal.patchKey) text += encodeJournalPatch(message);
    if (!text) return undefined;
    journal.textLength = message.text.length;
    journal.patchKey = patchKey;
    return () => this.fs.appendFile(journal.file, text);
  }

  /** Writes the whole log as one line (through a temporary file, so a crash leaves the old file). */
  private rewriteTask(conversation: Conversation, tracked: Tracked): () => Promise<void> {
    const live = { ...conversation, messages: conversation.messages.filter((m) => !isStreaming(m)) };
    const text = encodeSnapshot(live);
    tracked.state = writtenState(live);
    tracked.logBytes = Buffer.byteLength(text);
    const target = this.file(conversation.id);
    return async () => {
      await this.fs.mkdir(this.options.dir);
      const temp = `${target}.${this.pid}.tmp`;
      await this.fs.writeFile(temp, text);
      await this.fs.rename(temp, target);
    };
  }

  async load(id: string): Promise<Conversation | undefined> {
    await this.writing;
    return this.read(id);
  }

  /**
   * Reads a conversation with its journals. A journal of a dead process is a crash: the answer is
   * recovered (marked interrupted by the parser) and folded into the log. A damaged log is moved aside.
   */
  private async read(id: string, names?: string[], retried = false): Promise<Conversation | undefined> {
    const file = this.file(id);
    let text: string;
    try {
      text = await this.fs.readFile(file);
    } catch {
      return undefined;
    }
    const all = names ?? (await this.fs.readdir(this.options.dir).catch(() => [] as string[]));
    const journals = all.map((name) => ({ name, match: JOURNAL.exec(name) })).filter(({ match }) => match?.[1] === id);
    const active = this.tracked.get(id)?.journal?.file;
    const crashed = journals.filter(({ name, match }) => (Number(match![2]) === this.pid ? path.join(this.options.dir, name) !== active : !this.isAlive(Number(match![2]))));
    const bodies = await Promise.all(journals.map(({ name }) => this.fs.readFile(path.join(this.options.dir, name)).catch(() => '')));
    const { conversation, problems } = replayLog(text, bodies);
    if (problems.length && !(await this.moveAside(file, id, conversation !== undefined, problems))) {
      // Another window moved it first (and reported it): read what it left.
      return retried ? undefined : this.read(id, undefined, true);
    }
    if (conversation && (problems.length || crashed.length)) {
      await this.rewriteTask(conversation, this.trackedFor(id))();
    } else if (conversation && !this.tracked.has(id)) {
      // Later saves of this conversation append to what is on disk now.
      this.tracked.set(id, { state: writtenState(conversation), logBytes: Buffer.byteLength(text), unterminated: !text.endsWith('\n') });
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
    this.tracked.delete(id);
    this.options.onDamaged?.({ file, movedTo, recovered, problems });
    return true;
  }

  async list(): Promise<ConversationSummary[]> {
    await this.writing;
    let names: string[];
    try {
      names = await this.fs.readdir(this.options.dir);
    } catch {
      return [];
    }
    const ids = names.map((name) => LOG.exec(name)?.[1]).filter((id): id is string => id !== undefined);
    const loaded = await Promise.all(ids.map((id) => this.read(id, names).catch(() => undefined)));
    return loaded.filter((c): c is Conversation => c !== undefined).map(summary).sort((a, b) => b.updatedAt - a.updatedAt);
  }

  async delete(id: string): Promise<void> {
    this.cancelTimer(id);
    this.deleted.add(id);
    this.tracked.delete(id);
    await this.enqueue(async () => {
      const names = await this.fs.readdir(this.options.dir).catch(() => [] as string[]);
      for (const name of names) if (JOURNAL.exec(name)?.[1] === id) await this.fs.rm(path.join(this.options.dir, name));
      await this.fs.rm(this.file(id));
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
