/** The local endpoint's billing, on a real spending guard: every billed request in the ledger, and limits that hold for the unmeasured. */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openEndpointBilling, type EndpointMeter } from '../../../src/core/localEndpoint/endpointBilling';
import type { EndpointCaller } from '../../../src/core/localEndpoint/namedTokens';
import { EndpointError } from '../../../src/core/localEndpoint/respond';
import type { RequestSummary } from '../../../src/core/localEndpoint/protocol';
import type { BalanceReading } from '../../../src/core/usage/answerSpend';
import { BillingWindows } from '../../../src/core/usage/billingWindows';
import { toUsageEntry, type UsageEntry, type UsageRecord } from '../../../src/core/usage/ledger';
import { sumsOf } from '../../../src/core/usage/periodSums';
import { SpendingGuard } from '../../../src/core/usage/spendingGuard';
import { currentPeriods } from '../../../src/core/usage/spendingLimits';
import { waitFor } from '../../harness/wait';

const CALLER: EndpointCaller = { token: { id: 'tok-1', name: 'aider' } };
let served = 0;
const answered = (overrides: Partial<RequestSummary> = {}): RequestSummary => ({ method: 'POST', path: '/v1/chat/completions', protocol: 'openai', status: 200, stream: false, durationMs: 5, cancelled: false, requestId: `req-${++served}`, modelId: 'm', ...overrides });

describe('local endpoint: billing through the meter and the spending guard', () => {
  let dir: string;
  let entries: UsageEntry[];
  let reading: BalanceReading | undefined;
  let settled: BalanceReading | undefined;
  let balance: number | undefined;
  let limits: unknown;
  let meter: EndpointMeter;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'endpoint-billing-'));
    entries = [];
    reading = undefined;
    settled = undefined;
    balance = 10;
    limits = {};
    const record = (entry: UsageRecord) => void entries.push(toUsageEntry(entry, Date.now()));
    const ledger = { clock: () => Date.now(), periodSums: async () => sumsOf(entries, currentPeriods(Date.now())), written: async () => {} };
    const guard = new SpendingGuard(new BillingWindows(0), ledger, { info: () => {}, warn: () => {} }, { spendingLimits: () => limits, unmeasuredRequestCredits: () => 1 }, dir);
    meter = {
      openBillingWindow: (env, caller) => guard.open(env, caller),
      balance: () => balance,
      readSettledBalance: async () => settled,
      reading: () => reading,
      warn: () => {},
      usage: { record, recordUnmeasured: (entry) => record({ ...entry, credits: null }) },
    };
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('records a whole answer by its response\'s balance, and one without a reading without a cost, attributed to its token', async () => {
    const measured = await openEndpointBilling(meter, 'production', CALLER);
    reading = { credits: 9.75, at: Date.now() + 1 };
    measured.close(answered());
    const unmeasured = await openEndpointBilling(meter, 'production', CALLER);
    reading = undefined;
    unmeasured.close(answered());
    assert.deepEqual(entries.map((e) => [e.credits, e.token?.name]), [[0.25, 'aider'], [null, 'aider']]);
  });

  it('records a stream by the settled reading taken after it, and nothing for a request the service refused', async () => {
    const refused = await openEndpointBilling(meter, 'production', CALLER);
    refused.close(answered({ status: 402 }));
    const stream = await openEndpointBilling(meter, 'production', CALLER);
    settled = { credits: 9.5, at: Date.now() + 1000 };
    stream.close(answered({ stream: true }));
    await waitFor('the stream\'s spend', () => entries.length === 1, { timeoutMs: 10_000, intervalMs: 5 });
    assert.equal(entries[0].credits, 0.5);
  });

  it('counts an unmeasured request as the allowance: with a limit below it, the next request is refused as the protocol\'s 403', async () => {
    limits = { production: { daily: 0.5 } };
    balance = undefined;
    const first = await openEndpointBilling(meter, 'production', CALLER);
    first.close(answered());
    assert.deepEqual(entries.map((e) => e.credits), [null], 'billed, not measured');
    // Its allowance was held while it ran; once its entry is in the ledger, the entry alone counts.
    const reservations = path.join(dir, 'usage', 'reservations.json');
    await waitFor('the first request\'s reservation released', () => fs.readFileSync(reservations, 'utf8').trim() === '[]', { timeoutMs: 10_000, intervalMs: 5 });
    const refusal = await openEndpointBilling(meter, 'production', CALLER).then(() => undefined, (error: unknown) => error);
    assert.ok(refusal instanceof EndpointError, String(refusal));
    assert.equal(refusal.status, 403);
    assert.match(refusal.message, /^The daily spending limit of "production" set in VS Code is reached: 1 of 0\.5 credits spent\. Nothing was sent\./);
  });
});
