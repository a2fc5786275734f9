import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { processIsAlive } from '../processIsAlive';
import { parseJson } from '../json';

/**
 * Credits held for requests let through a spending limit and not yet in the ledger, shared by every
 * window through a file beside the ledger (`reservations.json`). The check and the reservation happen
 * under a lock file (`reservations.lock`, created exclusively), so that two windows near a limit
 * cannot both pass its last credit. Crash-safe: a reservation or lock of a process that is gone, or
 * older than its time to live, is ignored (and dropped at the next write).
 */

interface StoredReservation {
  id: string;
  pid: number;
  environment: string;
  /** The keys of the request's budgets of their own (spendBudget.ts), when it has any. */
  budgets?: string[];
  credits: number;
  at: number;
}

export interface ReservationOptions {
  pid?: number;
  clock?: () => number;
  /** Whether a process is still running; tests pass their own. */
  isAlive?: (pid: number) => boolean;
  /** A reservation older than this is ignored: its request is long over. */
  reservationTtlMs?: number;
  /** A lock older than this is taken over: its holder hung or died between two syscalls. */
  lockTtlMs?: number;
}

const RETRY_MS = 10;

export class ReservationStore {
  readonly #file: string;
  readonly #lock: string;
  readonly #pid: number;
  readonly #clock: () => number;
  readonly #isAlive: (pid: number) => boolean;
  readonly #reservationTtlMs: number;
  readonly #lockTtlMs: number;

  constructor(directory: string, options: ReservationOptions = {}) {
    this.#file = path.join(directory, 'reservations.json');
    this.#lock = path.join(directory, 'reservations.lock');
    this.#pid = options.pid ?? process.pid;
    this.#clock = options.clock ?? Date.now;
    this.#isAlive = options.isAlive ?? processIsAlive;
    this.#reservationTtlMs = options.reservationTtlMs ?? 3_600_000;
    this.#lockTtlMs = options.lockTtlMs ?? 10_000;
  }

  /**
   * Under the lock: `decide` is told the credits every live reservation of `environment` holds, and
   * for each of `budgets` (keys), those of every environment's requests under that key; when it
   * answers true, `credits` are reserved. Returns the reservation's id, or undefined when refused.
   */
  async reserve(environment: string, credits: number, decide: (reserved: number, reservedByBudget: ReadonlyMap<string, number>) => boolean | Promise<boolean>, budgets: readonly string[] = []): Promise<string | undefined> {
    return this.#locked(async () => {
      const live = await this.#live();
      const reserved = live.filter((r) => r.environment === environment).reduce((sum, r) => sum + r.credits, 0);
      const reservedByBudget = new Map(budgets.map((key) => [key, live.filter((r) => r.budgets?.includes(key)).reduce((sum, r) => sum + r.credits, 0)]));
      if (!(await decide(reserved, reservedByBudget))) return undefined;
      const id = randomUUID();
      await this.#write([...live, { id, pid: this.#pid, environment, ...(budgets.length > 0 && { budgets: [...budgets] }), credits, at: this.#clock() }]);
      return id;
    });
  }

  /** The request is over and recorded (or was never sent). Releasing twice is harmless. */
  async release(id: string): Promise<void> {
    await this.#locked(async () => {
      const live = await this.#live();
      const kept = live.filter((r) => r.id !== id);
      if (kept.length !== live.length) await this.#write(kept);
    });
  }

  /** Credits held for the environment by live reservations (for views; a decision uses `reserve`). */
  async reserved(environment: string): Promise<number> {
    return (await this.#live()).filter((r) => r.environment === environment).reduce((sum, r) => sum + r.credits, 0);
  }

  async #live(): Promise<StoredReservation[]> {
    // None yet, or a file cut by a crash: nothing holds.
    const raw = parseJson(await fs.readFile(this.#file, 'utf8').catch(() => ''));
    if (!Array.isArray(raw)) return [];
    const now = this.#clock();
    return raw.filter((r: unknown): r is StoredReservation => {
      if (typeof r !== 'object' || r === null) return false;
      const { id, pid, environment, budgets, credits, at } = r as Record<string, unknown>;
      const keys = budgets === undefined || (Array.isArray(budgets) && budgets.every((key) => typeof key === 'string'));
      return typeof id === 'string' && typeof pid === 'number' && typeof environment === 'string' && keys && typeof credits === 'number' && typeof at === 'number'
        && now - at < this.#reservationTtlMs && (pid === this.#pid || this.#isAlive(pid));
    });
  }

  async #write(reservations: readonly StoredReservation[]): Promise<void> {
    const temporary = `${this.#file}.${this.#pid}.tmp`;
    await fs.writeFile(temporary, JSON.stringify(reservations), 'utf8');
    await fs.rename(temporary, this.#file);
  }

  async #locked<T>(operation: () => Promise<T>): Promise<T> {
    await fs.mkdir(path.dirname(this.#lock), { recursive: true });
    for (;;) {
      try {
        const handle = await fs.open(this.#lock, 'wx');
        await handle.writeFile(JSON.stringify({ pid: this.#pid, at: this.#clock() }));
        await handle.close();
        break;
      } catch (error) {
        if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
        if (await this.#lockIsStale()) await fs.rm(this.#lock, { force: true });
        else await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    }
    try {
      return await operation();
    } finally {
      await fs.rm(this.#lock, { force: true });
    }
  }

  async #lockIsStale(): Promise<boolean> {
    let holder: { pid?: unknown; at?: unknown };
    try {
      holder = JSON.parse(await fs.readFile(this.#lock, 'utf8')) as { pid?: unknown; at?: unknown };
    } catch (error) {
      // Gone meanwhile (try again at once), or created but not yet written: wait unless it is old.
      if ((error as { code?: unknown }).code === 'ENOENT') return false;
      const stat = await fs.stat(this.#lock).catch(() => undefined);
      return stat !== undefined && this.#clock() - stat.mtimeMs > this.#lockTtlMs;
    }
    const { pid, at } = holder;
    if (typeof pid !== 'number' || typeof at !== 'number') return true;
    return this.#clock() - at > this.#lockTtlMs || (pid !== this.#pid && !this.#isAlive(pid));
  }
}
