import vscode = require('vscode');
import { importKeys } from '../../core/account/keyImport';
import { checkApiKeyFormat } from '../../core/api/apiKey';
import { toApiError } from '../../core/api/errors';
import { chooseEnvironment, type ChooseEnvironmentServices } from './chooseEnvironment';
import type { Services } from '../shared/services';

/** The API key commands: set (checked with the service first), clear, and import from the environment; storage itself is apiKeyStore.ts. */

/** Set API Key checks the settings and the key's format, verifies the key with a model list, then stores it. */
export type SetApiKeyServices = Pick<Services, 'environments' | 'settings' | 'log' | 'errors' | 'api' | 'models' | 'keys'>;
export type ClearApiKeyServices = ChooseEnvironmentServices & Pick<Services, 'keys' | 'log'>;
export type ImportKeysServices = Pick<Services, 'environments' | 'keys' | 'log'>;

/**
 * Asks for a key (masked), checks it locally, then verifies it with one GET /models before saving.
 * A refused key leaves the stored one in place. With no environment at all, the Set API Key command
 * runs Add Environment instead (accountCommands.ts), which comes back here for the key.
 */
export async function setApiKey(services: SetApiKeyServices, envName?: string, providedKey?: string, title?: string): Promise<boolean> {
  const env = envName ? services.environments.get(envName) : services.environments.active();
  if (!env) return false;
  const problem = services.settings.blocking('other', env.name);
  if (problem) {
    // The key would be checked against an address the settings do not allow: say why, ask nothing.
    services.log.warn(`Set API Key for ${env.name}: not asked for, ${problem.message}`);
    services.settings.tell(problem);
    return false;
  }
  const input = providedKey ?? await vscode.window.showInputBox({
    title: title ?? vscode.l10n.t('API key for {0}', env.label),
    prompt: vscode.l10n.t("Paste the key created in the service's web app (Settings → API keys) for the {0} environment.", env.label),
    password: true,
    ignoreFocusOut: true,
    placeHolder: env.keyPrefix ? `${env.keyPrefix}…` : vscode.l10n.t('API key'),
    validateInput: (value) => (value.trim() ? checkApiKeyFormat(value.trim(), env.keyPrefix)?.message : vscode.l10n.t('The key cannot be empty.')),
  });
  const key = input?.trim();
  if (!key) return false;
  const formatProblem = checkApiKeyFormat(key, env.keyPrefix);
  if (formatProblem) {
    await services.errors.present(formatProblem, { source: 'key check', env: env.name });
    return false;
  }
  const verified = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Checking the key with {0}…', env.label) },
    async () => {
      try {
        const client = await services.api.client(env.name, key);
        const { models } = await client.listModels({ type: 'chat' });
        await services.models.remember(env.name, 'chat', models.map((model) => model.id), key);
        return { ok: true as const, count: models.length };
      } catch (error) {
        return { ok: false as const, error: toApiError(error) };
      }
    },
  );
  if (!verified.ok) {
    const { error } = verified;
    const hadKey = await services.keys.has(env.name);
    const kept = hadKey ? vscode.l10n.t('The previous key was kept.') : vscode.l10n.t('No key was saved.');
    if (['unauthorized', 'invalidKey', 'notFound', 'notConfigured'].includes(error.kind)) {
      // One notification says both what the service said and what happened to the key.
      await services.errors.present(error, { source: `key check (not saved for ${env.name})`, env: env.name, detail: vscode.l10n.t('The key was not saved for {0}. {1}', env.label, kept) });
      return false;
    }
    const saveAnyway = vscode.l10n.t('Save Anyway');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('Could not verify the key with {0}: {1} Save it anyway?', env.label, error.message),
      { modal: false },
      saveAnyway,
    );
    if (choice !== saveAnyway) return false;
  }
  // The key is bound to the origin it was checked with: it is never sent elsewhere without the user's consent.
  await services.keys.set(env.name, key, env.origins);
  services.log.info(`API key saved for ${env.name}, bound to ${env.origins?.join(', ') ?? 'no origin'}${verified.ok ? ` (verified: ${verified.count} chat models)` : ' (not verified)'}`);
  void vscode.window.showInformationMessage(verified.ok
    ? vscode.l10n.t('API key saved for {0}: {1} chat models available.', env.label, verified.count)
    : vscode.l10n.t('API key saved for {0}.', env.label));
  return true;
}

export async function clearApiKey(services: ClearApiKeyServices): Promise<void> {
  const env = await chooseEnvironment(services, vscode.l10n.t('Clear the API key of which environment?'));
  if (!env) return;
  const removeKey = vscode.l10n.t('Remove Key');
  const confirm = await vscode.window.showWarningMessage(vscode.l10n.t('Remove the API key stored for {0}?', env.label), { modal: true }, removeKey);
  if (confirm !== removeKey) return;
  await services.keys.clear(env.name);
  services.log.info(`API key cleared for ${env.name}`);
}

/** INFERENCE_API_KEY_<ENV> variables into SecretStorage (core/account/keyImport.ts decides which). */
export async function importKeysFromEnvironment(
  services: ImportKeysServices,
  variables: NodeJS.ProcessEnv = process.env,
  read: (env: string) => Promise<string | undefined> = (env) => services.keys.get(env),
): Promise<string[]> {
  return importKeys(services, variables, read);
}
