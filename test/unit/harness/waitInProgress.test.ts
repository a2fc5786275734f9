import * as assert from 'node:assert/strict';
import type { Context } from 'mocha';
import { mochaHooks } from '../../ui/tierSetup';
import { waitFor, waitInProgress, withTimeout } from '../../harness/wait';

describe('UI tests: a test that runs out of time names the step it was waiting for', () => {
  it('knows the wait in progress, waitFor or withTimeout, and forgets it when it ends', async () => {
    assert.equal(waitInProgress(), undefined);
    let ready = false;
    const waiting = waitFor('the answer to finish', () => ready, { timeoutMs: 5_000, intervalMs: 5 });
    assert.match(waitInProgress() ?? '', /^the answer to finish \(for \d+\.\d s\)$/);
    ready = true;
    await waiting;
    assert.equal(waitInProgress(), undefined);
    await assert.rejects(withTimeout('the panel to open', new Promise(() => undefined), 10), /Timed out after 10 ms: the panel to open/);
    assert.equal(waitInProgress(), undefined);
  });

  it("adds it to mocha's timeout message, and leaves other failures and passed tests alone", async () => {
    const failed = (message: string) => ({ state: 'failed', err: new Error(message) });
    const timedOut = failed('Timeout of 60000ms exceeded. For async tests and hooks, ensure "done()" is called');
    const otherFailure = failed('expected 2 to equal 1');
    const pending = waitFor('the chat request to reach the emulator', () => false, { timeoutMs: 200, intervalMs: 5 });
    for (const currentTest of [timedOut, otherFailure]) mochaHooks.afterEach.call({ currentTest } as unknown as Context);
    await assert.rejects(pending);
    assert.match(timedOut.err.message, /exceeded\. .* It was waiting for the chat request to reach the emulator \(for \d+\.\d s\)\.$/);
    assert.equal(otherFailure.err.message, 'expected 2 to equal 1');
  });
});
