import assert from 'node:assert/strict';
import { ApiError } from '../../../src/core/api/errors';
import { LONGEST_AUTOMATIC_WAIT_SECONDS, withRateLimitRetry, type RetryWait, type Wait } from '../../../src/core/api/rateLimitRetry';

const META = { status: 429, receivedAt: 0, requestId: 'req-429' };
const rateLimited = (retryAfterSeconds?: number) =>
  new ApiError('rateLimited', 'Rate limit reached', { status: 429, meta: META, ...(retryAfterSeconds !== undefined && { retryAfterSeconds }) });

/** A countdown that is over at once (or, with `answer`, as the test says), keeping what it was asked to wait. */
function fakeWait(answer: (wait: RetryWait, signal: AbortSignal | undefined) => Promise<boolean> = async () => true): Wait & { waits: RetryWait[] } {
  const waits: RetryWait[] = [];
  return Object.assign((wait: RetryWait, signal: AbortSignal | undefined) => {
    waits.push(wait);
    return answer(wait, signal);
  }, { waits });
}

/** Fails with each of `errors` in turn, then answers 'done'. */
function attempts(...errors: Error[]) {
  const numbers: number[] = [];
  return {
    numbers,
    attempt: async (attemptNumber: number) => {
      numbers.push(attemptNumber);
      const error = errors[attemptNumber];
      if (error) throw error;
      return 'done';
    },
  };
}

describe('the 429 retry policy', () => {
  it('waits Retry-After, then tries again, telling the countdown which retry it is', async () => {
    const wait = fakeWait();
    const call = attempts(rateLimited(7), rateLimited(0));
    assert.equal(await withRateLimitRetry(call.attempt, { label: 'chat', maxRetries: 3, wait }), 'done');
    assert.deepEqual(call.numbers, [0, 1, 2]);
    assert.deepEqual(wait.waits.map(({ seconds, retry, maxRetries, label }) => ({ seconds, retry, maxRetries, label })), [
      { seconds: 7, retry: 1, maxRetries: 3, label: 'chat' },
      { seconds: 0, retry: 2, maxRetries: 3, label: 'chat' },
    ]);
    assert.equal(wait.waits[0].error.requestId, 'req-429');
  });

  it('backs off 2, 4, 8 … seconds, at most 30, when the service sent no Retry-After', async () => {
    const wait = fakeWait();
    const call = attempts(...Array.from({ length: 6 }, () => rateLimited()));
    await withRateLimitRetry(call.attempt, { label: 'x', maxRetries: 6, wait });
    assert.deepEqual(wait.waits.map((w) => w.seconds), [2, 4, 8, 16, 30, 30]);
  });

  it('gives the last 429 to the caller after maxRetries retries, and never retries with maxRetries 0 or below', async () => {
    const wait = fakeWait();
    const last = rateLimited(1);
    const call = attempts(rateLimited(1), rateLimited(1), last);
    await assert.rejects(withRateLimitRetry(call.attempt, { label: 'x', maxRetries: 2, wait }), (e: unknown) => e === last);
    assert.equal(wait.waits.length, 2);
    for (const maxRetries of [0, -1]) {
      const once = attempts(rateLimited(1));
      await assert.rejects(withRateLimitRetry(once.attempt, { label: 'x', maxRetries, wait: fakeWait() }), (e: unknown) => e instanceof ApiError && e.kind === 'rateLimited');
      assert.deepEqual(once.numbers, [0]);
    }
  });

  it(`does not wait out a Retry-After beyond ${LONGEST_AUTOMATIC_WAIT_SECONDS} s: the user decides`, async () => {
    const wait = fakeWait();
    const long = rateLimited(LONGEST_AUTOMATIC_WAIT_SECONDS + 1);
    await assert.rejects(withRateLimitRetry(attempts(long).attempt, { label: 'x', maxRetries: 3, wait }), (e: unknown) => e === long);
    assert.equal(wait.waits.length, 0);
    const bound = attempts(rateLimited(LONGEST_AUTOMATIC_WAIT_SECONDS));
    assert.equal(await withRateLimitRetry(bound.attempt, { label: 'x', maxRetries: 3, wait }), 'done', 'the bound itself is waited');
  });

  it('retries nothing but a 429', async () => {
    for (const error of [new ApiError('server', 'HTTP 503', { status: 503 }), new ApiError('insufficientCredits', 'HTTP 402', { status: 402 }), new TypeError('bug')]) {
      const call = attempts(error);
      await assert.rejects(withRateLimitRetry(call.attempt, { label: 'x', maxRetries: 3, wait: fakeWait() }), (e: unknown) => e === error);
      assert.deepEqual(call.numbers, [0]);
    }
  });

  it('ends as cancelled, within milliseconds, when the signal aborts during a wait that would last a minute', async () => {
    const controller = new AbortController();
    const wait = fakeWait(() => new Promise<boolean>(() => undefined)); // a countdown that never ends by itself
    const call = attempts(rateLimited(60));
    const started = Date.now();
    setTimeout(() => controller.abort(), 5);
    await assert.rejects(withRateLimitRetry(call.attempt, { label: 'x', maxRetries: 3, wait, signal: controller.signal }), (e: unknown) => {
      assert.ok(e instanceof ApiError);
      assert.equal(e.kind, 'cancelled');
      assert.equal(e.requestId, 'req-429', 'the 429\'s request id is kept');
      return true;
    });
    assert.ok(Date.now() - started < 1000);
    assert.deepEqual(call.numbers, [0], 'nothing was sent again');
    assert.equal(wait.waits.length, 1);
  });

  it('ends as cancelled when the user cancels the countdown, and sends nothing more', async () => {
    const call = attempts(rateLimited(5));
    await assert.rejects(withRateLimitRetry(call.attempt, { label: 'x', maxRetries: 3, wait: fakeWait(async () => false) }), (e: unknown) => e instanceof ApiError && e.kind === 'cancelled');
    assert.deepEqual(call.numbers, [0]);
  });

  it('does not start a wait when the signal aborted with the 429', async () => {
    const controller = new AbortController();
    const wait = fakeWait();
    const error = rateLimited(1);
    await assert.rejects(withRateLimitRetry(async () => {
      controller.abort();
      throw error;
    }, { label: 'x', maxRetries: 3, wait, signal: controller.signal }), (e: unknown) => e === error);
    assert.equal(wait.waits.length, 0);
  });
});
