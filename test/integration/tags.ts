/**
 * Tests whose title contains this tag run only in the window opened without a folder; every other
 * test runs only in the window with a workspace folder. Both windows load every test file.
 */
export const NO_WORKSPACE = '@no-workspace';

/** Set by the launchers for the extension host: which of the two windows this is. */
export const WINDOW_ENV = 'INFERENCE_INTEGRATION_WINDOW';

export type IntegrationWindow = 'workspace' | 'no-workspace';

/** A regular expression over full test titles; only matching tests run (passed on by the launchers). */
export const GREP_ENV = 'INFERENCE_TEST_GREP';

/** The environment the launchers give the extension host of one window. */
export function extensionHostEnvironment(window: IntegrationWindow): Record<string, string> {
  const grep = process.env[GREP_ENV];
  return { [WINDOW_ENV]: window, ...(grep ? { [GREP_ENV]: grep } : {}) };
}
