/** The local endpoint's billing, on a real spending guard: every billed request in the ledger, and limits that hold for the unmeasured. */
import assert from 'node:assert/strict';
import { openEndpointBilling, type EndpointMeter } from '../../../src/core/localEndpoint/endpointBilling';
import type { EndpointCaller } from '../../../src/core/localEndpoint/namedTokens';
import type { RequestSummary } from '../../../src/core/localEndpoint/protocol';
import { EndpointError } from '../../../src/core/localEndpoint/respond';
import type { BalanceReading } from '../../../src/core/usage/answerSpend';
import { waitFor } from '../../harness/wait';
import { guardedMeter, type GuardedMeter } from '../fakes/guardedMeter';

const CALLER: EndpointCaller = { token: { id: 'tok-1', name: 'aider' } };
let served = 0;
const answered = (overrides: Partial<RequestSummary> = {}): RequestSummary => ({ method: 'POST', path: '/v1/chat/completions', protocol: 'openai', status: 200, stream: false, durationMs: 5, cancelled: false, requestId: `req-${++served}`, modelId: 'm', ...overrides });

describe('local endpoint: billing through the meter and the spending guard', () => {
  let guarded: GuardedMeter;
  let reading: BalanceReading | undefined;
  let meter: EndpointMeter;

  beforeEach(() => {
    guarded = guardedMeter();
    reading = undefined;
    meter = { ...guarded.meter, reading: () => reading, warn: () => {} };
  });
  afterEach(() => guarded.dispose());

  it('records a whole answer by its response\'s balance, and one without a reading without a cost, attributed to its token', async () => {
    const measured = await openEndpointBilling(meter, 'production', CALLER);
    reading = { credits: 9.75, at: Date.now() + 1 };
    measured.close(answered());
    const unmeasured = await openEndpointBilling(meter, 'production', CALLER);
    reading = undefined;
    unmeasured.close(answered());
    assert.deepEqual(guarded.entries.map((e) => [e.credits, e.token?.name]), [[0.25, 'aider'], [null, 'aider']]);
  });

  it('records a stream by the settled reading taken after it, and nothing for a request the service refused', async () => {
    const refused = await openEndpointBilling(meter, 'production', CALLER);
    refused.close(answered({ status: 402 }));
    const stream = await openEndpointBilling(meter, 'production', CALLER);
    guarded.state.settled = { credits: 9.5, at: Date.now() + 1000 };
    stream.close(answered({ stream: true }));
    await waitFor('the stream\'s spend', () => guarded.entries.length === 1, { timeoutMs: 10_000, intervalMs: 5 });
    assert.equal(guarded.entries[0].credits, 0.5);
  });

  it('counts an unmeasured request as the allowance: with a limit below it, the next request is refused as the protocol\'s 403', async () => {
    guarded.state.limits = { production: { daily: 0.5 } };
    guarded.state.balance = undefined;
    (await openEndpointBilling(meter, 'production', CALLER)).close(answered());
    assert.deepEqual(guarded.entries.map((e) => e.credits), [null], 'billed, not measured');
    // Its allowance was held while it ran; once its entry is in the ledger, the entry alone counts.
    await guarded.released();
    const refusal = await openEndpointBilling(meter, 'production', CALLER).then(() => undefined, (error: unknown) => error);
    assert.ok(refusal instanceof EndpointError, String(refusal));
    assert.equal(refusal.status, 403);
    assert.match(refusal.message, /^The daily spending limit of "production" set in VS Code is reached: 1 of 0\.5 credits spent\. Nothing was sent\./);
  });
});
