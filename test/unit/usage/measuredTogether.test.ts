import * as assert from 'node:assert/strict';
import { parseLedger, serializeEntry, toUsageEntry, type UsageEntry, type UsageRecord } from '../../../src/core/usage/ledger';
import { environmentSpend } from '../../../src/core/usage/limitCheck';
import { measuredTogether, withoutCovered } from '../../../src/core/usage/measuredTogether';
import { sumsFor, sumsOf } from '../../../src/core/usage/periodSums';
import { buildUsageReport, spendToday, usageCsvRow } from '../../../src/core/usage/report';
import { currentPeriods } from '../../../src/core/usage/spendingLimits';

const NOW = Date.parse('2026-03-15T12:00:00Z');
const PERIODS = currentPeriods(NOW, 'UTC');
const ALLOWANCE = 1;
const TURN = 'turn-7';

function entry(at: string, credits: number | null, extra: Partial<UsageRecord> = {}): UsageEntry {
  return toUsageEntry({ requestId: `r-${at}-${extra.model ?? 'm'}`, model: 'm', environment: 'production', kind: 'chat', credits, ...extra }, Date.parse(at));
}

/** Two columns of a comparison that ran side by side (no spend each), and an answer of its own. */
function sideBySide(at = '2026-03-15T10:00:0'): UsageEntry[] {
  return [
    entry(`${at}1Z`, null, { model: 'a', comparison: TURN }),
    entry(`${at}2Z`, null, { model: 'b', comparison: TURN }),
    entry('2026-03-15T09:00:00Z', null, { model: 'c' }),
  ];
}

/** The ledger after the comparison's whole was measured: its entry, recorded `at`. */
function withTotal(entries: UsageEntry[], credits: number, at = '2026-03-15T10:00:05Z'): UsageEntry[] {
  const record = measuredTogether(entries, { environment: 'production', comparison: TURN, credits });
  assert.ok(record, 'an entry for the total');
  return [...entries, toUsageEntry(record, Date.parse(at))];
}

describe('a comparison measured as a whole: its total counts in place of its columns that had no spend of their own', () => {
  it('names the columns it stands in for by their times, only its own comparison\'s and environment\'s unmeasured ones, never twice', () => {
    const entries = [
      ...sideBySide(),
      entry('2026-03-15T10:00:03Z', 0.25, { model: 'd', comparison: TURN }), // measured on its own
      entry('2026-03-15T10:00:04Z', null, { model: 'e', comparison: TURN, environment: 'preview' }),
      entry('2026-03-15T10:00:04Z', null, { model: 'f', comparison: 'turn-8' }),
    ];
    const record = measuredTogether(entries, { environment: 'production', comparison: TURN, credits: 2.5 });
    assert.deepEqual(record, { requestId: '', model: '', environment: 'production', kind: 'chat', credits: 2.5, comparison: TURN, covers: [Date.parse('2026-03-15T10:00:01Z'), Date.parse('2026-03-15T10:00:02Z')] });
    const after = [...entries, toUsageEntry(record, NOW)];
    assert.equal(measuredTogether(after, { environment: 'production', comparison: TURN, credits: 2.5 }), undefined, 'nothing left to stand in for');
    assert.equal(measuredTogether(sideBySide(), { environment: 'production', comparison: 'turn-9', credits: 1 }), undefined, 'no column of that comparison');
  });

  it('counts the total in place of the columns\' allowances in the day\'s and month\'s sums and the limit check', () => {
    const before = sumsFor(sumsOf(sideBySide(), PERIODS).environments, 'production');
    assert.deepEqual(before.day, { measured: 0, unmeasured: 3 });
    const after = sumsFor(sumsOf(withTotal(sideBySide(), 2.5), PERIODS).environments, 'production');
    assert.deepEqual([after.day, after.month], [{ measured: 2.5, unmeasured: 1 }, { measured: 2.5, unmeasured: 1 }], 'the answer of its own stays unmeasured');
    const spend = environmentSpend(sumsOf(withTotal(sideBySide(), 2.5), PERIODS), 'production', { day: 10, warningFraction: 1 }, ALLOWANCE, 0);
    assert.equal(spend[0].counted, 2.5 + ALLOWANCE);
  });

  it('takes a column back from the period it fell in: columns yesterday, the total today', () => {
    const entries = withTotal(sideBySide('2026-03-14T23:59:5'), 2.5, '2026-03-15T00:00:01Z');
    const sums = sumsFor(sumsOf(entries, PERIODS).environments, 'production');
    assert.deepEqual(sums.day, { measured: 2.5, unmeasured: 1 }, 'today: the total, and the answer of its own');
    assert.deepEqual(sums.month, { measured: 2.5, unmeasured: 1 }, 'the month: the columns taken back where they were counted');
    // A ledger read from today only (the day's sums) never saw the columns: none of today's is taken for them.
    const today = sumsOf(entries.filter((e) => e.at >= PERIODS.day.start), { ...PERIODS, month: PERIODS.day });
    assert.deepEqual(sumsFor(today.environments, 'production').day, { measured: 2.5, unmeasured: 1 });
  });

  it('shows the columns as measured together in the usage view and today\'s spend, not as requests left out', () => {
    const entries = withTotal(sideBySide(), 2.5);
    const report = buildUsageReport(entries, NOW);
    assert.deepEqual([report.total, report.requests, report.environments[0].requests], [2.5, 2, 2], 'the two columns\' spend');
    assert.deepEqual(report.topRequests, [], 'no request of its own');
    assert.equal(report.unmeasured, 1, 'the answer of its own only');
    assert.deepEqual(report.byModel.series, ['models compared side by side']);
    const [comparison] = report.comparisons;
    assert.deepEqual([comparison.credits, comparison.requests, comparison.unmeasured], [2.5, 2, 0]);
    assert.deepEqual(comparison.models.map((row) => [row.model, row.credits, row.together]), [['a', null, true], ['b', null, true]]);
    assert.deepEqual(spendToday(entries, NOW), { credits: 2.5, unmeasured: 1 });
    assert.equal(withoutCovered(entries).length, 2);
    // Before the total: the columns are requests left out, as before.
    assert.deepEqual([buildUsageReport(sideBySide(), NOW).unmeasured, buildUsageReport(sideBySide(), NOW).comparisons[0].unmeasured], [3, 2]);
  });

  it('says in the CSV how many column rows a total is the spend of', () => {
    const rows = withTotal(sideBySide(), 2.5).map((e) => usageCsvRow(e).split(',').slice(-5));
    assert.deepEqual(rows.map((cells) => [cells[0], cells[3], cells[4]]), [['""', `"${TURN}"`, '""'], ['""', `"${TURN}"`, '""'], ['""', '""', '""'], ['2.5', `"${TURN}"`, '2']]);
  });

  it('keeps the total\'s entry through the file, and drops what it cannot name', () => {
    const entries = withTotal(sideBySide(), 2.5);
    assert.deepEqual(parseLedger(entries.map(serializeEntry).join('')), entries);
    const [parsed] = parseLedger(JSON.stringify({ ...entries[3], covers: ['x'] }));
    assert.equal(parsed.covers, undefined, 'a malformed list: the entry is an ordinary one, and the columns stay unmeasured');
    const [alone] = parseLedger(JSON.stringify({ ...entries[3], comparison: undefined }));
    assert.equal(alone.covers, undefined, 'without its comparison it names nothing');
  });
});
