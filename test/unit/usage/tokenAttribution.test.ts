import * as assert from 'node:assert/strict';
import { parseLedger, PER_RUN_TOKEN, serializeEntry, toUsageEntry, type UsageEntry, type UsageRecord } from '../../../src/core/usage/ledger';
import { parseUsageWebviewMessage } from '../../../src/core/usage/protocol';
import { buildUsageReport, usageCsvStreamed } from '../../../src/core/usage/report';

const local = (day: number, hour = 12) => new Date(2026, 10, day, hour).getTime();
const NOW = local(22, 18);
const AIDER = { id: '0b9d1c1e-aaaa-4bbb-8ccc-000000000001', name: 'aider' };

function entry(at: number, credits: number | null, overrides: Partial<UsageRecord> = {}): UsageEntry {
  return toUsageEntry({ requestId: `req-${at}-${credits}`, model: 'chat-a', environment: 'production', kind: 'chat', credits, ...overrides }, at);
}

async function* recorded(entries: UsageEntry[]): AsyncGenerator<UsageEntry> {
  yield* entries;
}

describe('usage attributed to endpoint tokens', () => {
  const entries = [
    entry(local(20), 1, { token: AIDER }),
    entry(local(22, 9), 0.5, { token: AIDER }),
    entry(local(22, 10), 2, { token: PER_RUN_TOKEN }),
    entry(local(22, 11), null, { token: AIDER }),
    entry(local(22, 12), 4), // the chat panel: no token
  ];

  it('keeps the token\'s id and name in the ledger line (a malformed one is dropped, the entry kept)', () => {
    assert.deepEqual(parseLedger(entries.map(serializeEntry).join('')), entries);
    const line = JSON.stringify({ ...entries[0], token: { id: 7, name: 'x' } });
    assert.equal(parseLedger(line)[0].token, undefined);
    assert.equal(parseLedger(line)[0].credits, 1);
    assert.equal(parseLedger(JSON.stringify({ ...entries[0], token: { id: '', name: 'x' } }))[0].token, undefined);
  });

  it('totals each token over the days shown and today, and narrows the report to one token on request', () => {
    const report = buildUsageReport(entries, NOW);
    assert.deepEqual(report.tokens, [
      { id: PER_RUN_TOKEN.id, name: PER_RUN_TOKEN.name, credits: 2, requests: 1, today: 2 },
      { id: AIDER.id, name: 'aider', credits: 1.5, requests: 2, today: 0.5 },
    ]);
    assert.equal(report.total, 7.5);
    assert.equal(report.topRequests.find((r) => r.credits === 0.5)?.token?.name, 'aider');
    assert.equal(report.topRequests.find((r) => r.credits === 4)?.token, undefined);

    const narrowed = buildUsageReport(entries, NOW, { token: AIDER.id });
    assert.equal(narrowed.tokenFilter, AIDER.id);
    assert.deepEqual([narrowed.total, narrowed.requests, narrowed.today, narrowed.unmeasured], [1.5, 2, 0.5, 1]);
    assert.deepEqual(narrowed.topRequests.map((r) => r.token?.id), [AIDER.id, AIDER.id]);
    assert.deepEqual(narrowed.tokens, report.tokens, 'the per-token table (and the filter\'s choices) still lists every token');
  });

  it('exports the token\'s name in the CSV\'s token column, empty for other requests', async () => {
    const rows = (await usageCsvStreamed(recorded(entries))).split('\r\n');
    assert.match(rows[0], /,"request_id","token","comparison","measured_together"$/);
    assert.match(rows[1], /,"aider","",""$/);
    assert.match(rows[3], /,"per-run token","",""$/);
    assert.match(rows[5], /,"","",""$/);
  });

  it('accepts the view\'s filter message for a token id or none, and nothing else', () => {
    assert.deepEqual(parseUsageWebviewMessage({ v: 2, type: 'filterToken', token: AIDER.id }), { v: 2, type: 'filterToken', token: AIDER.id });
    assert.deepEqual(parseUsageWebviewMessage({ v: 2, type: 'filterToken', token: null }), { v: 2, type: 'filterToken', token: null });
    assert.equal(parseUsageWebviewMessage({ v: 2, type: 'filterToken', token: '' }), undefined);
    assert.equal(parseUsageWebviewMessage({ v: 2, type: 'filterToken', token: 3 }), undefined);
    assert.equal(parseUsageWebviewMessage({ v: 2, type: 'filterToken' }), undefined);
  });
});
