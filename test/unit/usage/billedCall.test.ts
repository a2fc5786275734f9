/** How every billed call's spend reaches the usage ledger: measured, or without a cost and a reason. */
import assert from 'node:assert/strict';
import { recordBilledCall } from '../../../src/core/usage/billedCall';
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
