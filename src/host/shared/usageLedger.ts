import { readFileSync, unwatchFile, watchFile } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import vscode = require('vscode');
import { serializeEntry, toUsageEntry, type Clock, type ComparisonSpend, type SpendNotMeasured, type UsageEntry, type UsageRecord, type UsageRecorder } from '../../core/usage/ledger';
import { measuredTogether } from '../../core/usage/measuredTogether';
import { compactLedger, oldestLedgerEntry, readLedgerSince, streamLedger } from '../../core/usage/ledgerFile';
import { addToSums, emptySums, type SpendSums } from '../../core/usage/periodSums';
import { readPeriodSums } from '../../core/usage/periodSumsFile';
import { currentPeriods } from '../../core/usage/spendingLimits';
import { spendToday, windowStart } from '../../core/usage/report';
import { Disposable } from './disposable';

/** Entries older than this are dropped; the view shows 30 days, the CSV the rest. */
const KEEP_DAYS = 400;
/** The file is compacted once its oldest entry is this many days past the retention: about once a month. */
const COMPACT_AFTER_DAYS = 30;
const DAY_MS = 86_400_000;
/**
 * How often a window looks at the ledger file's size for what other windows recorded: their spend
 * shows in its status bar, limit state and usage view within this (one stat call each time).
 */
const FOLLOW_INTERVAL_MS = 2000;

/**
 * The ledger on disk: `usage/ledger.jsonl` in the extension's global storage, one JSON line per
 * request. Recording is an append (other windows append to the same file). What is read is what is
 * shown: today at start-up (the status bar), the days the usage view draws when it opens, the whole
 * file only for the CSV export, streamed (core/usage/ledgerFile.ts).
 */
export class UsageLedger extends Disposable implements UsageRecorder {
  readonly #file: string;
  /** The current day's and month's sums beside the ledger (core/usage/periodSumsFile.ts). */
  readonly #sumsFile: string;
  #entries: UsageEntry[] = [];
  /** The days `#entries` covers, ending today. */
  #days = 1;
  /** Recorded here but not yet appended to the file: a read must not lose them. */
  readonly #unwritten = new Set<UsageEntry>();
  /** Appends, reads and compaction run one after another. */
  #queue: Promise<void> = Promise.resolve();
  readonly #onDidChange = this.register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.#onDidChange.event;
  readonly loaded: Promise<void>;
  /**
   * The file's size as this window last knew it: measured between two of its own queued operations,
   * and grown by each of its own appends (followOtherWindows). Undefined until first measured.
   */
  #knownSize: number | undefined;

  readonly #log: vscode.LogOutputChannel;

  constructor(storage: vscode.Uri, log: vscode.LogOutputChannel, readonly clock: Clock = Date.now) {
    super();
    this.#log = log;
    // Disposal waits for the records still being appended.
    this.register({ dispose: () => this.#queue });
    this.#file = path.join(storage.fsPath, 'usage', 'ledger.jsonl');
    this.#sumsFile = path.join(storage.fsPath, 'usage', 'period-sums.json');
    this.loaded = this.reload(1).then(() => undefined);
    // After start-up, and off its path: checking the file's age reads its first line only.
    void this.loaded.then(() => this.#compactIfDue());
    this.#followOtherWindows();
  }

  /**
   * Re-reads the days last read when the file changed by more than this window's own appends: another
   * window recorded spend (or compacted the file). Without it, a second window's status bar kept its
   * old figures and limit state until its own next request (issue 37).
   */
  #followOtherWindows(): void {
    // Measured in the queue, between this window's own appends and compactions, never during one:
    // so that only another window's writes differ from what this window knows.
    const measure = async (): Promise<boolean> => {
      const size = await fs.stat(this.#file).then((stats) => stats.size, () => 0);
      const changedElsewhere = this.#knownSize !== undefined && size !== this.#knownSize;
      this.#knownSize = size;
      return changedElsewhere;
    };
    const look = (): void => {
      let changedElsewhere = false;
      void this.#enqueue('followed', async () => {
        changedElsewhere = await measure();
      }).then(() => (changedElsewhere ? this.reload() : undefined)).catch((error: unknown) => {
        this.#log.warn(`Usage ledger: could not read what other windows recorded: ${error instanceof Error ? error.message : String(error)}`);
      });
    };
    void this.#enqueue('followed', async () => void (await measure()));
    watchFile(this.#file, { persistent: false, interval: FOLLOW_INTERVAL_MS }, look);
    this.register({ dispose: () => unwatchFile(this.#file, look) });
  }

  /** What this window knows of the days last read (its own records and what was on disk then). */
  entries(): readonly UsageEntry[] {
    return this.#entries;
  }

  spendToday(environment: string): { credits: number; unmeasured: number } {
    return spendToday(this.#entries.filter((e) => e.environment === environment), this.clock());
  }

  record(record: UsageRecord): void {
    const entry = toUsageEntry(record, this.clock());
    this.#entries.push(entry);
    this.#unwritten.add(entry);
    this.#onDidChange.fire();
    void this.#enqueue('written', async () => {
      try {
        await fs.mkdir(path.dirname(this.#file), { recursive: true });
        const line = serializeEntry(entry);
        await fs.appendFile(this.#file, line, 'utf8');
        if (this.#knownSize !== undefined) this.#knownSize += Buffer.byteLength(line);
      } finally {
        this.#unwritten.delete(entry);
      }
    });
  }

  recordUnmeasured(record: Omit<UsageRecord, 'credits'>, who: string, reason: SpendNotMeasured): void {
    const why = reason === 'overlapped' ? 'another request of this environment ran at the same time' : 'no balance reading before and after it';
    this.#log.info(`${who}: spend of request ${record.requestId || 'without id'} not measured (${why}); it counts against spending limits as inference.unmeasuredRequestCredits.`);
    this.record({ ...record, credits: null });
  }

  /**
   * A comparison's spend measured as a whole: recorded in place of its columns' entries that have
   * none, which this window recorded (measuredTogether.ts); nothing when it holds none of them.
   */
  recordMeasuredTogether(total: ComparisonSpend): void {
    const record = measuredTogether(this.#entries, total);
    if (record) this.record(record);
  }

  /** Resolves once every record made so far is in the file (or failed to get there, which is logged). */
  written(): Promise<void> {
    return this.#queue;
  }

  /**
   * Every window's spend in the current periods of spending limits (the user's time zone), per
   * environment and per endpoint token: what spending limits check. Reads the sums kept beside the
   * ledger and the lines appended since, not the month, so that its cost does not grow with the ledger.
   */
  async periodSums(): Promise<SpendSums> {
    const periods = currentPeriods(this.clock());
    let sums = emptySums(periods);
    await this.#enqueue('read', async () => {
      sums = await readPeriodSums({ ledger: this.#file, sums: this.#sumsFile, pid: process.pid }, periods);
    });
    for (const entry of this.#unwritten) addToSums(sums, entry);
    return sums;
  }

  /**
   * Re-reads the last `days` days ending today (by default those last read), so that spend recorded
   * by other windows shows too. Only those days are read, from the end of the file.
   */
  async reload(days = this.#days): Promise<readonly UsageEntry[]> {
    await this.#enqueue('read', async () => {
      const stored = await readLedgerSince(this.#file, windowStart(this.clock(), days));
      this.#entries = [...stored, ...this.#unwritten];
      this.#days = days;
    });
    this.#onDidChange.fire();
    return this.#entries;
  }

  /** Every entry in the file, in the order recorded, read as it is consumed; then those not yet written. */
  async *all(): AsyncGenerator<UsageEntry> {
    await this.#queue;
    const unwritten = [...this.#unwritten];
    yield* streamLedger(this.#file);
    yield* unwritten;
  }

  /** Drops entries past the retention, streaming the file, once its oldest is well past it. */
  async #compactIfDue(): Promise<void> {
    await this.#enqueue('compacted', async () => {
      const oldest = await oldestLedgerEntry(this.#file);
      const keepSince = this.clock() - KEEP_DAYS * DAY_MS;
      if (oldest === undefined || oldest >= keepSince - COMPACT_AFTER_DAYS * DAY_MS) return;
      await compactLedger(this.#file, keepSince, process.pid);
      // Its own rewrite: not news for followOtherWindows.
      this.#knownSize = await fs.stat(this.#file).then((stats) => stats.size, () => undefined);
    });
  }

  #enqueue(what: string, operation: () => Promise<void>): Promise<void> {
    this.#queue = this.#queue.then(operation).catch((error: unknown) => {
      this.#log.warn(`Usage ledger not ${what}: ${error instanceof Error ? error.message : String(error)}`);
    });
    return this.#queue;
  }
}

/**
 * The ledger's clock. Tests of the usage view move it across days: outside production mode (an
 * installed extension never is), INFERENCE_TEST_CLOCK_FILE names a file holding an offset in
 * milliseconds that is added to the real time.
 */
export function ledgerClock(mode: vscode.ExtensionMode, variables: NodeJS.ProcessEnv = process.env): Clock {
  const file = variables.INFERENCE_TEST_CLOCK_FILE;
  if (mode === vscode.ExtensionMode.Production || !file) return Date.now;
  return () => {
    let offset = 0;
    try {
      offset = Number(readFileSync(file, 'utf8').trim()) || 0;
    } catch {
      // No file yet: the real time.
    }
    return Date.now() + offset;
  };
}
