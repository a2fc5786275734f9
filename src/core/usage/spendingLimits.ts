import * as l10n from '@vscode/l10n';
import { formatCredits, SPEND_DIGITS } from '../credits';
import type { UsageEntry } from './ledger';
import { dayPeriod, monthPeriod, type Period, type TimeZone } from './spendPeriods';
import { withoutCovered } from './measuredTogether';

/**
 * Spending limits per environment (the user's `inference.spendingLimits`), checked before any billed
 * request is sent. Spend is what the usage ledger measured from the service's balance, never a price;
 * a request whose spend could not be measured counts as the stated allowance
 * (`inference.unmeasuredRequestCredits`), and so does every request another window (or this
 * one) has been let through and not yet recorded (reservations.ts).
 */

/** What the extension says and does for one kind of period a spending limit can have. */
interface LimitPeriodRow {
  /** The key that sets it in an environment's entry of `inference.spendingLimits` (package.json's schema names it too). */
  setting: string;
  /** The period containing `now`, in the user's time zone (spendPeriods.ts). */
  bounds(now: number, timeZone?: TimeZone): Period;
  /** What refused a request, where the user acted (the chat's card, a notification). */
  refusal(environment: string, spent: string, limit: string, resetsAt: string): string;
  /** The status bar's and the notification's line: at the warning fraction, or reached. */
  summary(reached: boolean, environment: string, spent: string, limit: string, resetsAt: string): string;
  /** The usage view's name for the period now ("Today"). */
  label(): string;
  /** When it resets, as a refusal says it: a time for a day, a date and time for longer. */
  resetText(resetsAt: number): string;
  /** For the local endpoint's error body, which stays in English ("daily"). */
  adjective: string;
}

/**
 * The periods a spending limit can have, in the order they are checked and shown: a new period is a
 * row here, plus its key in the setting's schema and its strings (package.nls.json, the l10n bundle).
 * A period's sums are kept beside the ledger (periodSums.ts); the longest period bounds what is read.
 */
export const LIMIT_PERIODS = {
  day: {
    setting: 'daily',
    bounds: dayPeriod,
    refusal: (environment, spent, limit, resetsAt) => l10n.t('The daily spending limit of "{0}" is reached: {1} of {2} credits spent today. Nothing was sent. The limit resets at {3}.', environment, spent, limit, resetsAt),
    summary: (reached, environment, spent, limit, resetsAt) => (reached
      ? l10n.t('Daily spending limit of {0} reached: {1} of {2} credits. Requests are refused until {3}.', environment, spent, limit, resetsAt)
      : l10n.t('Daily spending limit of {0}: {1} of {2} credits spent (resets {3}).', environment, spent, limit, resetsAt)),
    label: () => l10n.t('Today'),
    resetText: (resetsAt) => new Date(resetsAt).toLocaleTimeString(),
    adjective: 'daily',
  },
  month: {
    setting: 'monthly',
    bounds: monthPeriod,
    refusal: (environment, spent, limit, resetsAt) => l10n.t('The monthly spending limit of "{0}" is reached: {1} of {2} credits spent this month. Nothing was sent. The limit resets on {3}.', environment, spent, limit, resetsAt),
    summary: (reached, environment, spent, limit, resetsAt) => (reached
      ? l10n.t('Monthly spending limit of {0} reached: {1} of {2} credits. Requests are refused until {3}.', environment, spent, limit, resetsAt)
      : l10n.t('Monthly spending limit of {0}: {1} of {2} credits spent (resets {3}).', environment, spent, limit, resetsAt)),
    label: () => l10n.t('This month'),
    resetText: (resetsAt) => new Date(resetsAt).toLocaleString(),
    adjective: 'monthly',
  },
} as const satisfies Record<string, LimitPeriodRow>;

export type LimitPeriod = keyof typeof LIMIT_PERIODS;
/** Every period, in the table's order. */
export const LIMIT_PERIOD_NAMES = Object.keys(LIMIT_PERIODS) as LimitPeriod[];
/** The current period of each kind. */
export type LimitPeriods = Record<LimitPeriod, Period>;

/** One value per period of the table, made by `value`. */
export function perPeriod<T>(value: (period: LimitPeriod) => T): Record<LimitPeriod, T> {
  return Object.fromEntries(LIMIT_PERIOD_NAMES.map((period) => [period, value(period)])) as Record<LimitPeriod, T>;
}

export function currentPeriods(now: number, timeZone?: TimeZone): LimitPeriods {
  return perPeriod((period) => LIMIT_PERIODS[period].bounds(now, timeZone));
}

export type SpendingLimit = { [P in LimitPeriod]?: number } & {
  /** The share of a limit at which the user is warned (0–1). */
  warningFraction: number;
};

export const DEFAULT_WARNING_FRACTION = 0.8;
/** Credits a request counts for when its spend is unknown (README, "Spending limits"). */
export const DEFAULT_UNMEASURED_CREDITS = 1;

function credits(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/**
 * The setting's value: environment name → `{ daily, monthly, warningFraction }` (each period's
 * `setting` key). Anything malformed in an entry is ignored (the settings schema states the shape);
 * an entry with no limit is dropped.
 */
export function parseSpendingLimits(raw: unknown): Map<string, SpendingLimit> {
  const limits = new Map<string, SpendingLimit>();
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return limits;
  for (const [environment, value] of Object.entries(raw as Record<string, unknown>)) {
    if (typeof value !== 'object' || value === null) continue;
    const entry = value as Record<string, unknown>;
    const fraction = credits(entry.warningFraction);
    const limit: SpendingLimit = { warningFraction: fraction !== undefined && fraction <= 1 ? fraction : DEFAULT_WARNING_FRACTION };
    for (const period of LIMIT_PERIOD_NAMES) {
      const amount = credits(entry[LIMIT_PERIODS[period].setting]);
      if (amount !== undefined) limit[period] = amount;
    }
    if (LIMIT_PERIOD_NAMES.some((period) => limit[period] !== undefined)) limits.set(environment, limit);
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
  // A comparison's measured total counts in place of its columns (measuredTogether.ts).
  for (const entry of withoutCovered(entries)) {
    if (entry.at < bounds.start || entry.at >= bounds.end) continue;
    if (entry.credits === null) unmeasured++;
    else measured += entry.credits;
  }
  return { measured, unmeasured };
}

/** What the ledger holds for each current period. */
export type PeriodSums = Record<LimitPeriod, PeriodSum>;

export interface SumsInput {
  /** The ledger's sums for the current periods, and those periods. */
  sums: PeriodSums;
  periods: LimitPeriods;
  limit: SpendingLimit;
  allowance: number;
  reserved: number;
}

function periodSpend(period: LimitPeriod, bounds: Period, limitCredits: number, sum: PeriodSum, input: SumsInput): PeriodSpend {
  const measured = Math.round(sum.measured * 1e6) / 1e6;
  const counted = Math.round((measured + sum.unmeasured * input.allowance + input.reserved) * 1e6) / 1e6;
  return { period, limit: limitCredits, measured, unmeasured: sum.unmeasured, reserved: input.reserved, counted, warningAt: limitCredits * input.limit.warningFraction, resetsAt: bounds.end };
}

/** The spend in each period the limit has, in the table's order (the day first, then the month). */
export function spendFromSums(input: SumsInput): PeriodSpend[] {
  const { limit, periods, sums } = input;
  return LIMIT_PERIOD_NAMES.flatMap((period) => {
    const amount = limit[period];
    return amount === undefined ? [] : [periodSpend(period, periods[period], amount, sums[period], input)];
  });
}

/** The environment's spend in each period it has a limit for, in the table's order. */
export function spendAgainstLimits(input: SpendInput): PeriodSpend[] {
  const periods = currentPeriods(input.now, input.timeZone);
  const sums = perPeriod((period) => sumWithin(input.entries, periods[period]));
  return spendFromSums({ ...input, periods, sums });
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
  return LIMIT_PERIODS[spend.period].refusal(environment, formatCredits(spend.counted, SPEND_DIGITS), formatCredits(spend.limit, SPEND_DIGITS), resetsAt);
}

/** One line about a limit at its warning fraction or reached: for the notification and the status bar's tooltip. */
export function limitSummary(spend: PeriodSpend, environment: string): string {
  return LIMIT_PERIODS[spend.period].summary(stateOf(spend) === 'reached', environment, formatCredits(spend.counted, SPEND_DIGITS), formatCredits(spend.limit, SPEND_DIGITS), new Date(spend.resetsAt).toLocaleString());
}
