/**
 * Tests whose title contains this tag run only in the window opened without a folder; every other
 * test runs only in the window with a workspace folder. Both windows load every test file.
 */
export const NO_WORKSPACE = '@no-workspace';

/** Set by the launchers for the extension host: which of the two windows this is. */
export const WINDOW_ENV = 'INFERENCE_INTEGRATION_WINDOW';

export type IntegrationWindow = 'workspace' | 'no-workspace';
