import { apiKeyVariableName } from '../../src/core/api/apiKey';
import type { Emulator, EnvironmentName } from '../emulator';

/**
 * User settings that point the extension at the emulator's two environments (the extension has none
 * built in), production active.
 */
export function emulatorSettings(emulator: Emulator): Record<string, unknown> {
  const environment = (name: EnvironmentName) => ({ baseUrl: emulator.environments[name].baseUrl, keyPrefix: emulator.keyPrefix });
  return {
    'inference.environments': { production: environment('production'), preview: environment('preview') },
    'inference.activeEnvironment': 'production',
  };
}

/**
 * `INFERENCE_API_KEY_<ENV>` variables for code-server's environment: the extension host inherits
 * them and the extension imports them into SecretStorage at activation, so keys never touch a file.
 */
export function apiKeyEnvironment(keys: Partial<Record<string, string>>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, key] of Object.entries(keys)) {
    if (key) env[apiKeyVariableName(name)] = key;
  }
  return env;
}
