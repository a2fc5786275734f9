import { readFileSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import vscode = require('vscode');
import { parseLedger, serializeEntry, toUsageEntry, type Clock, type UsageEntry, type UsageRecord, type UsageRecorder } from '../../core/usage/ledger';
import { retained, spendToday } from '../../core/usage/report';
import { Disposable } from '../disposable';

/** Entries older than this are dropped when the ledger is loaded; the view shows 30 days, the CSV the rest. */
const KEEP_DAYS = 400;

/**
 * The ledger on disk: `usage/ledger.jsonl` in the extension's global storage, one JSON line per
 * request. Recording is an append (other windows append to the same file); the view re-reads it.
 */
export class UsageLedger extends Disposable implements UsageRecorder {
  readonly #file: string;
  #entries: UsageEntry[] = [];
  /** Recorded here but not yet appended to the file: a read must not lose them. */
  readonly #unwritten = new Set<UsageEntry>();
  /** Appends, reads and compaction run one after another. */
  #queue: Promise<void> = Promise.resolve();
  readonly #onDidChange = this.register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.#onDidChange.event;
  readonly loaded: Promise<void>;

  constructor(storage: vscode.Uri, private readonly log: vscode.LogOutputChannel, readonly clock: Clock = Date.now) {
    super();
    // Disposal waits for the records still being appended.
    this.register({ dispose: () => this.#queue });
    this.#file = path.join(storage.fsPath, 'usage', 'ledger.jsonl');
    this.loaded = this.reload().then(() => this.compact());
  }

  /** What this window knows (its own records and what was on disk when last read). */
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
        await fs.appendFile(this.#file, serializeEntry(entry), 'utf8');
      } finally {
        this.#unwritten.delete(entry);
      }
    });
  }

  recordOverlapped(record: Omit<UsageRecord, 'credits'>, who: string): void {
    this.log.info(`${who}: no spend recorded for request ${record.requestId || 'without id'}: another request of this environment ran at the same time.`);
    this.record({ ...record, credits: null });
  }

  /** Re-reads the file, so that spend recorded by other windows shows too. */
  async reload(): Promise<readonly UsageEntry[]> {
    await this.#enqueue('read', async () => {
      let stored: UsageEntry[] = [];
      try {
        stored = parseLedger(await fs.readFile(this.#file, 'utf8'));
      } catch (error) {
        if ((error as { code?: unknown }).code !== 'ENOENT') throw error;
      }
      this.#entries = [...stored, ...this.#unwritten];
    });
    this.#onDidChange.fire();
    return this.#entries;
  }

  private async compact(): Promise<void> {
    const kept = retained(this.#entries, this.clock(), KEEP_DAYS);
    if (kept.length === this.#entries.length) return;
    this.#entries = kept;
    await this.#enqueue('compacted', async () => {
      const temporary = `${this.#file}.${process.pid}.tmp`;
      await fs.writeFile(temporary, kept.map(serializeEntry).join(''), 'utf8');
      await fs.rename(temporary, this.#file);
    });
  }

  #enqueue(what: string, operation: () => Promise<void>): Promise<void> {
    this.#queue = this.#queue.then(operation).catch((error: unknown) => {
      this.log.warn(`Usage ledger not ${what}: ${error instanceof Error ? error.message : String(error)}`);
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
