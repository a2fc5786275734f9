import { formatCredits, SPEND_DIGITS } from '../credits';
import { LIMIT_PERIODS, type PeriodSpend } from '../usage/spendingLimits';
import { EndpointError } from './respond';

/**
 * The error type and code with which the local endpoint refuses a request past the user's spending
 * limit: HTTP 403, as neither 402 (the wallet is empty: the client would tell its user to add credits)
 * nor 429 (the client would retry) is true. Documented in the README.
 */
export const SPENDING_LIMIT_REACHED = 'spending_limit_reached';

/**
 * The refusal for another program: protocol text, in English; the reset time in ISO 8601. `token`: the
 * endpoint token whose own daily limit was reached (other tokens, and the per-run one, still work).
 */
export function spendingLimitRefusal(spend: PeriodSpend, environment: string, token?: string): EndpointError {
  const whose = token === undefined ? `"${environment}"` : `the endpoint token "${token}"`;
  const message = `The ${LIMIT_PERIODS[spend.period].adjective} spending limit of ${whose} set in VS Code is reached: ${formatCredits(spend.counted, SPEND_DIGITS)} of ${formatCredits(spend.limit, SPEND_DIGITS)} credits spent. Nothing was sent. It resets at ${new Date(spend.resetsAt).toISOString()}.`;
  return new EndpointError(403, SPENDING_LIMIT_REACHED, message, {}, SPENDING_LIMIT_REACHED);
}
