import { sumsFor, type SpendSums } from './periodSums';
import { reachedLimit, spendFromSums, stateOf, type PeriodSpend, type SpendingLimit } from './spendingLimits';

/**
 * The decision a spending-limit check makes before a billed request is sent, from the period sums
 * (periodSums.ts) and what requests in flight hold: the endpoint token's own daily limit first, then
 * the environment's limits. Pure, so that the host's guard only gathers its inputs.
 */

/** A limit that refuses the request; `token`: the endpoint token's name when the limit is that token's own. */
export interface ReachedLimit {
  spend: PeriodSpend;
  token?: string;
}

export interface LimitCheck {
  sums: SpendSums;
  environment: string;
  /** The environment's limits; undefined: none. */
  limit?: SpendingLimit;
  /** The user let this one request of the environment past its limits (Send Anyway). */
  consented: boolean;
  /** The endpoint token the request came through, when it has a daily limit of its own. */
  token?: { id: string; name: string; dailyLimit: number };
  /** Credits counted per unmeasured request. */
  allowance: number;
  /** Credits held by requests in flight: of the environment, and of the token (every environment's). */
  reserved: number;
  reservedByToken: number;
}

/** The environment's spend against its limits (in the periods' order: the day first, then the month). */
export function environmentSpend(sums: SpendSums, environment: string, limit: SpendingLimit, allowance: number, reserved: number): PeriodSpend[] {
  return spendFromSums({ sums: sumsFor(sums.environments, environment), periods: sums.periods, limit, allowance, reserved });
}

/** An endpoint token's spend today (every environment's requests through it) against its daily limit. */
export function tokenSpend(sums: SpendSums, tokenId: string, dailyLimit: number, allowance: number, reserved: number): PeriodSpend {
  return spendFromSums({ sums: sumsFor(sums.tokens, tokenId), periods: sums.periods, limit: { day: dailyLimit, warningFraction: 1 }, allowance, reserved })[0];
}

/**
 * What refuses the request now, if anything. A token's limit is the tool's own: Send Anyway, consent
 * given in the editor for the environment, does not lift it.
 */
export function limitReached(check: LimitCheck): ReachedLimit | undefined {
  if (check.token) {
    const spend = tokenSpend(check.sums, check.token.id, check.token.dailyLimit, check.allowance, check.reservedByToken);
    if (stateOf(spend) === 'reached') return { spend, token: check.token.name };
  }
  if (!check.limit || check.consented) return undefined;
  const spend = reachedLimit(environmentSpend(check.sums, check.environment, check.limit, check.allowance, check.reserved));
  return spend && { spend };
}
