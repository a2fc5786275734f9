import type { EndpointCaller } from '../../core/localEndpoint/namedTokens';
import type { RequestSummary } from '../../core/localEndpoint/server';
import { spendingLimitRefusal } from '../../core/localEndpoint/spendingLimit';
import { answerSpend, type BalanceReading } from '../../core/usage/answerSpend';
import { recordBilledCall } from '../../core/usage/billedCall';
import type { UsageRecord } from '../../core/usage/ledger';
import { readSettledBalance } from '../account/settledBalance';
import type { Services } from '../shared/services';
import { SpendingLimitError } from '../../core/usage/spendingGuard';

const WHO = 'Local endpoint';

/**
 * One billed request the local endpoint forwards, from before it is sent until its spend is in the
 * usage ledger, attributed to the endpoint token it came through. The spending guard checks the
 * environment's limits and the token's own (a refusal becomes the endpoint's 403 in the client's
 * protocol). The spend is measured as every path measures it: the balance before, and a reading after
 * the request was billed: the answer's own header, or for a stream (its header leaves before the
 * service bills it) one reading of the settled balance, which calls opened meanwhile wait for.
 */
export async function openEndpointBilling(services: Services, caller: EndpointCaller): Promise<{ close(answered: RequestSummary): void }> {
  const env = services.environments.active().name;
  const window = await services.billing.open(env, caller).catch((error: unknown) => {
    if (error instanceof SpendingLimitError) throw spendingLimitRefusal(error.spend, error.environment, error.token);
    throw error;
  });
  const balanceBefore = services.account.get(env).balanceCredits;
  const openedAt = Date.now();

  const record = (answered: RequestSummary, reading: BalanceReading | undefined, answeredAt: number) => {
    const entry: Omit<UsageRecord, 'credits'> = { requestId: answered.requestId ?? '', model: answered.modelId ?? '', environment: env, kind: 'chat', token: caller.token };
    const credits = balanceBefore === undefined ? undefined : answerSpend(balanceBefore, reading, answeredAt);
    recordBilledCall(services.usage, WHO, entry, window.overlapped, credits);
  };

  return {
    close: (answered) => {
      // Refused by the service (or never sent): nothing was billed.
      if (answered.requestId === undefined || answered.status >= 400) return window.close();
      if (!answered.stream) {
        const { balanceCredits, balanceAt } = services.account.get(env);
        record(answered, balanceCredits !== undefined && balanceAt !== undefined ? { credits: balanceCredits, at: balanceAt } : undefined, openedAt);
        return window.close();
      }
      const answeredAt = Date.now();
      window.settling();
      void readSettledBalance(services, env, WHO, true)
        .then((reading) => record(answered, reading, answeredAt))
        .catch((error: unknown) => services.log.warn(`${WHO}: spend of request ${answered.requestId ?? ''} not recorded: ${error instanceof Error ? error.message : String(error)}`))
        .finally(() => window.close());
    },
  };
}
