import vscode = require('vscode');
import type { Environment } from '../shared/environments';
import type { Services } from '../shared/services';

type EnvironmentItem = vscode.QuickPickItem & { env?: Environment };

/** What listing and choosing an environment reads: the environments, and whether each has a key. */
export type ChooseEnvironmentServices = Pick<Services, 'environments' | 'keys'>;

/**
 * One row per environment. An environment whose settings are refused shows why, in the start-up
 * warning's words, instead of its address (which the sentence names).
 */
export async function environmentItems(services: ChooseEnvironmentServices): Promise<EnvironmentItem[]> {
  const active = services.environments.active();
  return Promise.all(services.environments.all().map(async (env) => ({
    label: env.label,
    env,
    description: [env.name === active.name ? vscode.l10n.t('active') : '', (await services.keys.has(env.name)) ? vscode.l10n.t('key set') : vscode.l10n.t('no key'), env.problem ? vscode.l10n.t('setting problem') : ''].filter(Boolean).join(' · '),
    detail: env.problem ? `$(warning) ${env.problem.message}` : env.baseUrl || vscode.l10n.t('no base URL configured'),
  })));
}

/**
 * The user's environments; with `add`, also Add Environment (which runs it and returns the new one).
 * The caller passes Add Environment in, because Add Environment reaches this module through Set API Key.
 */
export async function chooseEnvironment(services: ChooseEnvironmentServices, title: string, add?: () => Promise<string | undefined>): Promise<Environment | undefined> {
  const items = await environmentItems(services);
  const addItem = `$(add) ${vscode.l10n.t('Add Environment…')}`;
  if (add) items.push({ label: addItem, description: vscode.l10n.t('name, address and key') });
  if (items.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No environment is configured yet. Run "Inference: Add Environment".'));
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(items, { title, placeHolder: vscode.l10n.t('Environment') });
  if (add && picked?.label === addItem) {
    const added = await add();
    return added ? services.environments.get(added) : undefined;
  }
  return picked?.env;
}
