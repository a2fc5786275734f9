import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BillingWindows } from '../../../src/core/usage/billingWindows';
import type { UsageEntry } from '../../../src/core/usage/ledger';
import { sumsOf } from '../../../src/core/usage/periodSums';
import { ReservationStore } from '../../../src/core/usage/reservations';
import { SpendingGuard, SpendingLimitError, type LimitSettings, type SpendLedger } from '../../../src/core/usage/spendingGuard';
import { currentPeriods } from '../../../src/core/usage/spendingLimits';
import { waitFor } from '../../harness/wait';

const NOW = 1_800_000_000_000;
const DAY = { start: NOW - 3_600_000, end: NOW + 3_600_000 };
const MONTH = { start: NOW - 86_400_000, end: NOW + 86_400_000 };

/** The shared ledger as every window reads it: entries added as requests are recorded. */
function fakeLedger(): SpendLedger & { entries: UsageEntry[]; spend(environment: string, credits: number | null, token?: { id: string; name: string }): void; pending: Promise<void> } {
  const ledger = {
    entries: [] as UsageEntry[],
    pending: Promise.resolve(),
    clock: () => NOW,
    periodSums: async () => sumsOf(ledger.entries, { ...currentPeriods(NOW), day: DAY, month: MONTH }),
    written: () => ledger.pending,
    spend(environment: string, credits: number | null, token?: { id: string; name: string }) {
      ledger.entries.push({ v: 1, requestId: `r${ledger.entries.length}`, model: 'm', environment, kind: 'chat', credits, at: NOW, ...(token && { token }) } as UsageEntry);
    },
  };
  return ledger;
}

function fakeLog(): { info(m: string): void; warn(m: string): void; lines: string[] } {
  const lines: string[] = [];
  return { lines, info: (m) => lines.push(`info ${m}`), warn: (m) => lines.push(`warn ${m}`) };
}

const settings = (spendingLimits: unknown, allowance = 0.5): LimitSettings => ({ spendingLimits: () => spendingLimits, unmeasuredRequestCredits: () => allowance });

describe('spending guard: where every billed request of every path meets the limits (core/usage/spendingGuard)', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spending-guard-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const refusal = async (opening: Promise<unknown>): Promise<SpendingLimitError> => {
    const error = await opening.then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof SpendingLimitError, `refused: ${String(error)}`);
    return error;
  };

  it('opens a window without any check where no limit is set', async () => {
    const guard = new SpendingGuard(new BillingWindows(), fakeLedger(), fakeLog(), settings({}), dir);
    const window = await guard.open('production');
    assert.equal(window.overlapped, false);
    window.close();
    assert.equal(fs.existsSync(path.join(dir, 'usage')), false, 'no reservation was taken');
  });

  it('refuses before sending once the day\'s spend reaches the limit, naming it, and says so in the log', async () => {
    const ledger = fakeLedger();
    const log = fakeLog();
    const guard = new SpendingGuard(new BillingWindows(), ledger, log, settings({ production: { daily: 1 } }), dir);
    ledger.spend('production', 0.4);
    (await guard.open('production')).close();
    ledger.spend('production', 0.7);
    const error = await refusal(guard.open('production'));
    assert.equal(error.kind, 'spendingLimit');
    assert.equal(error.environment, 'production');
    assert.equal(error.spend.period, 'day');
    assert.match(error.message, /daily spending limit of "production" is reached.*Nothing was sent/);
    assert.equal(log.lines.filter((l) => l.startsWith('warn Spending limit: a request of production was refused')).length, 1);
    // Another environment's limit is its own.
    (await guard.open('preview')).close();
  });

  it('counts a billed request whose spend was not measured as the stated allowance', async () => {
    const ledger = fakeLedger();
    const guard = new SpendingGuard(new BillingWindows(), ledger, fakeLog(), settings({ production: { daily: 1 } }, 0.5), dir);
    ledger.spend('production', null);
    (await guard.open('production')).close();
    ledger.spend('production', null);
    await refusal(guard.open('production'));
  });

  it('lets one request past the limit when the user chose Send Anyway, and only one', async () => {
    const ledger = fakeLedger();
    const log = fakeLog();
    const guard = new SpendingGuard(new BillingWindows(), ledger, log, settings({ production: { daily: 1 } }), dir);
    ledger.spend('production', 2);
    await refusal(guard.open('production'));
    guard.allowOnce('production');
    (await guard.open('production')).close();
    assert.ok(log.lines.some((l) => l.startsWith('info Spending limit: one request of production sent past the limit')));
    await refusal(guard.open('production'));
  });

  it('holds the allowance for a request in flight, so that a second window near the limit cannot pass too, until the spend is in the ledger', async () => {
    const ledger = fakeLedger();
    const limits = settings({ production: { daily: 1 } }, 0.5);
    const first = new SpendingGuard(new BillingWindows(), ledger, fakeLog(), limits, dir);
    const second = new SpendingGuard(new BillingWindows(), ledger, fakeLog(), limits, dir);
    ledger.spend('production', 0.6);
    const inFlight = await first.open('production');
    await refusal(second.open('production'));
    // The first request ends: its spend is recorded, and the reservation goes once the ledger has it.
    let landed: () => void = () => undefined;
    ledger.pending = new Promise((resolve) => (landed = resolve));
    ledger.spend('production', 0.1);
    inFlight.close();
    await new Promise((resolve) => setImmediate(resolve));
    await refusal(second.open('production'));
    landed();
    const reservations = new ReservationStore(path.join(dir, 'usage'), { clock: () => NOW });
    await waitFor('the reservation to go once the ledger has the spend', async () => (await reservations.reserved('production')) === 0 || undefined, { timeoutMs: 10_000, intervalMs: 10 });
    (await second.open('production')).close();
  });

  it('refuses past an endpoint token\'s own daily limit, which Send Anyway does not lift, naming the token', async () => {
    const ledger = fakeLedger();
    const guard = new SpendingGuard(new BillingWindows(), ledger, fakeLog(), settings({}), dir);
    const token = { id: 't1', name: 'ci-bot' };
    ledger.spend('production', 0.3, token);
    const caller = { token: { id: token.id, name: token.name }, dailyLimit: 0.25 } as Parameters<SpendingGuard['open']>[1];
    guard.allowOnce('production');
    const error = await refusal(guard.open('production', caller));
    assert.equal(error.token, 'ci-bot');
    assert.match(error.message, /endpoint token ci-bot/);
    (await guard.open('production')).close();
  });
});
