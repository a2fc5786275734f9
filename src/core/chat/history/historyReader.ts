import * as path from 'node:path';
import type { Conversation } from '../conversation';
import { logFile, parseJournalName, tempFilePid } from './historyFileNames';
import type { HistoryFileSystem } from './historyFileSystem';
import { replayLog, type LogProblem } from './historyLog';
import type { HistoryWriter } from './historyWriter';

/** A history file that could not be read whole: it was moved to `movedTo` (never overwritten or deleted). */
export interface DamagedHistory {
  file: string;
  movedTo: string;
  /** Whether a conversation could be rebuilt from its readable part (it is then saved afresh). */
  recovered: boolean;
  problems: LogProblem[];
}

export interface HistoryReaderOptions {
  fs: HistoryFileSystem;
  dir: string;
  pid: number;
  isAlive: (pid: number) => boolean;
  /** The store's writer: what it has open is not a crash, and what is read is adopted by it. */
  writer: HistoryWriter;
  now?: () => number;
  onDamaged?: (damaged: DamagedHistory) => void;
  onError: (what: string, error: unknown) => void;
}

/**
 * Reading conversations back, with what a crash or a damaged file left: the journal of a dead
 * process is recovered and folded into its log, a damaged log is moved aside and reported, and
 * the temporary files of dead writers are removed. HistoryStore queues these reads with its writes.
 */
export class HistoryReader {
  readonly #options: HistoryReaderOptions;

  constructor(options: HistoryReaderOptions) {
    this.#options = options;
  }

  /** Removes what crashed writers left: temporary files of dead processes, and their journals (recovered first). */
  async recoverCrashed(): Promise<void> {
    const { fs, dir, pid, isAlive } = this.#options;
    let names: string[];
    try {
      names = await fs.readdir(dir);
    } catch {
      return;
    }
    for (const name of names) {
      const tempPid = tempFilePid(name);
      if (tempPid && (tempPid === pid || !isAlive(tempPid))) await fs.rm(path.join(dir, name)).catch(() => undefined);
    }
    // Before this store wrote anything, a journal with its own pid is a dead process's (pid reused).
    const crashed = names.map((name) => ({ name, journal: parseJournalName(name) })).filter(({ journal }) => journal && (journal.pid === pid || !isAlive(journal.pid)));
    for (const id of new Set(crashed.map(({ journal }) => journal!.id))) {
      const recovered = await this.read(id, names, { track: false }).catch((error: unknown) => this.#options.onError(`Could not recover chat ${id}`, error));
      // A journal without a conversation (deleted meanwhile) has nothing to belong to.
      if (!recovered) for (const { name, journal } of crashed) if (journal!.id === id) await fs.rm(path.join(dir, name)).catch(() => undefined);
    }
  }

  /**
   * Reads a conversation with its journals. A journal of a dead process is a crash: the answer is
   * recovered (marked interrupted by the parser) and folded into the log. A damaged log is moved aside.
   * `track`: the writer keeps what a later save needs (listing reads without it).
   */
  async read(id: string, names?: string[], { retried = false, track = true } = {}): Promise<Conversation | undefined> {
    const { fs, dir, pid, isAlive, writer } = this.#options;
    const file = logFile(dir, id);
    let text: string;
    try {
      text = await fs.readFile(file);
    } catch {
      return undefined;
    }
    const all = names ?? (await fs.readdir(dir).catch(() => [] as string[]));
    const journals = all.map((name) => ({ name, journal: parseJournalName(name) })).filter(({ journal }) => journal?.id === id);
    const active = writer.activeJournal(id);
    const crashed = journals.filter(({ name, journal }) => (journal!.pid === pid ? path.join(dir, name) !== active : !isAlive(journal!.pid)));
    const bodies = await Promise.all(journals.map(({ name }) => fs.readFile(path.join(dir, name)).catch(() => '')));
    const { conversation, problems } = replayLog(text, bodies);
    if (problems.length && !(await this.#moveAside(file, id, conversation !== undefined, problems))) {
      // Another window moved it first (and reported it): read what it left.
      return retried ? undefined : this.read(id, undefined, { retried: true, track });
    }
    if (conversation && (problems.length || crashed.length)) {
      await writer.planRewrite(conversation)();
    } else if (conversation && track) {
      writer.adopt(id, conversation, text);
    }
    for (const { name } of crashed) await fs.rm(path.join(dir, name));
    return conversation;
  }

  /** Moves a damaged file aside and reports it once; false when another window moved it first. */
  async #moveAside(file: string, id: string, recovered: boolean, problems: LogProblem[]): Promise<boolean> {
    const dir = path.join(this.#options.dir, 'damaged');
    const stamp = new Date(this.#options.now?.() ?? Date.now()).toISOString().replace(/[:.]/g, '-');
    const movedTo = path.join(dir, `${id}-${stamp}.json`);
    await this.#options.fs.mkdir(dir);
    try {
      await this.#options.fs.rename(file, movedTo);
    } catch {
      return false;
    }
    this.#options.writer.forget(id);
    this.#options.onDamaged?.({ file, movedTo, recovered, problems });
    return true;
  }
}
