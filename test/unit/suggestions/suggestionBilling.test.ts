import * as assert from 'node:assert/strict';
import { SuggestionBilling } from '../../../src/core/suggestions/suggestionBilling';
import { suggestionsBudget } from '../../../src/core/usage/spendBudget';
import { guardedMeter, type GuardedMeter } from '../fakes/guardedMeter';

const ENTRY = { requestId: 'r', model: 'code-a', environment: 'production', kind: 'suggestion' as const };

describe('suggestion billing: every request metered, off for the period a limit refuses (core/suggestions/suggestionBilling)', () => {
  let guarded: GuardedMeter;
  beforeEach(() => {
    guarded = guardedMeter(0.5);
  });
  afterEach(() => guarded.dispose());

  it('records each request as a suggestion, and turns every environment off once the budget is reached, until it resets or is raised', async () => {
    let budget = 1;
    let now = Date.now();
    const billing = new SuggestionBilling(guarded.meter, () => suggestionsBudget(budget), () => now);
    const call = await billing.open('production');
    assert.ok(call);
    guarded.state.settled = { credits: 9.4, at: Date.now() + 60_000 };
    assert.deepEqual(await call.billedStream(ENTRY), { credits: 0.6 });
    await guarded.released();
    // Unmeasured: it counts the allowance (0.5), which reaches the budget with the 0.6 measured.
    const unmeasured = await billing.open('preview');
    assert.ok(unmeasured);
    guarded.state.settled = undefined;
    assert.deepEqual(await unmeasured.billedStream({ ...ENTRY, environment: 'preview' }), { notMeasured: 'noReading' });
    await guarded.released();
    assert.equal(await billing.open('production'), undefined);
    const pause = billing.pausedFor('elsewhere');
    assert.ok(pause?.budget, 'the budget is every environment\'s');
    assert.match(pause.message, /suggestions budget/);
    assert.deepEqual(guarded.entries.map((e) => [e.kind, e.environment, e.credits]), [['suggestion', 'production', 0.6], ['suggestion', 'preview', null]]);
    // Raised: on again at the next request once told.
    budget = 5;
    assert.equal(await billing.open('production'), undefined, 'still off until told');
    billing.resume();
    (await billing.open('production'))?.notBilled();
    // The period ends: on again.
    budget = 1;
    assert.equal(await billing.open('production'), undefined);
    now = (billing.pausedFor('production')?.until ?? 0) + 1;
    assert.equal(billing.pausedFor('production'), undefined);
  });

  it('turns only the refused environment off when its own spending limit is reached', async () => {
    guarded.state.limits = { production: { daily: 0.4 } };
    guarded.entries.push({ v: 1, requestId: 'x', model: 'm', environment: 'production', kind: 'chat', credits: 0.5, at: Date.now() });
    const billing = new SuggestionBilling(guarded.meter, () => undefined);
    assert.equal(await billing.open('production'), undefined);
    assert.equal(billing.pausedFor('production')?.budget, false);
    const other = await billing.open('preview');
    assert.ok(other);
    other.notBilled();
  });
});
