import { accountMeter, type MeterServices } from '../../core/usage/accountMeter';
import type { BillingMeter } from '../../core/usage/billedCall';
import { readBalanceAfterAnswer } from './settledBalance';

export type { MeterServices } from '../../core/usage/accountMeter';

/** The meter of every billed call (core/usage/accountMeter.ts) with the setting read from VS Code; `quiet`: readings nobody is watching (no 429 countdown). */
export function servicesMeter(services: MeterServices, who: string, quiet = false): BillingMeter {
  return accountMeter(services, { who, quiet, readBalanceAfterAnswer });
}
