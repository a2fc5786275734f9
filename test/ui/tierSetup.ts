import type { Context } from 'mocha';
import { EVERYTHING, provision } from '../harness/provision';
import { waitInProgress } from '../harness/wait';
import { stopSharedHost } from './sharedWorkbench';

/**
 * Mocha's global setup for the UI tier: provisions Chromium and code-server once, before any test
 * file, so that a machine that cannot install them fails the run with one line, not every file's
 * `before all` hook with the same error.
 */
export async function mochaGlobalSetup(): Promise<void> {
  await provision(EVERYTHING);
}

/** Stops the code-server and Chromium the UI files of this process shared (sharedWorkbench.ts). */
export async function mochaGlobalTeardown(): Promise<void> {
  await stopSharedHost();
}

/**
 * A test that runs out of its own time fails with mocha's "Timeout of N ms exceeded", which knows
 * nothing of the steps: the failure then names the wait it was in (waitFor, withTimeout).
 */
export const mochaHooks = {
  afterEach(this: Context): void {
    const test = this.currentTest;
    const waiting = waitInProgress();
    if (test?.state !== 'failed' || !test.err || !waiting || !/Timeout of \d+ms exceeded/.test(test.err.message)) return;
    test.err.message += ` It was waiting for ${waiting}.`;
  },
};
