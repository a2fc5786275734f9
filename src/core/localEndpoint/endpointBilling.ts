import { balanceReading, type MeterServices } from '../usage/accountMeter';
import type { BalanceReading } from '../usage/answerSpend';
import { BilledCall, type BillingMeter } from '../usage/billedCall';
import { SpendingLimitError } from '../usage/spendingGuard';
import type { EndpointCaller } from './namedTokens';
import type { RequestSummary } from './protocol';
import { spendingLimitRefusal } from './spendingLimit';

const WHO = 'Local endpoint';

/** What the endpoint's billing needs beyond the meter: the balance the last response reported, and a log. */
export interface EndpointMeter extends BillingMeter {
  /** The balance last reported for the environment, and when it arrived (a whole answer's own response carries it). */
  reading(env: string): BalanceReading | undefined;
  warn(message: string): void;
}

/** The endpoint's meter: `meter`, with the balance the account last took from a response, and the log. */
export function endpointMeter(meter: BillingMeter, services: Pick<MeterServices, 'account' | 'log'>): EndpointMeter {
  return { ...meter, reading: (env) => balanceReading(services.account, env), warn: (message) => services.log.warn(message) };
}

/**
 * One billed request the local endpoint forwards, from before it is sent until its spend is in the
 * usage ledger, attributed to the endpoint token it came through. The spending guard checks the
 * environment's limits and the token's own (a refusal becomes the endpoint's 403 in the client's
 * protocol). Measured as every path is (BilledCall): a whole answer by the balance its response
 * reported, a stream (its header leaves before the service bills it) by one reading of the settled balance.
 */
export async function openEndpointBilling(meter: EndpointMeter, env: string, caller: EndpointCaller): Promise<{ close(answered: RequestSummary): void }> {
  const call = await BilledCall.open(meter, WHO, env, { caller }).catch((error: unknown) => {
    if (error instanceof SpendingLimitError) throw spendingLimitRefusal(error.spend, error.environment, error.token);
    throw error;
  });
  return {
    close: (answered) => {
      // Refused by the service (or never sent): nothing was billed.
      if (answered.requestId === undefined || answered.status >= 400) return call.notBilled();
      const entry = { requestId: answered.requestId, model: answered.modelId ?? '', environment: env, kind: 'chat' as const, token: caller.token };
      if (!answered.stream) {
        call.billed(entry, meter.reading(env));
        return;
      }
      void call.billedStream(entry).catch((error: unknown) => meter.warn(`${WHO}: spend of request ${answered.requestId ?? ''} not recorded: ${error instanceof Error ? error.message : String(error)}`));
    },
  };
}
