import { isCount } from '../json';
import { dayKey, noSuggestionEvents as noEvents, SUGGESTION_EVENTS, type SuggestionEvent, type SuggestionEventCounts } from '../usage/report';

/**
 * How many inline suggestions were requested (sent to the service), shown, accepted and cancelled,
 * per local day and environment: what the usage view sets beside the suggestions' spend (credits per
 * accepted suggestion). Counted in memory and written in batches, never once per keystroke; each
 * write adds this window's counts to what the store holds then, so that windows sharing it add up
 * rather than overwrite each other. Bounded: only the last KEEP_DAYS days are kept, so its size
 * depends on the days and the user's environments, never on how much suggestions are used.
 */

/** Day (`YYYY-MM-DD`, local) → environment → its counts. */
type DayCounts = Record<string, Record<string, SuggestionEventCounts>>;

const STORED_VERSION = 1;

export interface StoredSuggestionCounts {
  v: typeof STORED_VERSION;
  days: DayCounts;
}

/** Where the counts live (the host: a key of VS Code's global state, shared by every window). */
export interface SuggestionCountsStore {
  /** What the store holds now (anything: it is parsed, never trusted). */
  read(): unknown;
  write(value: StoredSuggestionCounts): Promise<void>;
}

export interface SuggestionCountsOptions {
  clock?: () => number;
  /** Days kept, today included. */
  keepDays?: number;
  /** How long counts wait in memory before they are written. */
  flushAfterMs?: number;
  /** A failed write (its counts are kept for the next one). */
  onError?: (error: unknown) => void;
}

export const KEEP_DAYS = 90;
export const FLUSH_AFTER_MS = 10_000;

const DAY_KEY = /^\d{4}-\d{2}-\d{2}$/;

/** The stored value back to counts; a malformed part is dropped, the rest kept. */
export function parseSuggestionCounts(raw: unknown): DayCounts {
  const days: DayCounts = {};
  if (typeof raw !== 'object' || raw === null || (raw as { v?: unknown }).v !== STORED_VERSION) return days;
  const stored = (raw as { days?: unknown }).days;
  if (typeof stored !== 'object' || stored === null) return days;
  for (const [day, environments] of Object.entries(stored as Record<string, unknown>)) {
    if (!DAY_KEY.test(day) || typeof environments !== 'object' || environments === null) continue;
    for (const [environment, value] of Object.entries(environments as Record<string, unknown>)) {
      if (typeof value !== 'object' || value === null) continue;
      const counts = noEvents();
      for (const event of SUGGESTION_EVENTS) {
        const count = (value as Record<string, unknown>)[event];
        if (isCount(count)) counts[event] = count;
      }
      (days[day] ??= {})[environment] = counts;
    }
  }
  return days;
}

function addInto(target: DayCounts, source: DayCounts): void {
  for (const [day, environments] of Object.entries(source)) {
    for (const [environment, counts] of Object.entries(environments)) {
      const into = ((target[day] ??= {})[environment] ??= noEvents());
      for (const event of SUGGESTION_EVENTS) into[event] += counts[event];
    }
  }
}

/** The day keys from `keepDays - 1` days before `now` on: string order is date order. */
function oldestKept(now: number, keepDays: number): string {
  const today = new Date(now);
  return dayKey(new Date(today.getFullYear(), today.getMonth(), today.getDate() - (keepDays - 1), 12).getTime());
}

export class SuggestionCounts {
  /** Counted here and not yet in the store. */
  #pending: DayCounts = {};
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** The write in progress: flushes run one after another. */
  #writing: Promise<void> = Promise.resolve();
  #disposed = false;

  readonly #store: SuggestionCountsStore;
  readonly #clock: () => number;
  readonly #keepDays: number;
  readonly #flushAfterMs: number;
  readonly #onError: (error: unknown) => void;

  constructor(store: SuggestionCountsStore, options: SuggestionCountsOptions = {}) {
    this.#store = store;
    this.#clock = options.clock ?? Date.now;
    this.#keepDays = options.keepDays ?? KEEP_DAYS;
    this.#flushAfterMs = options.flushAfterMs ?? FLUSH_AFTER_MS;
    this.#onError = options.onError ?? (() => undefined);
  }

  /** One suggestion `event` of `environment`, today; written with the others within flushAfterMs. */
  record(event: SuggestionEvent, environment: string): void {
    if (this.#disposed) return;
    const counts = ((this.#pending[dayKey(this.#clock())] ??= {})[environment] ??= noEvents());
    counts[event] += 1;
    this.#scheduleFlush();
  }

  #scheduleFlush(): void {
    if (this.#disposed) return;
    this.#timer ??= setTimeout(() => {
      this.#timer = undefined;
      void this.flush();
    }, this.#flushAfterMs);
  }

  /**
   * Each event's count over `days` (day keys), every window's as last written and this one's not yet
   * written; `environment`: that environment's only.
   */
  totals(days: readonly string[], environment?: string): SuggestionEventCounts {
    const all = parseSuggestionCounts(this.#store.read());
    addInto(all, this.#pending);
    const totals = noEvents();
    for (const day of days) {
      for (const [name, counts] of Object.entries(all[day] ?? {})) {
        if (environment !== undefined && name !== environment) continue;
        for (const event of SUGGESTION_EVENTS) totals[event] += counts[event];
      }
    }
    return totals;
  }

  /** Writes what was counted since the last write, added to what the store holds now, without the days past KEEP_DAYS. */
  flush(): Promise<void> {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#writing = this.#writing.then(async () => {
      const batch = this.#pending;
      if (Object.keys(batch).length === 0) return;
      this.#pending = {};
      const days = parseSuggestionCounts(this.#store.read());
      addInto(days, batch);
      const oldest = oldestKept(this.#clock(), this.#keepDays);
      for (const day of Object.keys(days)) if (day < oldest) delete days[day];
      try {
        await this.#store.write({ v: STORED_VERSION, days });
      } catch (error) {
        // Kept for the next write, which is scheduled as if they had just been counted.
        addInto(this.#pending, batch);
        this.#scheduleFlush();
        this.#onError(error);
      }
    });
    return this.#writing;
  }

  /** Writes what is pending; nothing is counted after. */
  async dispose(): Promise<void> {
    this.#disposed = true;
    await this.flush();
  }
}
