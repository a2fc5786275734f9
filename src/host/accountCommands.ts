import * as vscode from 'vscode';
import { apiKeyVariableName, checkApiKeyFormat } from '../core/apiKey';
import { ApiError, isApiError, toApiError } from '../core/errors';
import { addEnvironment } from './addEnvironment';
import type { Environment } from './environments';
import { formatCredits } from '../core/credits';
import { describeAge } from './format';
import type { Services } from './services';

/** The user's environments; with `offerAdd`, also Add Environment (which runs and returns the new one). */
async function chooseEnvironment(services: Services, title: string, offerAdd = false): Promise<Environment | undefined> {
  const active = services.environments.active();
  const items: Array<vscode.QuickPickItem & { env?: Environment }> = await Promise.all(services.environments.all().map(async (env) => ({
    label: env.label,
    env,
    description: [env.name === active.name ? vscode.l10n.t('active') : '', (await services.keys.has(env.name)) ? vscode.l10n.t('key set') : vscode.l10n.t('no key'), env.problem ? vscode.l10n.t('setting problem') : ''].filter(Boolean).join(' · '),
    detail: env.baseUrl || vscode.l10n.t('no base URL configured'),
  })));
  const addItem = `$(add) ${vscode.l10n.t('Add Environment…')}`;
  if (offerAdd) items.push({ label: addItem, description: vscode.l10n.t('name, address and key') });
  if (items.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No environment is configured yet. Run "Inference: Add Environment".'));
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(items, { title, placeHolder: vscode.l10n.t('Environment') });
  if (picked?.label === addItem) {
    const added = await addEnvironment(services);
    return added ? services.environments.get(added) : undefined;
  }
  return picked?.env;
}

/**
 * Asks for a key (masked), checks it locally, then verifies it with one GET /models before saving.
 * A refused key leaves the stored one in place.
 */
export async function setApiKey(services: Services, envName?: string, providedKey?: string, title?: string): Promise<boolean> {
  if (!envName && services.environments.all().length === 0) {
    // Nowhere to send a key yet: the guided set-up asks for the address first, then comes back here.
    return (await addEnvironment(services, { ...(providedKey !== undefined && { key: providedKey }) })) !== undefined;
  }
  const env = envName ? services.environments.get(envName) : services.environments.active();
  if (!env) return false;
  if (env.problem) {
    // The key would be checked against an address the settings do not allow: say why, ask nothing.
    void services.errors.present(new ApiError('notConfigured', env.problem.message), { source: 'key check', env: env.name });
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
    void services.errors.present(formatProblem, { source: 'key check', env: env.name });
    return false;
  }
  const verified = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Checking the key with {0}…', env.label) },
    async () => {
      try {
        const client = await services.api.client(env.name, key);
        const { models } = await client.listModels({ type: 'chat' });
        await services.models.remember(env.name, 'chat', models.map((model) => model.id));
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
      void services.errors.present(error, { source: `key check (not saved for ${env.name})`, env: env.name, detail: vscode.l10n.t('The key was not saved for {0}. {1}', env.label, kept) });
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
  await services.keys.set(env.name, key, env.origin);
  services.log.info(`API key saved for ${env.name}, bound to ${env.origin ?? 'no origin'}${verified.ok ? ` (verified: ${verified.count} chat models)` : ' (not verified)'}`);
  void vscode.window.showInformationMessage(verified.ok
    ? vscode.l10n.t('API key saved for {0}: {1} chat models available.', env.label, verified.count)
    : vscode.l10n.t('API key saved for {0}.', env.label));
  return true;
}

export async function clearApiKey(services: Services): Promise<void> {
  const env = await chooseEnvironment(services, vscode.l10n.t('Clear the API key of which environment?'));
  if (!env) return;
  const removeKey = vscode.l10n.t('Remove Key');
  const confirm = await vscode.window.showWarningMessage(vscode.l10n.t('Remove the API key stored for {0}?', env.label), { modal: true }, removeKey);
  if (confirm !== removeKey) return;
  await services.keys.clear(env.name);
  services.log.info(`API key cleared for ${env.name}`);
}

export async function switchEnvironment(services: Services): Promise<void> {
  if (services.environments.all().length === 0) {
    await addEnvironment(services);
    return;
  }
  const env = await chooseEnvironment(services, vscode.l10n.t('Switch environment'), true);
  if (!env || env.name === services.environments.active().name) return;
  await services.environments.activate(env.name);
  services.log.info(`Active environment: ${env.name}`);
  if (!(await services.keys.has(env.name))) {
    const setKey = vscode.l10n.t('Set API Key');
    const choice = await vscode.window.showInformationMessage(vscode.l10n.t('No API key is set for {0}.', env.label), setKey);
    if (choice === setKey) await setApiKey(services, env.name);
  }
}

export async function pickModel(services: Services): Promise<void> {
  try {
    await services.models.pickChatModel();
  } catch (error) {
    await services.errors.present(error, { source: 'model list', retry: () => pickModel(services) });
  }
}

/**
 * Refreshes balance and rate limit with a model-list call. The contract promises the balance header
 * on chat and image calls only, so when the list carries none the user is told how old the shown
 * balance is and when it will refresh. Returns that notice (undefined when the balance is fresh).
 */
export async function refreshAccount(services: Services): Promise<string | undefined> {
  const env = services.environments.active();
  const startedAt = Date.now();
  try {
    await services.models.list('chat', env.name, { refresh: true });
  } catch (error) {
    await services.errors.present(error, { source: 'account refresh', retry: () => refreshAccount(services) });
    return undefined;
  }
  const { balanceCredits, balanceAt } = services.account.get(env.name);
  if (balanceAt !== undefined && balanceAt >= startedAt) return undefined;
  const notice = balanceCredits === undefined || balanceAt === undefined
    ? `${env.label} did not report a balance with the model list, and none is known yet. It appears with the next chat or image call.`
    : `${env.label} did not report a balance with the model list. The balance shown, ${formatCredits(balanceCredits)} credits, is from ${describeAge(balanceAt)} (${new Date(balanceAt).toLocaleString()}); it refreshes with the next chat or image call.`;
  services.log.info(`Refresh balance: ${notice}`);
  void vscode.window.showInformationMessage(notice);
  return notice;
}

export async function copyLastRequestId(services: Services): Promise<void> {
  const id = services.account.get(services.environments.active().name).lastRequestId;
  if (!id) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No request has been made in this environment yet.'));
    return;
  }
  await vscode.env.clipboard.writeText(id);
  void vscode.window.showInformationMessage(vscode.l10n.t('Copied request ID {0}.', id));
}

export async function showAccountMenu(services: Services): Promise<void> {
  const env = services.environments.active();
  const hasKey = await services.keys.has(env.name);
  const items: Array<vscode.QuickPickItem & { command: string }> = [
    { label: `$(server-environment) ${vscode.l10n.t('Switch Environment…')}`, description: env.label, command: 'inference.switchEnvironment' },
    { label: `$(add) ${vscode.l10n.t('Add Environment…')}`, description: vscode.l10n.t('name, address and key'), command: 'inference.addEnvironment' },
    { label: `$(key) ${vscode.l10n.t('Set API Key…')}`, description: hasKey ? vscode.l10n.t('replace the stored key') : vscode.l10n.t('no key set'), command: 'inference.setApiKey' },
    ...(hasKey ? [{ label: `$(trash) ${vscode.l10n.t('Clear API Key…')}`, command: 'inference.clearApiKey' }] : []),
    { label: `$(hubot) ${vscode.l10n.t('Pick Chat Model…')}`, description: services.models.selectedChatModel() ?? vscode.l10n.t('none'), command: 'inference.pickModel' },
    { label: `$(refresh) ${vscode.l10n.t('Refresh Balance')}`, command: 'inference.refreshAccount' },
    { label: `$(copy) ${vscode.l10n.t('Copy Last Request ID')}`, command: 'inference.copyLastRequestId' },
    { label: `$(graph) ${vscode.l10n.t('Show Usage')}`, description: vscode.l10n.t('spend per day, most expensive requests'), command: 'inference.showUsage' },
    { label: `$(output) ${vscode.l10n.t('Open Logs')}`, command: 'inference.showLogs' },
    { label: `$(rocket) ${vscode.l10n.t('Get Started…')}`, description: vscode.l10n.t('walkthrough'), command: 'inference.getStarted' },
  ];
  const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Inference: {0}', env.label) });
  if (picked) await vscode.commands.executeCommand(picked.command);
}

/**
 * Automation hands keys over as INFERENCE_API_KEY_<ENV>; they are moved into SecretStorage once, not read per call.
 * Only for the user's own environments (a workspace cannot define one), each bound to its current origin.
 */
export async function importKeysFromEnvironment(services: Services, variables: NodeJS.ProcessEnv = process.env): Promise<string[]> {
  const imported: string[] = [];
  for (const env of services.environments.all()) {
    if (env.problem) continue;
    const name = apiKeyVariableName(env.name);
    const key = variables[name]?.trim();
    if (!key || (await services.keys.get(env.name)) === key) continue;
    const problem = checkApiKeyFormat(key, env.keyPrefix);
    if (problem) {
      services.log.warn(`${name} was not imported: ${problem.message}`);
      continue;
    }
    await services.keys.set(env.name, key, env.origin);
    imported.push(env.name);
    services.log.info(`Imported the API key for ${env.name} from ${name}`);
  }
  return imported;
}

const FIRST_RUN_KEY = 'inference.firstRunPromptShown';

export async function offerFirstRunSetup(services: Services): Promise<void> {
  const env = services.environments.active();
  if (services.context.globalState.get<boolean>(FIRST_RUN_KEY)) return;
  if (services.environments.all().length === 0) {
    // A clean first run: nothing is configured, so the one thing to offer is the guided set-up.
    await services.context.globalState.update(FIRST_RUN_KEY, true);
    const [add, getStarted] = [vscode.l10n.t('Add Environment'), vscode.l10n.t('Get Started')];
    const choice = await vscode.window.showInformationMessage(
      vscode.l10n.t("Inference Client: add the service's address and your API key to chat and generate images."),
      add,
      getStarted,
    );
    if (choice === add) await addEnvironment(services);
    else if (choice === getStarted) await vscode.commands.executeCommand('inference.getStarted');
    return;
  }
  if (env.problem || (await services.keys.has(env.name))) return;
  await services.context.globalState.update(FIRST_RUN_KEY, true);
  const [setKey, switchEnv, getStarted] = [vscode.l10n.t('Set API Key'), vscode.l10n.t('Switch Environment'), vscode.l10n.t('Get Started')];
  const choice = await vscode.window.showInformationMessage(
    vscode.l10n.t('Inference Client: set an API key for the {0} environment to chat and generate images.', env.label),
    setKey,
    switchEnv,
    getStarted,
  );
  if (choice === setKey) await setApiKey(services);
  else if (choice === switchEnv) await switchEnvironment(services);
  else if (choice === getStarted) await vscode.commands.executeCommand('inference.getStarted');
}

export function registerAccountCommands(services: Services): vscode.Disposable {
  const guard = (source: string, run: () => Promise<unknown>) => async () => {
    try {
      await run();
    } catch (error) {
      if (!isApiError(error) || error.kind !== 'cancelled') await services.errors.present(error, { source });
    }
  };
  return vscode.Disposable.from(
    vscode.commands.registerCommand('inference.setApiKey', guard('set API key', () => setApiKey(services))),
    vscode.commands.registerCommand('inference.clearApiKey', guard('clear API key', () => clearApiKey(services))),
    vscode.commands.registerCommand('inference.switchEnvironment', guard('switch environment', () => switchEnvironment(services))),
    vscode.commands.registerCommand('inference.addEnvironment', guard('add environment', () => addEnvironment(services))),
    vscode.commands.registerCommand('inference.pickModel', guard('pick model', () => pickModel(services))),
    vscode.commands.registerCommand('inference.refreshAccount', guard('refresh balance', () => refreshAccount(services))),
    vscode.commands.registerCommand('inference.copyLastRequestId', guard('copy request ID', () => copyLastRequestId(services))),
    vscode.commands.registerCommand('inference.showAccountMenu', guard('account menu', () => showAccountMenu(services))),
    vscode.commands.registerCommand('inference.showLogs', () => services.log.show()),
  );
}
