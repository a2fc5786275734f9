import vscode = require('vscode');
import { NUMBER_PARAMS, type NumberParamSetting } from '../../core/numberParams';
import { DEFAULT_CONTEXT_CAP_CHARS } from '../../core/chat/mentions/mentionText';
import { DEFAULT_MAX_IMAGE_MB } from '../../core/chat/chatImages';
import { DEFAULT_UNMEASURED_CREDITS } from '../../core/usage/spendingLimits';
import { DEFAULT_DEBOUNCE_MS, DEFAULT_DISABLED_LANGUAGES, DEFAULT_EXCLUDED_FILES, DEFAULT_MAX_FILE_KB } from '../../core/suggestions/eligibility';

/** One environment of the service: its own host, keys, wallet and model ids (spec section 1). */
export interface EnvironmentSettings {
  /** Ends in /api/v1. */
  baseUrl: string;
  /** Equivalent hosts (same path), tried in this order when the primary cannot be reached. */
  baseUrls?: string[];
  /** The service's fixed key prefix; the spec omits it, so it is configurable and empty skips the check. */
  keyPrefix?: string;
  label?: string;
}

/**
 * Every setting the extension reads, by full id, with its type. package.json declares the same ids and defaults.
 * The chat parameters' settings (core/numberParams.ts) are numbers, or null: not sent, the model's default applies.
 */
export interface SettingTypes extends Record<NumberParamSetting, number | null> {
  'inference.environments': Record<string, EnvironmentSettings>;
  'inference.activeEnvironment': string;
  'inference.balanceWarningThreshold': number;
  /** Environment name → its limits; validated by the reader (core/usage/spendingLimits.ts). */
  'inference.spendingLimits': Record<string, unknown>;
  'inference.unmeasuredRequestCredits': number;
  /** Inline suggestions' own daily budget in credits (core/usage/spendBudget.ts); null: none. */
  'inference.suggestions.dailyBudgetCredits': number | null;
  'inference.rateLimit.maxRetries': number;
  'inference.modelCacheMinutes': number;
  'inference.timeouts.connectSeconds': number;
  'inference.timeouts.responseSeconds': number;
  'inference.timeouts.idleSeconds': number;
  'inference.images.folder': string;
  'inference.images.sizePresets': string[];
  'inference.images.responseFormat': string;
  'inference.chat.systemPrompt': string;
  'inference.readBalanceAfterAnswer': boolean;
  /** Deprecated for inference.readBalanceAfterAnswer (readBalanceAfterAnswer() reads both). */
  'inference.chat.refreshBalanceAfterAnswer': boolean;
  /** One attachment's size cap in characters (a file, a selection, a mention); larger ones are refused, never cut. */
  'inference.chat.maxContextCharacters': number;
  /** Largest image that can be attached to a chat message, in MB (MiB). */
  'inference.chat.maxImageMB': number;
  /** A comparison's columns one at a time, each measured, instead of side by side (core/chat/comparison/comparisonRun.ts). */
  'inference.chat.comparison.measureEachModel': boolean;
  /** Environment name → the contract's `service_parameters` object for chat in that environment. */
  'inference.serviceParameters.byEnvironment': Record<string, unknown>;
  /** Model id → `service_parameters` for that model (wins over the environment's, key by key). */
  'inference.serviceParameters.byModel': Record<string, unknown>;
  /** 0: a free port, chosen at each start. */
  'inference.localEndpoint.port': number;
  /** Register the Language Model Chat Provider (read at activation). */
  'inference.languageModels.enabled': boolean;
  /** Per model id (or "*"): limits and capabilities the service does not publish; validated by the reader. */
  'inference.languageModels.overrides': Record<string, unknown>;
  'inference.suggestions.enabled': boolean;
  'inference.suggestions.debounceMs': number;
  'inference.suggestions.disabledLanguages': string[];
  /** Globs of files never sent for suggestions (core/suggestions/eligibility.ts). */
  'inference.suggestions.excludedFiles': string[];
  'inference.suggestions.maxFileSizeKB': number;
  'inference.suggestions.allowInUntrustedWorkspaces': boolean;
}

export type SettingId = keyof SettingTypes;

export const SETTING_DEFAULTS: Readonly<SettingTypes> = {
  // No phantom environments: the user adds their own (Inference: Add Environment).
  'inference.environments': {},
  // Empty: the first configured environment.
  'inference.activeEnvironment': '',
  'inference.balanceWarningThreshold': 10,
  'inference.spendingLimits': {},
  'inference.unmeasuredRequestCredits': DEFAULT_UNMEASURED_CREDITS,
  'inference.suggestions.dailyBudgetCredits': null,
  'inference.rateLimit.maxRetries': 3,
  'inference.modelCacheMinutes': 60,
  'inference.timeouts.connectSeconds': 30,
  'inference.timeouts.responseSeconds': 600,
  'inference.timeouts.idleSeconds': 300,
  'inference.images.folder': 'images',
  'inference.images.sizePresets': ['512x512', '768x768', '1024x1024', '1024x768', '768x1024'],
  'inference.images.responseFormat': 'b64_json',
  'inference.chat.systemPrompt': '',
  ...Object.fromEntries(NUMBER_PARAMS.map((param) => [param.setting, null])) as Record<NumberParamSetting, null>,
  'inference.readBalanceAfterAnswer': true,
  'inference.chat.refreshBalanceAfterAnswer': true,
  'inference.chat.maxContextCharacters': DEFAULT_CONTEXT_CAP_CHARS,
  'inference.chat.maxImageMB': DEFAULT_MAX_IMAGE_MB,
  'inference.chat.comparison.measureEachModel': false,
  'inference.serviceParameters.byEnvironment': {},
  'inference.serviceParameters.byModel': {},
  'inference.localEndpoint.port': 0,
  'inference.languageModels.enabled': true,
  'inference.languageModels.overrides': {},
  'inference.suggestions.enabled': false,
  'inference.suggestions.debounceMs': DEFAULT_DEBOUNCE_MS,
  'inference.suggestions.disabledLanguages': [...DEFAULT_DISABLED_LANGUAGES],
  'inference.suggestions.excludedFiles': [...DEFAULT_EXCLUDED_FILES],
  'inference.suggestions.maxFileSizeKB': DEFAULT_MAX_FILE_KB,
  'inference.suggestions.allowInUntrustedWorkspaces': false,
};

/**
 * Settings that decide where a key is sent, or how much it may spend. They are `"scope": "application"` in package.json (VS Code
 * ignores them in workspace and folder settings) and are read from the user's own settings only, so
 * that no repository, in any VS Code version, can point a key somewhere else.
 */
export const USER_LEVEL_SETTINGS = [
  'inference.environments', 'inference.activeEnvironment', 'inference.spendingLimits', 'inference.unmeasuredRequestCredits',
  // What suggestions send, and how often: a repository must neither turn them on nor widen what leaves the machine.
  'inference.suggestions.enabled', 'inference.suggestions.debounceMs', 'inference.suggestions.excludedFiles',
  'inference.suggestions.maxFileSizeKB', 'inference.suggestions.allowInUntrustedWorkspaces', 'inference.suggestions.dailyBudgetCredits',
] as const satisfies readonly SettingId[];

function isUserLevel(id: SettingId): boolean {
  return (USER_LEVEL_SETTINGS as readonly SettingId[]).includes(id);
}

/**
 * The value as the user set it (undefined when not set), before any fallback: what the settings
 * check validates. User-level settings come from the user's settings only; the code's default, not
 * the configuration's (which other extensions can contribute), stands for "not set". Readers of several
 * settings pass one `configuration`: each `getConfiguration()` builds a merged view of every layer.
 */
export function readRawSetting(id: SettingId, configuration: vscode.WorkspaceConfiguration = vscode.workspace.getConfiguration()): unknown {
  if (isUserLevel(id)) return configuration.inspect(id)?.globalValue;
  const inspected = configuration.inspect(id);
  return inspected?.workspaceFolderValue ?? inspected?.workspaceValue ?? inspected?.globalValue;
}

/** The one typed way to read settings; falls back to the documented default when a value has the wrong type. */
export function readSetting<K extends SettingId>(id: K): SettingTypes[K] {
  const fallback = SETTING_DEFAULTS[id];
  const value = isUserLevel(id) ? readRawSetting(id) ?? fallback : vscode.workspace.getConfiguration().get<unknown>(id, fallback);
  // Settings whose default is null ("not set") take any value; their reader validates it.
  if (fallback === null) return (value ?? null) as SettingTypes[K];
  if (typeof value !== typeof fallback || value === null) return fallback;
  return value as SettingTypes[K];
}

export async function writeSetting<K extends SettingId>(id: K, value: SettingTypes[K]): Promise<void> {
  await vscode.workspace.getConfiguration().update(id, value, vscode.ConfigurationTarget.Global);
}

export function affectsSetting(event: vscode.ConfigurationChangeEvent, ...ids: SettingId[]): boolean {
  return ids.some((id) => event.affectsConfiguration(id));
}
