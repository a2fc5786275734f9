/** How every billed call's spend reaches the usage ledger: measured, or without a cost and a reason. */
import assert from 'node:assert/strict';
import { answerSpendShown } from '../../../src/core/chat/streamingAnswer';
import type { BalanceReading } from '../../../src/core/usage/answerSpend';
import { BilledCall, recordBilledCall, type BillingMeter } from '../../../src/core/usage/billedCall';
import type { BillingWindow } from '../../../src/core/usage/billingWindows';
import { SpendingLimitError } from '../../../src/core/usage/spendingGuard';
import { guardedMeter, type GuardedMeter } from '../fakes/guardedMeter';
import type { SpendNotMeasured, UsageRecord, UsageRecorder } from '../../../src/core/usage/ledger';

function recorder(): UsageRecorder & { entries: UsageRecord[]; unmeasured: [string, string, SpendNotMeasured][] } {
  const entries: UsageRecord[] = [];
  const unmeasured: [string, string, SpendNotMeasured][] = [];
  return {
    entries,
    unmeasured,
    record: (entry) => void entries.push(entry),
    recordUnmeasured: (entry, who, reason) => {
      unmeasured.push([entry.requestId, who, reason]);
      entries.push({ ...entry, credits: null });
    },
  };
}

const ENTRY = { requestId: 'req-1', model: 'm', environment: 'production', kind: 'chat' as const };

describe('billed call', () => {
  it('records a measured spend with its credits', () => {
    const ledger = recorder();
    assert.deepEqual(recordBilledCall(ledger, 'Chat', ENTRY, false, 0.25), { credits: 0.25 });
    assert.deepEqual(ledger.entries, [{ ...ENTRY, credits: 0.25 }]);
  });
  it('records a call that overlapped another without a cost, even with a difference to hand', () => {
    const ledger = recorder();
    assert.deepEqual(recordBilledCall(ledger, 'Image generation', { ...ENTRY, kind: 'image' }, true, 0.5), { notMeasured: 'overlapped' });
    assert.deepEqual(ledger.entries, [{ ...ENTRY, kind: 'image', credits: null }]);
    assert.deepEqual(ledger.unmeasured, [['req-1', 'Image generation', 'overlapped']]);
  });
  it('records a call without a reading before and after it: billed, so it counts against limits', () => {
    const ledger = recorder();
    assert.deepEqual(recordBilledCall(ledger, 'Language models', ENTRY, false, undefined), { notMeasured: 'noReading' });
    assert.deepEqual(ledger.entries, [{ ...ENTRY, credits: null }]);
    assert.deepEqual(ledger.unmeasured, [['req-1', 'Language models', 'noReading']]);
  });
});

/** A meter whose window and readings the test drives, recording what happened in order. */
function meter(options: { balance?: number; overlapped?: boolean; reading?: () => Promise<BalanceReading | undefined> } = {}) {
  const events: string[] = [];
  const ledger = recorder();
  const window: BillingWindow = {
    get overlapped() {
      return options.overlapped ?? false;
    },
    settling: () => void events.push('settling'),
    close: () => void events.push('close'),
  };
  const ports: BillingMeter = {
    openBillingWindow: async (env, budgets) => {
      events.push(`open ${env}${budgets.map((budget) => ` ${budget.key} ${budget.name} ${budget.dailyLimit}`).join('')}`);
      return window;
    },
    balance: () => options.balance,
    readSettledBalance: async () => {
      events.push('read');
      return (options.reading ?? (async () => undefined))();
    },
    usage: ledger,
  };
  return { ports, events, ledger };
}

describe('billed call: one meter for every path', () => {
  let clock = 1000;
  const now = () => clock;

  it('ends a call the service did not take without a ledger entry (a second end does nothing)', async () => {
    const { ports, events, ledger } = meter({ balance: 10 });
    const call = await BilledCall.open(ports, 'Chat', 'production', { now });
    call.notBilled();
    call.notBilled();
    assert.deepEqual(events, ['open production', 'close'], 'its window closed once');
    assert.deepEqual(ledger.entries, []);
  });

  it('measures a whole answer or an image by the balance its response reported, if it arrived after the call opened', async () => {
    const { ports, ledger } = meter({ balance: 10 });
    const call = await BilledCall.open(ports, 'Image generation', 'production', { now });
    assert.deepEqual(call.billed({ ...ENTRY, kind: 'image' }, { credits: 9.5, at: clock + 5 }), { credits: 0.5 });
    call.notBilled();
    assert.equal(ledger.entries.length, 1, 'a path\'s safety net after billed() changes nothing');
    const stale = await BilledCall.open(ports, 'Local endpoint', 'production', { now });
    assert.deepEqual(stale.billed(ENTRY, { credits: 9, at: clock - 1 }), { notMeasured: 'noReading' }, 'a balance from before the call');
    const none = await BilledCall.open(ports, 'Local endpoint', 'production', { now });
    assert.deepEqual(none.billed(ENTRY, undefined), { notMeasured: 'noReading' });
    assert.deepEqual(ledger.entries.map((e) => e.credits), [0.5, null, null], 'every billed call is in the ledger');
  });

  it('settles a stream before its reading, and takes no spend from a reading that failed or one from before the answer ended', async () => {
    const readings: (() => Promise<BalanceReading | undefined>)[] = [
      async () => ({ credits: 9.25, at: clock }),
      async () => { throw new Error('429'); },
      async () => ({ credits: 9, at: clock - 1 }),
    ];
    const { ports, events, ledger } = meter({ balance: 10, reading: () => readings.shift()!() });
    const first = await BilledCall.open(ports, 'Chat', 'production', { now });
    clock += 100;
    assert.deepEqual(await first.billedStream(ENTRY), { credits: 0.75 });
    assert.deepEqual(events, ['open production', 'settling', 'read', 'close'], 'calls opened meanwhile wait for the reading');
    for (const _ of [1, 2]) {
      const call = await BilledCall.open(ports, 'Language models', 'production', { now });
      clock += 100;
      assert.deepEqual(await call.billedStream(ENTRY), { notMeasured: 'noReading' });
    }
    assert.deepEqual(ledger.entries.map((e) => e.credits), [0.75, null, null]);
    assert.deepEqual(ledger.unmeasured.map(([, who, reason]) => `${who}: ${reason}`), ['Language models: noReading', 'Language models: noReading']);
  });

  it('measures nothing without a balance before, and nothing for a call that overlapped another, yet records both', async () => {
    const unknown = meter({ reading: async () => ({ credits: 9, at: clock + 1 }) });
    assert.deepEqual((await BilledCall.open(unknown.ports, 'Chat', 'production', { now })).billed(ENTRY, { credits: 9, at: clock + 1 }), { notMeasured: 'noReading' });
    const overlapped = meter({ balance: 10, overlapped: true });
    assert.deepEqual((await BilledCall.open(overlapped.ports, 'Chat', 'production', { now })).billed(ENTRY, { credits: 9.5, at: clock + 1 }), { notMeasured: 'overlapped' });
    assert.deepEqual([...unknown.ledger.entries, ...overlapped.ledger.entries].map((e) => e.credits), [null, null]);
  });

  it('passes the endpoint token\'s limit and another budget to the window (their own limits), and takes a stream\'s reading only after the readings before it', async () => {
    let release!: () => void;
    const earlier = new Promise<void>((resolve) => (release = resolve));
    const { ports, events } = meter({ balance: 10, reading: async () => ({ credits: 9.5, at: clock }) });
    const budget = { key: 'kind:suggestion', name: 'suggestions', dailyLimit: 2 };
    const call = await BilledCall.open(ports, 'Local endpoint', 'production', { now, caller: { token: { id: 't1', name: 'ci' }, dailyLimit: 3 }, budget });
    const ended = call.billedStream(ENTRY, earlier);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(events, ['open production token:t1 ci 3 kind:suggestion suggestions 2', 'settling'], 'settled at once, read once the earlier readings are in');
    release();
    assert.deepEqual(await ended, { credits: 0.5 });
    assert.deepEqual(events.slice(2), ['read', 'close']);
  });
});

describe('the spend a continued answer shows', () => {
  it('adds its requests\' spends while each was measured, and says not measured as soon as one was not', () => {
    assert.deepEqual(answerSpendShown({ credits: 0.5 }, undefined), { creditsSpent: 0.5 });
    assert.deepEqual(answerSpendShown({ credits: 0.5 }, { creditsSpent: 0.25 }), { creditsSpent: 0.75 });
    assert.deepEqual(answerSpendShown({ credits: 0.5 }, { spendNotMeasured: 'overlapped' }), { spendNotMeasured: 'overlapped' });
    assert.deepEqual(answerSpendShown({ notMeasured: 'overlapped' }, { creditsSpent: 0.25 }), { spendNotMeasured: 'overlapped' });
    assert.deepEqual(answerSpendShown({ notMeasured: 'noReading' }, undefined), { spendNotMeasured: 'noReading' });
  });
});

describe('billed call: an unmeasured call of any path counts against a spending limit', () => {
  let guarded: GuardedMeter;
  beforeEach(() => {
    guarded = guardedMeter();
    guarded.state.limits = { production: { daily: 0.5 } };
  });
  afterEach(() => guarded.dispose());

  const refusedNext = async (who: string) => {
    await guarded.released();
    const refusal = await BilledCall.open(guarded.meter, who, 'production').then(() => undefined, (error: unknown) => error);
    assert.ok(refusal instanceof SpendingLimitError, `${who}: ${String(refusal)}`);
    assert.equal(refusal.spend.counted, 1, 'the allowance of the one unmeasured call');
  };

  it('a chat answer with the balance read after it turned off (no settled reading)', async () => {
    const call = await BilledCall.open(guarded.meter, 'Chat', 'production');
    assert.deepEqual(await call.billedStream(ENTRY), { notMeasured: 'noReading' });
    await refusedNext('Chat');
  });

  it('an image whose response reported no balance', async () => {
    const call = await BilledCall.open(guarded.meter, 'Image generation', 'production');
    assert.deepEqual(call.billed({ ...ENTRY, kind: 'image' }, undefined), { notMeasured: 'noReading' });
    await refusedNext('Image generation');
  });
});
