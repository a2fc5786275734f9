/**
 * Tests whose title contains this tag run only in the window opened without a folder; every other
 * test runs only in the window with a workspace folder. Both windows load every test file.
 */
export const NO_WORKSPACE = '@no-workspace';

/**
 * Tests whose title contains this tag run only in the window whose folder has a hostile
 * `.vscode/settings.json`: it points environments at a recording server (RECORDER_ENV).
 */
export const HOSTILE_WORKSPACE = '@hostile-workspace';

/**
 * Tests whose title contains this tag run only in the window where the language model provider is
 * on, as by default (no setting: its tests prove the default). The other windows turn it off in
 * their user settings (WINDOW_USER_SETTINGS): VS Code's background model-list questions stay out
 * of the tests there that count the service's requests.
 */
export const LANGUAGE_MODELS = '@language-models';

/** Set by the launchers for the extension host: which of the windows this is. */
export const WINDOW_ENV = 'INFERENCE_INTEGRATION_WINDOW';

/** Set for the hostile window: the origin of the server that its workspace settings name. */
export const RECORDER_ENV = 'INFERENCE_RECORDER_URL';

export type IntegrationWindow = 'workspace' | 'no-workspace' | 'hostile-workspace' | 'language-models';

/** The title tag of each window's tests; the plain workspace window runs the untagged ones. */
export const WINDOW_TAGS: Readonly<Record<Exclude<IntegrationWindow, 'workspace'>, string>> = {
  'no-workspace': NO_WORKSPACE,
  'hostile-workspace': HOSTILE_WORKSPACE,
  'language-models': LANGUAGE_MODELS,
};

/**
 * User settings the launchers add for one window only (application-scope settings read at
 * activation cannot come from a workspace), and take away again before the next window opens.
 */
const PROVIDER_OFF = { 'inference.languageModels.enabled': false };
export const WINDOW_USER_SETTINGS: Readonly<Partial<Record<IntegrationWindow, Readonly<Record<string, unknown>>>>> = {
  workspace: PROVIDER_OFF,
  'no-workspace': PROVIDER_OFF,
  'hostile-workspace': PROVIDER_OFF,
};

/** A regular expression over full test titles; only matching tests run (passed on by the launchers). */
export const GREP_ENV = 'INFERENCE_TEST_GREP';

/** How many chat requests the soak makes (a reduced count unless set; `npm run soak` sets 1,000). */
export const SOAK_REQUESTS_ENV = 'INFERENCE_SOAK_REQUESTS';

/** The environment the launchers give the extension host of one window. */
export function extensionHostEnvironment(window: IntegrationWindow, extra: Record<string, string> = {}): Record<string, string> {
  const passed: Record<string, string> = { [WINDOW_ENV]: window };
  for (const name of [GREP_ENV, SOAK_REQUESTS_ENV]) {
    const value = process.env[name];
    if (value) passed[name] = value;
  }
  return { ...passed, ...extra };
}
