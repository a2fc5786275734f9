import type { EndpointCaller } from '../../core/localEndpoint/namedTokens';
import { endpointMeter, openEndpointBilling as openBilling } from '../../core/localEndpoint/endpointBilling';
import type { RequestSummary } from '../../core/localEndpoint/server';
import { servicesMeter, type MeterServices } from '../shared/billingMeter';
import type { Services } from '../shared/services';

export type EndpointBillingServices = MeterServices & Pick<Services, 'environments'>;

/** The local endpoint's billing (core/localEndpoint/endpointBilling.ts) on the extension's services, for the active environment. */
export function openEndpointBilling(services: EndpointBillingServices, caller: EndpointCaller): Promise<{ close(answered: RequestSummary): void }> {
  return openBilling(endpointMeter(servicesMeter(services, 'Local endpoint', true), services), services.environments.active().name, caller);
}
