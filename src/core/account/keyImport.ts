import { apiKeyVariableName, checkApiKeyFormat } from '../api/apiKey';
import type { CheckedEnvironment } from '../settings/settingsCheck';

/** What importing keys uses: the user's environments, where keys are stored, and the log. */
export interface KeyImportServices {
  readonly environments: { all(): readonly CheckedEnvironment[] };
  readonly keys: { set(env: string, key: string, origins?: readonly string[]): Promise<void> };
  readonly log: { info(message: string): void; warn(message: string): void };
}

/**
 * Automation hands keys over as INFERENCE_API_KEY_<ENV>; they are moved into the key store once, not
 * read per call. Only for the user's own environments (a workspace cannot define one), each bound to
 * its current origins; a key the store holds already is not written again. `read`: the stored key.
 * The log names the variable, never the key. Resolves with the environments whose key was imported.
 */
export async function importKeys(
  services: KeyImportServices,
  variables: Readonly<Record<string, string | undefined>>,
  read: (env: string) => Promise<string | undefined>,
): Promise<string[]> {
  const imported: string[] = [];
  for (const env of services.environments.all()) {
    const name = apiKeyVariableName(env.name);
    const key = variables[name]?.trim();
    if (!key) continue;
    if (env.problem) {
      // Left in the variable, not bound to an address the settings refuse; the log says why.
      services.log.warn(`${name} was not imported: ${env.problem.message}`);
      continue;
    }
    if ((await read(env.name)) === key) continue;
    const problem = checkApiKeyFormat(key, env.keyPrefix);
    if (problem) {
      services.log.warn(`${name} was not imported: ${problem.message}`);
      continue;
    }
    await services.keys.set(env.name, key, env.origins);
    imported.push(env.name);
    services.log.info(`Imported the API key for ${env.name} from ${name}`);
  }
  return imported;
}
