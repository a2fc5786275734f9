import type { EndpointCaller } from '../../core/localEndpoint/namedTokens';
import type { RequestSummary } from '../../core/localEndpoint/server';
import { spendingLimitRefusal } from '../../core/localEndpoint/spendingLimit';
import { BilledCall } from '../../core/usage/billedCall';
import { SpendingLimitError } from '../../core/usage/spendingGuard';
import { servicesMeter } from '../shared/billingMeter';
import type { Services } from '../shared/services';

const WHO = 'Local endpoint';

/**
 * One billed request the local endpoint forwards, from before it is sent until its spend is in the
 * usage ledger, attributed to the endpoint token it came through. The spending guard checks the
 * environment's limits and the token's own (a refusal becomes the endpoint's 403 in the client's
 * protocol). Measured as every path is (BilledCall): a whole answer by the balance its response
 * reported, a stream (its header leaves before the service bills it) by one reading of the settled balance.
 */
export async function openEndpointBilling(services: Services, caller: EndpointCaller): Promise<{ close(answered: RequestSummary): void }> {
  const env = services.environments.active().name;
  const call = await BilledCall.open(servicesMeter(services, WHO, true), WHO, env, { caller }).catch((error: unknown) => {
    if (error instanceof SpendingLimitError) throw spendingLimitRefusal(error.spend, error.environment, error.token);
    throw error;
  });
  return {
    close: (answered) => {
      // Refused by the service (or never sent): nothing was billed.
      if (answered.requestId === undefined || answered.status >= 400) return call.notBilled();
      const entry = { requestId: answered.requestId, model: answered.modelId ?? '', environment: env, kind: 'chat' as const, token: caller.token };
      if (!answered.stream) {
        const { balanceCredits, balanceAt } = services.account.get(env);
        call.billed(entry, balanceCredits !== undefined && balanceAt !== undefined ? { credits: balanceCredits, at: balanceAt } : undefined);
        return;
      }
      void call.billedStream(entry).catch((error: unknown) => services.log.warn(`${WHO}: spend of request ${answered.requestId ?? ''} not recorded: ${error instanceof Error ? error.message : String(error)}`));
    },
  };
}
