import type { EndpointCaller } from '../../core/localEndpoint/namedTokens';
import { openEndpointBilling as openBilling } from '../../core/localEndpoint/endpointBilling';
import type { RequestSummary } from '../../core/localEndpoint/server';
import { servicesMeter, type MeterServices } from '../shared/billingMeter';
import type { Services } from '../shared/services';

export type EndpointBillingServices = MeterServices & Pick<Services, 'account' | 'log' | 'environments'>;

/** The local endpoint's billing (core/localEndpoint/endpointBilling.ts) on the extension's services, for the active environment. */
export function openEndpointBilling(services: EndpointBillingServices, caller: EndpointCaller): Promise<{ close(answered: RequestSummary): void }> {
  const meter = {
    ...servicesMeter(services, 'Local endpoint', true),
    reading: (env: string) => {
      const { balanceCredits, balanceAt } = services.account.get(env);
      return balanceCredits !== undefined && balanceAt !== undefined ? { credits: balanceCredits, at: balanceAt } : undefined;
    },
    warn: (message: string) => services.log.warn(message),
  };
  return openBilling(meter, services.environments.active().name, caller);
}
