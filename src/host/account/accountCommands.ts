import vscode = require('vscode');
import { formatCredits } from '../../core/credits';
import { hostLines } from '../../core/account/hostLines';
import { isApiError } from '../../core/api/errors';
import { addEnvironment, type AddEnvironmentServices } from './addEnvironment';
import { clearApiKey, setApiKey, type ClearApiKeyServices, type SetApiKeyServices } from './apiKeyCommands';
import { chooseEnvironment, type ChooseEnvironmentServices } from './chooseEnvironment';
import type { Registered } from '../shared/disposable';
import { describeAge } from '../shared/format';
import type { Environment } from '../shared/environments';
import type { Services } from '../shared/services';

/** The account commands (environment, model, balance, request id, the account menu) and their registration. */

/** What each command reads of the extension's services (the composition root passes them all). */
export type SwitchToServices = SetApiKeyServices & Pick<Services, 'environments' | 'log' | 'settings' | 'keys'>;
export type SwitchEnvironmentServices = AddEnvironmentServices & ChooseEnvironmentServices & SwitchToServices;
export type PickModelServices = Pick<Services, 'settings' | 'environments' | 'models' | 'errors'>;
export type RefreshAccountServices = Pick<Services, 'environments' | 'models' | 'errors' | 'account' | 'log'>;
export type HostHealthServices = Pick<Services, 'api' | 'account'>;
export type AccountMenuServices = HostHealthServices & Pick<Services, 'environments' | 'keys' | 'models'>;
export type AccountCommandsServices = SwitchEnvironmentServices & ClearApiKeyServices & PickModelServices & RefreshAccountServices & AccountMenuServices;

export async function switchEnvironment(services: SwitchEnvironmentServices): Promise<void> {
  if (services.environments.all().length === 0) {
    await addEnvironment(services);
    return;
  }
  const env = await chooseEnvironment(services, vscode.l10n.t('Switch environment'), () => addEnvironment(services));
  if (!env || env.name === services.environments.active().name) return;
  await switchTo(services, env.name);
}

/**
 * Makes the environment the active one and says what it still needs: first a settings problem that
 * stops its requests (asking for a key it could not use would point the wrong way), then a key.
 */
export async function switchTo(services: SwitchToServices, envName: string): Promise<void> {
  await services.environments.activate(envName);
  services.log.info(`Active environment: ${envName}`);
  const env = services.environments.active();
  const problem = services.settings.blocking('other', env.name);
  if (problem) {
    services.settings.tell(problem);
    return;
  }
  if (!(await services.keys.has(env.name))) {
    const setKey = vscode.l10n.t('Set API Key');
    const choice = await vscode.window.showInformationMessage(vscode.l10n.t('No API key is set for {0}.', env.label), setKey);
    if (choice === setKey) await setApiKey(services, env.name);
  }
}

/** Set API Key with nowhere to send a key yet: the guided set-up asks for the address first, then the key. */
async function setApiKeyOrAddEnvironment(services: AddEnvironmentServices): Promise<unknown> {
  return services.environments.all().length === 0 ? addEnvironment(services) : setApiKey(services);
}

export async function pickModel(services: PickModelServices): Promise<void> {
  // The list could not be asked for: say why before a picker opens, not after it closes.
  const problem = services.settings.blocking('other', services.environments.active().name);
  if (problem) {
    services.settings.tell(problem);
    return;
  }
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
export async function refreshAccount(services: RefreshAccountServices): Promise<string | undefined> {
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

export async function copyLastRequestId(services: Pick<Services, 'account' | 'environments'>): Promise<void> {
  const id = services.account.get(services.environments.active().name).lastRequestId;
  if (!id) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No request has been made in this environment yet.'));
    return;
  }
  await vscode.env.clipboard.writeText(id);
  void vscode.window.showInformationMessage(vscode.l10n.t('Copied request ID {0}.', id));
}

/** The account menu's host lines (core/account/hostLines.ts) from this window's host health and the last response. */
export function describeHosts(services: HostHealthServices, env: Environment, now = Date.now()): string[] {
  return hostLines(env.origins, services.api.hostStates(env.name) ?? [], services.account.get(env.name).lastHost, now);
}

export async function showAccountMenu(services: AccountMenuServices): Promise<void> {
  const env = services.environments.active();
  const hasKey = await services.keys.has(env.name);
  const hosts = describeHosts(services, env);
  const items: Array<vscode.QuickPickItem & { command: string }> = [
    { label: `$(server-environment) ${vscode.l10n.t('Switch Environment…')}`, description: env.label, command: 'inference.switchEnvironment' },
    { label: `$(add) ${vscode.l10n.t('Add Environment…')}`, description: vscode.l10n.t('name, address and key'), command: 'inference.addEnvironment' },
    { label: `$(key) ${vscode.l10n.t('Set API Key…')}`, description: hasKey ? vscode.l10n.t('replace the stored key') : vscode.l10n.t('no key set'), command: 'inference.setApiKey' },
    ...(hasKey ? [{ label: `$(trash) ${vscode.l10n.t('Clear API Key…')}`, command: 'inference.clearApiKey' }] : []),
    { label: `$(hubot) ${vscode.l10n.t('Pick Chat Model…')}`, description: services.models.selectedChatModel() ?? vscode.l10n.t('none'), command: 'inference.pickModel' },
    { label: `$(refresh) ${vscode.l10n.t('Refresh Balance')}`, command: 'inference.refreshAccount' },
    { label: `$(copy) ${vscode.l10n.t('Copy Last Request ID')}`, command: 'inference.copyLastRequestId' },
    // The hosts' health in this window; picking it opens the log, where each failover is written with its reason.
    ...(hosts.length > 0 ? [{ label: `$(pulse) ${vscode.l10n.t('Hosts')}`, description: hosts.join(' · '), detail: hosts.join('\n'), command: 'inference.showLogs' }] : []),
    { label: `$(graph) ${vscode.l10n.t('Show Usage')}`, description: vscode.l10n.t('spend per day, most expensive requests'), command: 'inference.showUsage' },
    { label: `$(output) ${vscode.l10n.t('Open Logs')}`, command: 'inference.showLogs' },
    { label: `$(rocket) ${vscode.l10n.t('Get Started…')}`, description: vscode.l10n.t('walkthrough'), command: 'inference.getStarted' },
  ];
  const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Inference: {0}', env.label) });
  if (picked) await vscode.commands.executeCommand(picked.command);
}

export function registerAccountCommands(services: AccountCommandsServices): Registered {
  const guard = (source: string, run: () => Promise<unknown>) => async () => {
    try {
      await run();
    } catch (error) {
      if (!isApiError(error) || error.kind !== 'cancelled') await services.errors.present(error, { source });
    }
  };
  return vscode.Disposable.from(
    vscode.commands.registerCommand('inference.setApiKey', guard('set API key', () => setApiKeyOrAddEnvironment(services))),
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
