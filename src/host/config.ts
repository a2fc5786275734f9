import * as vscode from 'vscode';

/** One environment of the service: its own host, keys, wallet and model ids (spec section 1). */
export interface EnvironmentSettings {
  /** Ends in /api/v1. */
  baseUrl: string;
  /** The service's fixed key prefix; the spec omits it, so it is configurable and empty skips the check. */
  keyPrefix?: string;
  label?: string;
}

/** Every setting the extension reads, by full id, with its type. package.json declares the same ids and defaults. */
export interface SettingTypes {
  'inference.environments': Record<string, EnvironmentSettings>;
  'inference.activeEnvironment': string;
  'inference.balanceWarningThreshold': number;
  'inference.rateLimit.maxRetries': number;
  'inference.modelCacheMinutes': number;
  'inference.timeouts.connectSeconds': number;
  'inference.timeouts.responseSeconds': number;
  'inference.timeouts.idleSeconds': number;
  'inference.images.folder': string;
  'inference.images.sizePresets': string[];
  'inference.images.responseFormat': string;
  'inference.chat.systemPrompt': string;
  /** null: not sent, the model's default applies. */
  'inference.chat.temperature': number | null;
  'inference.chat.topP': number | null;
  'inference.chat.maxTokens': number | null;
  'inference.chat.refreshBalanceAfterAnswer': boolean;
  /** Environment name → the contract's `service_parameters` object for chat in that environment. */
  'inference.serviceParameters.byEnvironment': Record<string, unknown>;
  /** Model id → `service_parameters` for that model (wins over the environment's, key by key). */
  'inference.serviceParameters.byModel': Record<string, unknown>;
  /** 0: a free port, chosen at each start. */
  'inference.localEndpoint.port': number;
}

export type SettingId = keyof SettingTypes;

export const SETTING_DEFAULTS: Readonly<SettingTypes> = {
  'inference.environments': {
    production: { baseUrl: '', keyPrefix: '' },
    preview: { baseUrl: '', keyPrefix: '' },
  },
  'inference.activeEnvironment': 'production',
  'inference.balanceWarningThreshold': 10,
  'inference.rateLimit.maxRetries': 3,
  'inference.modelCacheMinutes': 60,
  'inference.timeouts.connectSeconds': 30,
  'inference.timeouts.responseSeconds': 600,
  'inference.timeouts.idleSeconds': 300,
  'inference.images.folder': 'images',
  'inference.images.sizePresets': ['512x512', '768x768', '1024x1024', '1024x768', '768x1024'],
  'inference.images.responseFormat': 'b64_json',
  'inference.chat.systemPrompt': '',
  'inference.chat.temperature': null,
  'inference.chat.topP': null,
  'inference.chat.maxTokens': null,
  'inference.chat.refreshBalanceAfterAnswer': true,
  'inference.serviceParameters.byEnvironment': {},
  'inference.serviceParameters.byModel': {},
  'inference.localEndpoint.port': 0,
};

/** The one typed way to read settings; falls back to the documented default when a value has the wrong type. */
export function readSetting<K extends SettingId>(id: K): SettingTypes[K] {
  const fallback = SETTING_DEFAULTS[id];
  const value = vscode.workspace.getConfiguration().get<unknown>(id, fallback);
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
