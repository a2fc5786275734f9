import assert from 'node:assert/strict';
import { ChatEngine } from '../../../src/core/chat/chatEngine';
import { createConversation } from '../../../src/core/chat/conversation';
import { ComparisonDeclinedError, comparisonEstimate, limitCrossed, pastLimitQuestionText } from '../../../src/core/chat/comparison/comparisonSpend';
import type { SpendEstimate } from '../../../src/core/usage/estimate';
import { toUsageEntry } from '../../../src/core/usage/ledger';
import { SpendingLimitError } from '../../../src/core/usage/spendingGuard';
import type { PeriodSpend } from '../../../src/core/usage/spendingLimits';
import { FakeComparisonBackend, FakeSaver, FakeView } from '../fakes/chatEngine';
import { guardedMeter } from '../fakes/guardedMeter';

/** Money first: a comparison's estimates, and the one question past a spending limit for all its requests. */

const day = (counted: number, limit: number): PeriodSpend => ({ period: 'day', limit, measured: counted, unmeasured: 0, reserved: 0, counted, warningAt: limit * 0.8, resetsAt: 0 });

function setup() {
  const backend = new FakeComparisonBackend();
  const engine = new ChatEngine(createConversation(0), new FakeView(), new FakeSaver(), backend, { appendPacing: { flushChars: 1 } });
  return { backend, engine };
}

describe('comparisons: money first (core/chat/comparison/comparisonSpend)', () => {
  it('estimates each model from the ledger, n/a without enough history, and totals those it can', () => {
    const estimates: Record<string, SpendEstimate> = { a: { creditsPer1kChars: 0.5, answers: 9, answerChars: 995 }, c: { creditsPer1kChars: 2, answers: 5, answerChars: 1995 } };
    const { backend, engine } = setup();
    backend.estimate = (model) => estimates[model];
    const estimate = engine.comparisonEstimate(['a', 'b', 'c'], 'Hello');
    assert.deepEqual(estimate.models.map((row) => [row.model, row.credits]), [['a', 0.5], ['b', undefined], ['c', 4]]);
    assert.equal(estimate.creditsPer1kChars, 2.5);
    assert.equal(estimate.credits, 4.5);
    assert.equal(estimate.complete, false);
    assert.deepEqual(comparisonEstimate(['b'], () => undefined, 10), { models: [{ model: 'b' }], complete: false });
  });

  it('counts each request at least the unmeasured allowance, its estimate when more, against each period\'s limit', () => {
    assert.equal(limitCrossed([day(5, 10)], [1, 1, 1]), undefined);
    assert.deepEqual(limitCrossed([day(5, 10)], [1, 2.5, 1.5]), { spend: day(5, 10), credits: 5 });
  });

  it('asks nothing when the requests stay under the limit, once when together they would reach it', async () => {
    const { backend, engine } = setup();
    backend.limitSpends = [day(5, 10)];
    backend.allowance = 1;
    await engine.compare('Q', ['a', 'b', 'c']);
    await engine.whenIdle();
    assert.equal(backend.questions.length, 0);
    backend.estimate = () => ({ creditsPer1kChars: 1, answers: 5, answerChars: 1998 });
    await engine.compare('Q', ['a', 'b', 'c']);
    await engine.whenIdle();
    assert.equal(backend.questions.length, 1);
    assert.deepEqual({ ...backend.questions[0], spend: backend.questions[0].spend.counted }, { environment: 'production', requests: 3, spend: 5, credits: 6 });
  });

  it('asks in words that name the limit, the requests and what they count together, with one button for all of them', () => {
    const text = pastLimitQuestionText({ environment: 'production', requests: 3, spend: day(9.5, 10), credits: 4.25 });
    assert.match(text.message, /"production"/);
    assert.match(text.detail, /9\.5 of 10 credits/);
    assert.match(text.detail, /3 requests would count 4\.25 credits together/);
    assert.equal(text.send, 'Send All 3');
  });

  it('sends nothing when the user declines: the question stays unsent', async () => {
    const { backend, engine } = setup();
    backend.limitSpends = [day(9.5, 10)];
    backend.consents = false;
    await assert.rejects(engine.compare('Q', ['a', 'b']), ComparisonDeclinedError);
    assert.equal(backend.requests.length, 0);
    assert.deepEqual(engine.conversation.messages, []);
  });

  it('on consent lets exactly the comparison\'s requests past the real guard, each metered on its own, and no other request', async () => {
    const meter = guardedMeter(1);
    try {
      meter.state.limits = { production: { daily: 1 } };
      meter.entries.push(toUsageEntry({ requestId: 'earlier', model: 'm', environment: 'production', kind: 'chat', credits: 2 }, Date.now()));
      const { backend, engine } = setup();
      backend.openBillingWindow = (env, budgets = [], consent) => meter.meter.openBillingWindow(env, budgets, consent);
      backend.limitSpend = async (env) => {
        const limit = meter.guard.limitOf(env);
        return limit ? meter.guard.spend(env, limit) : [];
      };
      await engine.compare('Q', ['a', 'b', 'c']);
      // Another path's request while the comparison runs is not let through on its consent.
      await assert.rejects(meter.meter.openBillingWindow('production', []), SpendingLimitError);
      await engine.whenIdle();
      assert.equal(backend.questions.length, 1, 'asked once for the three');
      const columns = engine.conversation.messages.at(-1)?.comparison?.columns ?? [];
      assert.deepEqual(columns.map((c) => c.answer.status), ['done', 'done', 'done']);
      assert.equal(backend.recorded.length, 3, 'each request in the ledger on its own');
      // Used up: the next comparison asks again.
      await engine.compare('Again', ['a', 'b']);
      await engine.whenIdle();
      assert.equal(backend.questions.length, 2);
      await meter.released();
    } finally {
      await meter.dispose();
    }
  });
});
