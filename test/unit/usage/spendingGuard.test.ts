import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BillingWindows } from '../../../src/core/usage/billingWindows';
import type { UsageEntry, UsageKind } from '../../../src/core/usage/ledger';
import { sumsOf } from '../../../src/core/usage/periodSums';
import { ReservationStore } from '../../../src/core/usage/reservations';
import { SpendingGuard, SpendingLimitError, type LimitSettings, type SpendLedger } from '../../../src/core/usage/spendingGuard';
import { suggestionsBudget, tokenBudget } from '../../../src/core/usage/spendBudget';
import { SpendConsent } from '../../../src/core/usage/spendConsent';
import { currentPeriods } from '../../../src/core/usage/spendingLimits';

const NOW = 1_800_000_000_000;
const DAY = { start: NOW - 3_600_000, end: NOW + 3_600_000 };
const MONTH = { start: NOW - 86_400_000, end: NOW + 86_400_000 };

/** The shared ledger as every window reads it: entries added as requests are recorded. */
function fakeLedger(): SpendLedger & { entries: UsageEntry[]; spend(environment: string, credits: number | null, token?: { id: string; name: string }, kind?: UsageKind): void; pending: Promise<void> } {
  const ledger = {
    entries: [] as UsageEntry[],
    pending: Promise.resolve(),
    clock: () => NOW,
    periodSums: async () => sumsOf(ledger.entries, { ...currentPeriods(NOW), day: DAY, month: MONTH }),
    written: () => ledger.pending,
    spend(environment: string, credits: number | null, token?: { id: string; name: string }, kind: UsageKind = 'chat') {
      ledger.entries.push({ v: 1, requestId: `r${ledger.entries.length}`, model: 'm', environment, kind, credits, at: NOW, ...(token && { token }) } as UsageEntry);
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
  /** Every guard of the test: a window closed at its end releases its reservation a moment later, in `dir`. */
  let guards: SpendingGuard[];
  const newGuard = (...args: ConstructorParameters<typeof SpendingGuard>): SpendingGuard => {
    const guard = new SpendingGuard(...args);
    guards.push(guard);
    return guard;
  };
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spending-guard-'));
    guards = [];
  });
  afterEach(async () => {
    // Removing the folder while a release writes into it failed on a busy machine (ENOTEMPTY).
    await Promise.all(guards.map((guard) => guard.settled()));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const refusal = async (opening: Promise<unknown>): Promise<SpendingLimitError> => {
    const error = await opening.then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof SpendingLimitError, `refused: ${String(error)}`);
    return error;
  };

  it('opens a window without any check where no limit is set', async () => {
    const guard = newGuard(new BillingWindows(), fakeLedger(), fakeLog(), settings({}), dir);
    const window = await guard.open('production');
    assert.equal(window.overlapped, false);
    window.close();
    assert.equal(fs.existsSync(path.join(dir, 'usage')), false, 'no reservation was taken');
  });

  it('settles once the reservations of closed windows are released in the file, not before', async () => {
    const guard = newGuard(new BillingWindows(), fakeLedger(), fakeLog(), settings({ production: { daily: 1 } }), dir);
    const windows = [await guard.open('production'), await guard.open('production')];
    const file = path.join(dir, 'usage', 'reservations.json');
    const held = () => (JSON.parse(fs.readFileSync(file, 'utf8')) as unknown[]).length;
    assert.equal(held(), 2);
    for (const window of windows) window.close();
    assert.equal(held(), 2, 'a closed window lets its reservation go a moment later');
    await guard.settled();
    assert.equal(held(), 0);
    assert.equal(fs.existsSync(path.join(dir, 'usage', 'reservations.lock')), false, 'and the lock with it');
  });

  it('refuses before sending once the day\'s spend reaches the limit, naming it, and says so in the log', async () => {
    const ledger = fakeLedger();
    const log = fakeLog();
    const guard = newGuard(new BillingWindows(), ledger, log, settings({ production: { daily: 1 } }), dir);
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
    const guard = newGuard(new BillingWindows(), ledger, fakeLog(), settings({ production: { daily: 1 } }, 0.5), dir);
    ledger.spend('production', null);
    (await guard.open('production')).close();
    ledger.spend('production', null);
    await refusal(guard.open('production'));
  });

  it('lets one request past the limit when the user chose Send Anyway, and only one', async () => {
    const ledger = fakeLedger();
    const log = fakeLog();
    const guard = newGuard(new BillingWindows(), ledger, log, settings({ production: { daily: 1 } }), dir);
    ledger.spend('production', 2);
    await refusal(guard.open('production'));
    guard.allowOnce('production');
    (await guard.open('production')).close();
    assert.ok(log.lines.some((l) => l.startsWith('info Spending limit: one request of production sent past the limit')));
    await refusal(guard.open('production'));
  });

  it('lets exactly the consented requests past the limit, and only those that carry the consent', async () => {
    const ledger = fakeLedger();
    const log = fakeLog();
    const guard = newGuard(new BillingWindows(), ledger, log, settings({ production: { daily: 1 } }), dir);
    ledger.spend('production', 2);
    const consent = new SpendConsent('production', 3);
    // Another path's request meanwhile (a suggestion, a language model answer) is not let through on it.
    await refusal(guard.open('production'));
    assert.equal(consent.left, 3);
    await refusal(guard.open('production', [], new SpendConsent('preview', 1)));
    for (let i = 0; i < 3; i++) (await guard.open('production', [], consent)).close();
    assert.equal(consent.left, 0);
    await refusal(guard.open('production', [], consent));
    assert.equal(log.lines.filter((l) => l.includes('consent given once for a comparison')).length, 3);
  });

  it('holds the allowance for a request in flight, so that a second window near the limit cannot pass too, until the spend is in the ledger', async () => {
    const ledger = fakeLedger();
    const limits = settings({ production: { daily: 1 } }, 0.5);
    const first = newGuard(new BillingWindows(), ledger, fakeLog(), limits, dir);
    const second = newGuard(new BillingWindows(), ledger, fakeLog(), limits, dir);
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
    await first.settled();
    assert.equal(await reservations.reserved('production'), 0, 'the reservation goes once the ledger has the spend');
    (await second.open('production')).close();
  });

  it('refuses past an endpoint token\'s own daily limit, which Send Anyway does not lift, naming the token', async () => {
    const ledger = fakeLedger();
    const guard = newGuard(new BillingWindows(), ledger, fakeLog(), settings({}), dir);
    const token = { id: 't1', name: 'ci-bot' };
    ledger.spend('production', 0.3, token);
    const budget = tokenBudget({ token: { id: token.id, name: token.name }, dailyLimit: 0.25 });
    assert.ok(budget);
    guard.allowOnce('production');
    const error = await refusal(guard.open('production', [budget]));
    assert.equal(error.token, 'ci-bot');
    assert.match(error.message, /endpoint token ci-bot/);
    (await guard.open('production')).close();
  });

  it('refuses a suggestion past the suggestions\' own daily budget, every environment\'s suggestions and those in flight counted, naming the budget', async () => {
    const ledger = fakeLedger();
    const log = fakeLog();
    const limits = settings({ production: { daily: 100 } }, 0.25);
    const first = newGuard(new BillingWindows(), ledger, log, limits, dir);
    const second = newGuard(new BillingWindows(), ledger, fakeLog(), limits, dir);
    const budget = suggestionsBudget(1);
    assert.ok(budget);
    ledger.spend('production', 0.55, undefined, 'suggestion');
    ledger.spend('preview', null, undefined, 'suggestion'); // unmeasured: the allowance, 0.25
    ledger.spend('production', 5); // a chat answer: not the suggestions'
    // 0.8 counted: one more passes, and holds 0.25 until its spend is in the ledger.
    const inFlight = await first.open('preview', [budget]);
    second.allowOnce('production');
    const error = await refusal(second.open('production', [budget]));
    assert.equal(error.budget?.name, 'suggestions');
    assert.equal(error.token, undefined);
    assert.equal(error.spend.counted, 1.05);
    assert.match(error.message, /daily suggestions budget is reached/);
    // Send Anyway is for the environment's limits: it was not used up by the budget's refusal.
    (await second.open('production')).close();
    // Without the budget, a suggestion is held to the environment's limits only.
    (await second.open('production')).close();
    ledger.spend('preview', 0.1, undefined, 'suggestion');
    inFlight.close();
    const reservations = new ReservationStore(path.join(dir, 'usage'), { clock: () => NOW });
    await first.settled();
    assert.equal(await reservations.reserved('preview'), 0, 'the reservation goes');
    // 0.55 + 0.25 + 0.1 = 0.9, nothing in flight: below 1.
    (await second.open('production', [budget])).close();
    assert.deepEqual(await first.kindSpendToday('suggestion'), { measured: 0.65, unmeasured: 1, counted: 0.9 });
    assert.equal((await first.budgetSpend(budget)).counted, 0.9);
  });

  it('counts unmeasured suggestions at the allowance against the budget, with nothing measured at all', async () => {
    const ledger = fakeLedger();
    const guard = newGuard(new BillingWindows(), ledger, fakeLog(), settings({}, 0.5), dir);
    const budget = suggestionsBudget(1);
    assert.ok(budget);
    ledger.spend('production', null, undefined, 'suggestion');
    (await guard.open('production', [budget])).close();
    ledger.spend('production', null, undefined, 'suggestion');
    await refusal(guard.open('production', [budget]));
    assert.equal(suggestionsBudget(null), undefined, 'null: no budget of its own');
    assert.equal(suggestionsBudget(undefined), undefined);
    assert.equal(suggestionsBudget(-1)?.dailyLimit, 0, 'a bad value fails closed');
    assert.equal(suggestionsBudget('5')?.dailyLimit, 0);
    assert.equal(suggestionsBudget(0)?.dailyLimit, 0);
  });
});
