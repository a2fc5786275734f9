import { sumsFor, type SpendSums } from './periodSums';
import { kindBudgetKey, tokenBudgetKey, type SpendBudget } from './spendBudget';
import type { UsageKind } from './ledger';
import { reachedLimit, spendFromSums, stateOf, type PeriodSpend, type PeriodSum, type SpendingLimit } from './spendingLimits';

/**
 * The decision a spending-limit check makes before a billed request is sent, from the period sums
 * (periodSums.ts) and what requests in flight hold: the call's own budgets first (an endpoint token's
 * daily limit, the suggestions' budget: spendBudget.ts), then the environment's limits. Pure, so that
 * the host's guard only gathers its inputs.
 */

/** A limit that refuses the request; `budget`: set when the limit is that budget's own. */
export interface ReachedLimit {
  spend: PeriodSpend;
  budget?: SpendBudget;
}

export interface LimitCheck {
  sums: SpendSums;
  environment: string;
  /** The environment's limits; undefined: none. */
  limit?: SpendingLimit;
  /** The user let this one request of the environment past its limits (Send Anyway). */
  consented: boolean;
  /** The call's budgets of their own (each counts every environment's spend under its key). */
  budgets: readonly SpendBudget[];
  /** Credits counted per unmeasured request. */
  allowance: number;
  /** Credits held by requests in flight: of the environment, and under each budget's key (every environment's). */
  reserved: number;
  reservedByBudget: ReadonlyMap<string, number>;
}

/** The environment's spend against its limits (in the periods' order: the day first, then the month). */
export function environmentSpend(sums: SpendSums, environment: string, limit: SpendingLimit, allowance: number, reserved: number): PeriodSpend[] {
  return spendFromSums({ sums: sumsFor(sums.environments, environment), periods: sums.periods, limit, allowance, reserved });
}

/** A budget's spend today (every environment's under its key) against its daily limit. */
export function budgetSpend(sums: SpendSums, budget: SpendBudget, allowance: number, reserved: number): PeriodSpend {
  return spendFromSums({ sums: sumsFor(sums.budgets, budget.key), periods: sums.periods, limit: { day: budget.dailyLimit, warningFraction: 1 }, allowance, reserved })[0];
}

/** An endpoint token's spend today (every environment's requests through it) against its daily limit. */
export function tokenSpend(sums: SpendSums, tokenId: string, dailyLimit: number, allowance: number, reserved: number): PeriodSpend {
  return budgetSpend(sums, { key: tokenBudgetKey(tokenId), name: tokenId, dailyLimit }, allowance, reserved);
}

/** Today's spend of one kind of request, every environment's: measured, unmeasured, and what that counts at the allowance. */
export interface KindSpend extends PeriodSum {
  counted: number;
}

export function kindSpendToday(sums: SpendSums, kind: UsageKind, allowance: number): KindSpend {
  const { measured, unmeasured } = sumsFor(sums.budgets, kindBudgetKey(kind)).day;
  const round = (value: number) => Math.round(value * 1e6) / 1e6;
  return { measured: round(measured), unmeasured, counted: round(measured + unmeasured * allowance) };
}

/**
 * What refuses the request now, if anything. A budget of its own is not the environment's: Send
 * Anyway, consent given in the editor for the environment, does not lift it.
 */
export function limitReached(check: LimitCheck): ReachedLimit | undefined {
  for (const budget of check.budgets) {
    const spend = budgetSpend(check.sums, budget, check.allowance, check.reservedByBudget.get(budget.key) ?? 0);
    if (stateOf(spend) === 'reached') return { spend, budget };
  }
  if (!check.limit || check.consented) return undefined;
  const spend = reachedLimit(environmentSpend(check.sums, check.environment, check.limit, check.allowance, check.reserved));
  return spend && { spend };
}
