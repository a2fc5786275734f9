import type { UsageEntry } from './ledger';
import { budgetKeysOf } from './spendBudget';
import type { Period } from './spendPeriods';
import { EMPTY_SUM, LIMIT_PERIOD_NAMES, perPeriod, type LimitPeriods, type PeriodSum, type PeriodSums } from './spendingLimits';

/**
 * The ledger's spend in each current period of a spending limit (spendingLimits.ts's LIMIT_PERIODS),
 * per environment and per budget key (spendBudget.ts: every kind, across environments, and every
 * endpoint token): what a limit check and a budget need, kept as sums so that the check costs the
 * same whatever the ledger's size. Built from ledger entries only (periodSumsFile.ts keeps
 * it beside the ledger and up to date).
 */

export interface SpendSums {
  periods: LimitPeriods;
  /** Environment name → its sums. */
  environments: Map<string, PeriodSums>;
  /**
   * Budget key (`kind:<kind>`, `token:<id>`) → its sums, every environment's: what a budget of its
   * own counts (an endpoint token's daily limit, the suggestions' budget) and the spend of a kind today.
   */
  budgets: Map<string, PeriodSums>;
}

export function emptySums(periods: LimitPeriods): SpendSums {
  return { periods, environments: new Map(), budgets: new Map() };
}

function within(at: number, period: Period): boolean {
  return at >= period.start && at < period.end;
}

/**
 * One entry in one period's sum: its credits, or one more unmeasured request; a comparison's measured
 * total (measuredTogether.ts) also takes back each column entry it stands in for that fell in the period.
 */
function added(sum: PeriodSum, entry: UsageEntry, period: Period): PeriodSum {
  const credits = within(entry.at, period) ? entry.credits : 0;
  const covered = entry.covers?.filter((at) => within(at, period)).length ?? 0;
  if (credits === null) return { measured: sum.measured, unmeasured: sum.unmeasured + 1 };
  // Never below none: a column entry that this sum did not count (read after it) is not taken twice.
  return { measured: sum.measured + credits, unmeasured: Math.max(0, sum.unmeasured - covered) };
}

const EMPTY_SUMS: PeriodSums = perPeriod(() => EMPTY_SUM);

/** Whether an entry changes a period's sum: it fell in the period, or a column entry it stands in for did. */
function counts(entry: UsageEntry, period: Period): boolean {
  return within(entry.at, period) || (entry.covers?.some((at) => within(at, period)) ?? false);
}

function addTo(map: Map<string, PeriodSums>, key: string, entry: UsageEntry, periods: LimitPeriods): void {
  const sums = map.get(key) ?? EMPTY_SUMS;
  map.set(key, perPeriod((period) => (counts(entry, periods[period]) ? added(sums[period], entry, periods[period]) : sums[period])));
}

/** Counts one entry in the periods it falls in (an entry outside all of them changes nothing). */
export function addToSums(sums: SpendSums, entry: UsageEntry): void {
  if (!LIMIT_PERIOD_NAMES.some((period) => counts(entry, sums.periods[period]))) return;
  addTo(sums.environments, entry.environment, entry, sums.periods);
  for (const key of budgetKeysOf(entry)) addTo(sums.budgets, key, entry, sums.periods);
}

export function sumsOf(entries: Iterable<UsageEntry>, periods: LimitPeriods): SpendSums {
  const sums = emptySums(periods);
  for (const entry of entries) addToSums(sums, entry);
  return sums;
}

export function copySums(sums: SpendSums): SpendSums {
  return { periods: sums.periods, environments: new Map(sums.environments), budgets: new Map(sums.budgets) };
}

export function sumsFor(map: Map<string, PeriodSums>, key: string): PeriodSums {
  return map.get(key) ?? EMPTY_SUMS;
}

/** Where the earliest current period starts: the ledger is read from there to build the sums. */
export function earliestStart(periods: LimitPeriods): number {
  return Math.min(...LIMIT_PERIOD_NAMES.map((period) => periods[period].start));
}
