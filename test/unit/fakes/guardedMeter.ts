import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { BalanceReading } from '../../../src/core/usage/answerSpend';
import type { BillingMeter } from '../../../src/core/usage/billedCall';
import { BillingWindows } from '../../../src/core/usage/billingWindows';
import { toUsageEntry, type UsageEntry, type UsageRecord } from '../../../src/core/usage/ledger';
import { sumsOf } from '../../../src/core/usage/periodSums';
import { SpendingGuard } from '../../../src/core/usage/spendingGuard';
import { currentPeriods } from '../../../src/core/usage/spendingLimits';
import { waitFor } from '../../harness/wait';

/**
 * A billing meter on a real spending guard, with the ledger in memory: what a path's billing is
 * tested on (every billed call in `entries`, limits counting the allowance for the unmeasured).
 * The test sets the balance known before a call, the settled reading after it and the limits.
 */
export interface GuardedMeter {
  meter: BillingMeter;
  entries: UsageEntry[];
  state: { balance?: number; settled?: BalanceReading; limits: unknown };
  /** The guard itself (Send Anyway, where the environment stands against its limits). */
  guard: SpendingGuard;
  /** Resolves once no request holds an allowance any more (each is released once its entry is in the ledger). */
  released(): Promise<void>;
  /** Removes its folder once the guard's releases in flight have written to it. */
  dispose(): Promise<void>;
}

/** `allowance`: what an unmeasured request counts. */
export function guardedMeter(allowance = 1): GuardedMeter {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'guarded-meter-'));
  const entries: UsageEntry[] = [];
  const state: GuardedMeter['state'] = { balance: 10, limits: {} };
  const record = (entry: UsageRecord) => void entries.push(toUsageEntry(entry, Date.now()));
  const ledger = { clock: () => Date.now(), periodSums: async () => sumsOf(entries, currentPeriods(Date.now())), written: async () => {} };
  const guard = new SpendingGuard(new BillingWindows(0), ledger, { info: () => {}, warn: () => {} }, { spendingLimits: () => state.limits, unmeasuredRequestCredits: () => allowance }, dir);
  const reservations = path.join(dir, 'usage', 'reservations.json');
  return {
    entries,
    state,
    guard,
    meter: {
      openBillingWindow: (env, budgets, consent) => guard.open(env, budgets, consent),
      balance: () => state.balance,
      readSettledBalance: async () => state.settled,
      usage: { record, recordUnmeasured: (entry) => record({ ...entry, credits: null }) },
    },
    released: () => waitFor('every reservation released', () => !fs.existsSync(reservations) || fs.readFileSync(reservations, 'utf8').trim() === '[]', { timeoutMs: 10_000, intervalMs: 5 }).then(() => undefined),
    dispose: async () => {
      await guard.settled();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
