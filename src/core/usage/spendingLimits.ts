import * as l10n from '@vscode/l10n';
import { formatCredits, SPEND_DIGITS } from '../credits';
import type { UsageEntry } from './ledger';
import { dayPeriod, monthPeriod, type Period, type TimeZone } from './spendPeriods';

/**
 * Spending limits per environment (the user's `inference.spendingLimits`), checked before any billed
 * request is sent. Spend is what the usage ledger measured from the service's balance, never a price;
 * a request whose spend could not be measured counts as the stated allowance
 * (`inference.unmeasuredRequestCredits`), and so does every request another window (or this
 * one) has been let through and not yet recorded (reservations.ts).
 */

export type LimitPeriod = 'day' | 'month';

export interface SpendingLimit {
  /** Credits per day / month; undefined: no limit for that period. */
  day?: number;
  month?: number;
  /** The share of a limit at which the user is warned (0–1). */
  warningFraction: number;
}

export const DEFAULT_WARNING_FRACTION = 0.8;
/** Credits a request counts for when its spend is unknown (README, "Spending limits"). */
export const DEFAULT_UNMEASURED_CREDITS = 1;

function credits(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/**
 * The setting's value: environment name → `{ daily, monthly, warningFraction }`. Anything malformed
 * in an entry is ignored (the settings schema states the shape); an entry with no limit is dropped.
 */
export function parseSpendingLimits(raw: unknown): Map<string, SpendingLimit> {
  const limits = new Map<string, SpendingLimit>();
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return limits;
  for (const [environment, value] of Object.entries(raw as Record<string, unknown>)) {
    if (typeof value !== 'object' || value === null) continue;
    const { daily, monthly, warningFraction } = value as Record<string, unknown>;
    const fraction = credits(warningFraction);
    const limit: SpendingLimit = { warningFraction: fraction !== undefined && fraction <= 1 ? fraction : DEFAULT_WARNING_FRACTION };
    const day = credits(daily);
    const month = credits(monthly);
    if (day !== undefined) limit.day = day;
    if (month !== undefined) limit.month = month;
    if (day !== undefined || month !== undefined) limits.set(environment, limit);
  }
  return limits;
}

export interface PeriodSpend {
  period: LimitPeriod;
  limit: number;
  /** Credits the ledger measured in the period. */
  measured: number;
  /** Requests in the period whose spend could not be measured. */
  unmeasured: number;
  /** Credits held for requests let through and not yet recorded. */
  reserved: number;
  /** What counts against the limit: measured + allowance per unmeasured request + reserved. */
  counted: number;
  warningAt: number;
  /** When the period ends and the limit starts again. */
  resetsAt: number;
}

export type LimitState = 'ok' | 'warning' | 'reached';

export function stateOf(spend: PeriodSpend): LimitState {
  if (spend.counted >= spend.limit) return 'reached';
  return spend.counted >= spend.warningAt ? 'warning' : 'ok';
}

export interface SpendInput {
  /** The environment's ledger entries (at least those of the current month). */
  entries: readonly UsageEntry[];
  limit: SpendingLimit;
  now: number;
  /** Credits per unmeasured request. */
  allowance: number;
  /** Credits reserved for this environment's requests in flight. */
  reserved: number;
  timeZone?: TimeZone;
}

/** What the ledger holds for one period: measured credits, and requests billed without a measured cost. */
export interface PeriodSum {
  measured: number;
  unmeasured: number;
}

export const EMPTY_SUM: PeriodSum = { measured: 0, unmeasured: 0 };

/** The entries' sum within `bounds` (the sum kept beside the ledger, periodSums.ts, is this, kept up to date). */
export function sumWithin(entries: readonly UsageEntry[], bounds: Period): PeriodSum {
  let measured = 0;
  let unmeasured = 0;
  for (const entry of entries) {
    if (entry.at < bounds.start || entry.at >= bounds.end) continue;
    if (entry.credits === null) unmeasured++;
    else measured += entry.credits;
  }
  return { measured, unmeasured };
}

export interface SumsInput {
  /** The ledger's sums for the current day and month, and those periods. */
  day: PeriodSum;
  month: PeriodSum;
  periods: { day: Period; month: Period };
  limit: SpendingLimit;
  allowance: number;
  reserved: number;
}

function periodSpend(period: LimitPeriod, bounds: Period, limitCredits: number, sum: PeriodSum, input: SumsInput): PeriodSpend {
  const measured = Math.round(sum.measured * 1e6) / 1e6;
  const counted = Math.round((measured + sum.unmeasured * input.allowance + input.reserved) * 1e6) / 1e6;
  return { period, limit: limitCredits, measured, unmeasured: sum.unmeasured, reserved: input.reserved, counted, warningAt: limitCredits * input.limit.warningFraction, resetsAt: bounds.end };
}

/** The spend in each period the limit has: the day first, then the month. */
export function spendFromSums(input: SumsInput): PeriodSpend[] {
  const spends: PeriodSpend[] = [];
  const { limit, periods } = input;
  if (limit.day !== undefined) spends.push(periodSpend('day', periods.day, limit.day, input.day, input));
  if (limit.month !== undefined) spends.push(periodSpend('month', periods.month, limit.month, input.month, input));
  return spends;
}

/** The environment's spend in each period it has a limit for: the day first, then the month. */
export function spendAgainstLimits(input: SpendInput): PeriodSpend[] {
  const periods = { day: dayPeriod(input.now, input.timeZone), month: monthPeriod(input.now, input.timeZone) };
  return spendFromSums({ ...input, periods, day: sumWithin(input.entries, periods.day), month: sumWithin(input.entries, periods.month) });
}

/** The limit that stops a request now (the first reached), if any. */
export function reachedLimit(spends: readonly PeriodSpend[]): PeriodSpend | undefined {
  return spends.find((spend) => stateOf(spend) === 'reached');
}

/** The limit closest to being reached among those at their warning fraction, if any. */
export function warnedLimit(spends: readonly PeriodSpend[]): PeriodSpend | undefined {
  return spends.filter((spend) => stateOf(spend) !== 'ok').sort((a, b) => b.counted / b.limit - a.counted / a.limit)[0];
}

/** Which limit refused a request, what was counted and when it resets (`resetsAt` as the caller formats it). */
export function limitReachedMessage(spend: PeriodSpend, environment: string, resetsAt: string): string {
  const spent = formatCredits(spend.counted, SPEND_DIGITS);
  const limit = formatCredits(spend.limit, SPEND_DIGITS);
  return spend.period === 'day'
    ? l10n.t('The daily spending limit of "{0}" is reached: {1} of {2} credits spent today. Nothing was sent. The limit resets at {3}.', environment, spent, limit, resetsAt)
    : l10n.t('The monthly spending limit of "{0}" is reached: {1} of {2} credits spent this month. Nothing was sent. The limit resets on {3}.', environment, spent, limit, resetsAt);
}

