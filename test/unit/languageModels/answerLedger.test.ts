/** What answers through VS Code's language models cost, on a real spending guard: measured, unmeasured, and limits that hold. */
import assert from 'node:assert/strict';
import { AnswerLedger } from '../../../src/core/languageModels/answerLedger';
import { SpendingLimitError } from '../../../src/core/usage/spendingGuard';
import { guardedMeter, type GuardedMeter } from '../fakes/guardedMeter';

describe('language models: each answer\'s spend through the meter and the spending guard', () => {
  let guarded: GuardedMeter;
  let warnings: string[];
  let ledger: AnswerLedger;

  beforeEach(() => {
    guarded = guardedMeter();
    warnings = [];
    ledger = new AnswerLedger(guarded.meter, (message) => warnings.push(message));
  });
  afterEach(() => guarded.dispose());

  it('measures an answer by the settled reading after it, and records nothing for one the service never took', async () => {
    const taken = await ledger.start('production');
    Object.assign(taken, { requestId: 'req-1', model: 'm' });
    guarded.state.settled = { credits: 9.5, at: Date.now() + 1000 };
    ledger.end(taken);
    ledger.end(await ledger.start('production'));
    await ledger.settled();
    assert.deepEqual(guarded.entries.map((e) => [e.requestId, e.credits]), [['req-1', 0.5]]);
    assert.deepEqual(warnings, []);
  });

  it('counts an answer with no balance known before it as the allowance: with a limit below it, the next answer is refused before sending', async () => {
    guarded.state.limits = { production: { daily: 0.5 } };
    guarded.state.balance = undefined;
    guarded.state.settled = { credits: 9, at: Date.now() + 1000 };
    const first = await ledger.start('production');
    first.requestId = 'req-1';
    ledger.end(first);
    await ledger.settled();
    assert.deepEqual(guarded.entries.map((e) => e.credits), [null], 'billed, not measured (no balance before it)');
    await guarded.released();
    const refusal = await ledger.start('production').then(() => undefined, (error: unknown) => error);
    assert.ok(refusal instanceof SpendingLimitError, String(refusal));
    assert.equal(refusal.spend.counted, 1);
  });
});
