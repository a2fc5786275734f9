import { EVERYTHING, provision } from '../harness/provision';

/**
 * Mocha's global setup for the UI tier: provisions Chromium and code-server once, before any test
 * file, so that a machine that cannot install them fails the run with one line, not every file's
 * `before all` hook with the same error.
 */
export async function mochaGlobalSetup(): Promise<void> {
  await provision(EVERYTHING);
}
