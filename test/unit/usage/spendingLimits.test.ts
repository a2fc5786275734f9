import * as assert from 'node:assert/strict';
import type { UsageEntry } from '../../../src/core/usage/ledger';
import { limitReachedMessage, parseSpendingLimits, reachedLimit, spendAgainstLimits, stateOf, warnedLimit } from '../../../src/core/usage/spendingLimits';

const entry = (at: string, credits: number | null): UsageEntry => ({ v: 1, requestId: '', model: 'm', environment: 'production', kind: 'chat', credits, at: Date.parse(at) });

describe('spending limits', () => {
  it('reads the setting per environment, with the default warning fraction, and drops entries without a limit', () => {
    const limits = parseSpendingLimits({ production: { daily: 5, monthly: 50 }, preview: { monthly: 3, warningFraction: 0.5 }, empty: {}, bad: { daily: -1, warningFraction: 2 } });
    assert.deepEqual(limits.get('production'), { day: 5, month: 50, warningFraction: 0.8 });
    assert.deepEqual(limits.get('preview'), { month: 3, warningFraction: 0.5 });
    assert.equal(limits.has('empty'), false);
    assert.equal(limits.has('bad'), false);
    assert.equal(parseSpendingLimits('nonsense').size, 0);
  });

  it('counts the measured spend of the period, the allowance per unmeasured request and what is reserved', () => {
    const entries = [
      entry('2026-03-01T10:00:00Z', 1.25),
      entry('2026-03-14T23:59:59Z', 100), // yesterday in UTC
      entry('2026-03-15T00:00:00Z', 2),
      entry('2026-03-15T08:00:00Z', null),
      entry('2026-03-15T09:00:00Z', null),
    ];
    const [day, month] = spendAgainstLimits({ entries, limit: { day: 10, month: 200, warningFraction: 0.8 }, now: Date.parse('2026-03-15T12:00:00Z'), allowance: 0.5, reserved: 3, timeZone: 'UTC' });
    assert.deepEqual({ ...day }, { period: 'day', limit: 10, measured: 2, unmeasured: 2, reserved: 3, counted: 6, warningAt: 8, resetsAt: Date.parse('2026-03-16T00:00:00Z') });
    assert.equal(month.measured, 103.25);
    assert.equal(month.counted, 107.25);
    assert.equal(month.resetsAt, Date.parse('2026-04-01T00:00:00Z'));
  });

  it('warns at the fraction and stops at the limit, naming the period reached', () => {
    const now = Date.parse('2026-03-15T12:00:00Z');
    const at = (measured: number) => spendAgainstLimits({ entries: [entry('2026-03-15T01:00:00Z', measured)], limit: { day: 10, month: 12, warningFraction: 0.8 }, now, allowance: 1, reserved: 0, timeZone: 'UTC' });
    assert.deepEqual(at(7.9).map(stateOf), ['ok', 'ok']);
    assert.deepEqual(at(8).map(stateOf), ['warning', 'ok']);
    assert.equal(warnedLimit(at(9.7))?.period, 'day', 'both warn; the day (9.7 of 10) is closer than the month (9.7 of 12)');
    assert.equal(reachedLimit(at(9.99)), undefined);
    assert.equal(reachedLimit(at(10))?.period, 'day');
  });

  it('says which limit refused, what was counted and when it resets', () => {
    const [day, month] = spendAgainstLimits({ entries: [entry('2026-03-15T01:00:00Z', 10.5)], limit: { day: 10, month: 12, warningFraction: 0.8 }, now: Date.parse('2026-03-15T12:00:00Z'), allowance: 1, reserved: 0, timeZone: 'UTC' });
    assert.equal(limitReachedMessage(day, 'production', '00:00'), 'The daily spending limit of "production" is reached: 10.5 of 10 credits spent today. Nothing was sent. The limit resets at 00:00.');
    assert.match(limitReachedMessage(month, 'production', '1 April'), /^The monthly spending limit of "production" is reached: 10.5 of 12 credits spent this month\. .* resets on 1 April\.$/);
  });
});
