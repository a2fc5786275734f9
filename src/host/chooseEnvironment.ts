import vscode = require('vscode');
import { addEnvironment } from './addEnvironment';
import type { Environment } from './environments';
import type { Services } from './services';

/** The user's environments; with `offerAdd`, also Add Environment (which runs and returns the new one). */
export async function chooseEnvironment(services: Services, title: string, offerAdd = false): Promise<Environment | undefined> {
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
