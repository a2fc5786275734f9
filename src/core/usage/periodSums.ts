import type { UsageEntry } from './ledger';
import type { Period } from './spendPeriods';
import { EMPTY_SUM, type PeriodSum } from './spendingLimits';

/**
 * The ledger's spend in the current day and month, per environment and per endpoint token: what a
 * spending-limit check needs, kept as sums so that the check costs the same whatever the ledger's
 * size. Built from ledger entries only (periodSumsFile.ts keeps it beside the ledger and up to date).
 */

export interface DayAndMonth {
  day: PeriodSum;
  month: PeriodSum;
}

export interface SpendSums {
  day: Period;
  month: Period;
  /** Environment name → its sums. */
  environments: Map<string, DayAndMonth>;
  /** Endpoint token id → its sums (every environment's requests through it). */
  tokens: Map<string, DayAndMonth>;
}

export function emptySums(day: Period, month: Period): SpendSums {
  return { day, month, environments: new Map(), tokens: new Map() };
}

function within(at: number, period: Period): boolean {
  return at >= period.start && at < period.end;
}

function added(sum: PeriodSum, entry: UsageEntry): PeriodSum {
  return entry.credits === null ? { measured: sum.measured, unmeasured: sum.unmeasured + 1 } : { measured: sum.measured + entry.credits, unmeasured: sum.unmeasured };
}

function addTo(map: Map<string, DayAndMonth>, key: string, entry: UsageEntry, inDay: boolean): void {
  const sums = map.get(key) ?? { day: EMPTY_SUM, month: EMPTY_SUM };
  map.set(key, { day: inDay ? added(sums.day, entry) : sums.day, month: added(sums.month, entry) });
}

/** Counts one entry in the periods it falls in (an entry outside the month changes nothing). */
export function addToSums(sums: SpendSums, entry: UsageEntry): void {
  if (!within(entry.at, sums.month)) return;
  const inDay = within(entry.at, sums.day);
  addTo(sums.environments, entry.environment, entry, inDay);
  if (entry.token) addTo(sums.tokens, entry.token.id, entry, inDay);
}

export function sumsOf(entries: Iterable<UsageEntry>, day: Period, month: Period): SpendSums {
  const sums = emptySums(day, month);
  for (const entry of entries) addToSums(sums, entry);
  return sums;
}

export function copySums(sums: SpendSums): SpendSums {
  return { day: sums.day, month: sums.month, environments: new Map(sums.environments), tokens: new Map(sums.tokens) };
}

export function sumsFor(map: Map<string, DayAndMonth>, key: string): DayAndMonth {
  return map.get(key) ?? { day: EMPTY_SUM, month: EMPTY_SUM };
}
