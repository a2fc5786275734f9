import * as assert from 'node:assert/strict';
import { parseLedger, serializeEntry, toUsageEntry, type UsageEntry, type UsageRecord } from '../../../src/core/usage/ledger';
import { ALL_COMPARISONS, MAX_COMPARISONS } from '../../../src/core/usage/comparisonUsage';
import { parseShowUsageArgs, parseUsageWebviewMessage, USAGE_PROTOCOL_VERSION } from '../../../src/core/usage/protocol';
import { buildUsageReport, usageCsvStreamed } from '../../../src/core/usage/report';

/** The usage view narrowed to comparisons (issue 40 item 4): each column's ledger entry names its comparison turn. */

const local = (day: number, hour = 12, minute = 0) => new Date(2026, 10, day, hour, minute).getTime();
const NOW = local(22, 18);
const FIRST = 'c0a1f7e2-0000-4000-8000-000000000001';
const SECOND = 'c0a1f7e2-0000-4000-8000-000000000002';

function entry(at: number, credits: number | null, overrides: Partial<UsageRecord> = {}): UsageEntry {
  return toUsageEntry({ requestId: `req-${at}-${overrides.model ?? 'chat-a'}`, model: 'chat-a', environment: 'production', kind: 'chat', credits, ...overrides }, at);
}

async function* recorded(entries: UsageEntry[]): AsyncGenerator<UsageEntry> {
  yield* entries;
}

describe('usage of comparisons (core/usage/comparisonUsage, report)', () => {
  const entries = [
    entry(local(20, 9), 1, { comparison: FIRST, model: 'chat-a' }),
    entry(local(20, 9, 1), 0.5, { comparison: FIRST, model: 'chat-b' }),
    entry(local(20, 9, 2), null, { comparison: FIRST, model: 'chat-c' }),
    entry(local(21), 3), // a single answer
    entry(local(22, 9), 0.25, { comparison: SECOND, model: 'chat-a' }),
    entry(local(22, 9, 1), 0.75, { comparison: SECOND, model: 'chat-d' }),
    entry(local(22, 10), 2, { kind: 'suggestion' }),
  ];

  it('keeps the comparison id in the ledger line (a malformed one is dropped, the entry kept)', () => {
    assert.deepEqual(parseLedger(entries.map(serializeEntry).join('')), entries);
    for (const bad of [7, '', null, { id: FIRST }]) assert.equal(parseLedger(JSON.stringify({ ...entries[0], comparison: bad }))[0].comparison, undefined);
  });

  it('lists each comparison of the days shown, newest first, with its total and a row per model, whatever the filter', () => {
    const report = buildUsageReport(entries, NOW);
    assert.deepEqual(report.comparisons.map((c) => [c.id, c.at, c.environment, c.credits, c.requests, c.unmeasured]), [
      [SECOND, local(22, 9), 'production', 1, 2, 0],
      [FIRST, local(20, 9), 'production', 1.5, 2, 1],
    ]);
    assert.deepEqual(report.comparisons[1].models, [
      { model: 'chat-a', credits: 1, requestId: `req-${local(20, 9)}-chat-a`, at: local(20, 9) },
      { model: 'chat-b', credits: 0.5, requestId: `req-${local(20, 9, 1)}-chat-b`, at: local(20, 9, 1) },
      { model: 'chat-c', credits: null, requestId: `req-${local(20, 9, 2)}-chat-c`, at: local(20, 9, 2) },
    ]);
    assert.equal(report.comparisonFilter, undefined);
    assert.equal(report.total, 7.5, 'every request');
    assert.ok(report.suggestions);
    assert.deepEqual(buildUsageReport(entries, NOW, { comparison: FIRST }).comparisons, report.comparisons, 'the filter\'s choices stay');
  });

  it('narrows the report to one comparison, or to every comparison', () => {
    const one = buildUsageReport(entries, NOW, { comparison: FIRST });
    assert.equal(one.comparisonFilter, FIRST);
    assert.deepEqual([one.total, one.requests, one.unmeasured], [1.5, 2, 1]);
    assert.deepEqual(one.topRequests.map((r) => r.model), ['chat-a', 'chat-b']);
    assert.deepEqual(one.byModel.series, ['chat-a', 'chat-b']);
    assert.equal(one.suggestions, undefined, 'suggestions are never part of a comparison');

    const every = buildUsageReport(entries, NOW, { comparison: ALL_COMPARISONS });
    assert.equal(every.comparisonFilter, ALL_COMPARISONS);
    assert.deepEqual([every.total, every.requests, every.unmeasured, every.today], [2.5, 4, 1, 1]);
    assert.ok(every.topRequests.every((r) => r.kind === 'chat' && r.credits !== 3));

    const gone = buildUsageReport(entries, NOW, { comparison: 'no-such-comparison' });
    assert.deepEqual([gone.total, gone.requests, gone.comparisonFilter], [0, 0, 'no-such-comparison']);
  });

  it('leaves out comparisons before the days shown, and lists at most MAX_COMPARISONS', () => {
    assert.deepEqual(buildUsageReport([entry(new Date(2026, 9, 1).getTime(), 1, { comparison: FIRST })], NOW).comparisons, []);
    const many = Array.from({ length: MAX_COMPARISONS + 5 }, (_, i) => entry(local(10) + i * 1000, 0.1, { comparison: `c-${i}` }));
    const listed = buildUsageReport(many, NOW).comparisons;
    assert.equal(listed.length, MAX_COMPARISONS);
    assert.equal(listed[0].id, `c-${MAX_COMPARISONS + 4}`, 'the newest');
  });

  it('exports the comparison id in the CSV\'s comparison column, empty for other requests', async () => {
    const rows = (await usageCsvStreamed(recorded(entries))).split('\r\n');
    assert.match(rows[0], /,"token","comparison","measured_together"$/);
    assert.ok(rows[1].endsWith(`,"","${FIRST}",""`));
    assert.ok(rows[4].endsWith(',"","",""'));
  });

  it('accepts the view\'s comparison filter message and Show Usage\'s arguments, and nothing else', () => {
    const v = USAGE_PROTOCOL_VERSION;
    for (const comparison of [FIRST, ALL_COMPARISONS, null]) assert.deepEqual(parseUsageWebviewMessage({ v, type: 'filterComparison', comparison }), { v, type: 'filterComparison', comparison });
    for (const comparison of ['', 3, undefined, {}]) assert.equal(parseUsageWebviewMessage({ v, type: 'filterComparison', comparison }), undefined);
    assert.deepEqual(parseShowUsageArgs({ comparison: FIRST }), { comparison: FIRST });
    for (const args of [undefined, null, 'x', { comparison: '' }, { comparison: 5 }, [FIRST]]) assert.deepEqual(parseShowUsageArgs(args), {});
  });
});
