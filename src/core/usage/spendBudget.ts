import * as l10n from '@vscode/l10n';
import type { EndpointCaller } from '../localEndpoint/namedTokens';
import type { UsageEntry, UsageKind } from './ledger';
import { formatCredits, SPEND_DIGITS } from '../credits';
import { limitReachedMessage, LIMIT_PERIODS, type PeriodSpend } from './spendingLimits';

/**
 * A daily budget of its own that a billed call is checked against besides its environment's limits:
 * an endpoint token's daily limit, the suggestions' daily budget. It counts every environment's
 * spend that falls under its key, and Send Anyway (consent given for an environment) does not lift
 * it. The key is namespaced (`token:<id>`, `kind:<kind>`), so that the period sums and the
 * reservations of two budgets can never be confused, whatever a token's id is.
 */
export interface SpendBudget {
  /** What the sums (periodSums.ts) and the reservations (reservations.ts) count it under. */
  key: string;
  /** The token's name, or SUGGESTIONS_BUDGET_NAME: for messages and the log. */
  name: string;
  /** Credits per day (the user's time zone), counted as a spending limit is. */
  dailyLimit: number;
}

const TOKEN_PREFIX = 'token:';
const KIND_PREFIX = 'kind:';

export function tokenBudgetKey(tokenId: string): string {
  return `${TOKEN_PREFIX}${tokenId}`;
}

export function kindBudgetKey(kind: UsageKind): string {
  return `${KIND_PREFIX}${kind}`;
}

/**
 * Every key an entry's spend counts under besides its environment: its kind's (every environment's
 * requests of that kind) and its endpoint token's, if any.
 */
export function budgetKeysOf(entry: UsageEntry): string[] {
  return entry.token ? [kindBudgetKey(entry.kind), tokenBudgetKey(entry.token.id)] : [kindBudgetKey(entry.kind)];
}

/** The endpoint token's own daily limit, when the caller's token has one. */
export function tokenBudget(caller: EndpointCaller | undefined): SpendBudget | undefined {
  return caller?.dailyLimit === undefined ? undefined : { key: tokenBudgetKey(caller.token.id), name: caller.token.name, dailyLimit: caller.dailyLimit };
}

export const SUGGESTIONS_BUDGET_NAME = 'suggestions';

/**
 * `inference.suggestions.dailyBudgetCredits` as a budget: every environment's suggestion requests
 * today (the user's one allowance for ghost text, wherever it is spent, as a token's limit is the
 * tool's wherever it sends). Null or unset: no budget of its own. Anything else that is not a number
 * ≥ 0 is a budget of 0: a money setting fails closed (the settings check tells the user why).
 */
export function suggestionsBudget(dailyBudgetCredits: unknown): SpendBudget | undefined {
  if (dailyBudgetCredits === null || dailyBudgetCredits === undefined) return undefined;
  const valid = typeof dailyBudgetCredits === 'number' && Number.isFinite(dailyBudgetCredits) && dailyBudgetCredits >= 0;
  return { key: kindBudgetKey('suggestion'), name: SUGGESTIONS_BUDGET_NAME, dailyLimit: valid ? dailyBudgetCredits : 0 };
}

export function isTokenBudget(budget: SpendBudget): boolean {
  return budget.key.startsWith(TOKEN_PREFIX);
}

/** What refused a request, where the user acted: the budget named as the user knows it. */
export function budgetRefusal(budget: SpendBudget, spend: PeriodSpend): string {
  const resetsAt = LIMIT_PERIODS[spend.period].resetText(spend.resetsAt);
  if (isTokenBudget(budget)) return limitReachedMessage(spend, l10n.t('endpoint token {0}', budget.name), resetsAt);
  return l10n.t('The daily suggestions budget is reached: {0} of {1} credits spent on inline suggestions today. Nothing was sent; suggestions are off until {2}.', formatCredits(spend.counted, SPEND_DIGITS), formatCredits(spend.limit, SPEND_DIGITS), resetsAt);
}

/** How the log says which budget a request was checked within (English). */
export function budgetLogName(budget: SpendBudget): string {
  return isTokenBudget(budget) ? `through endpoint token "${budget.name}" (its own limit)` : `within the ${budget.name} budget`;
}
