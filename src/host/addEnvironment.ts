import vscode = require('vscode');
import { checkBaseUrl, checkEnvironmentName } from '../core/settings/baseUrl';
import { setApiKey } from './apiKeyCommands';
import type { Services } from './services';

/** Answers given up front (automation and tests); any left out is asked for. */
export interface AddEnvironmentAnswers {
  name?: string;
  baseUrl?: string;
  keyPrefix?: string;
  /** The API key; when absent the Set API Key input asks for it. */
  key?: string;
}

const TITLE = (step: number, what: string) => vscode.l10n.t('Add Environment ({0}/4): {1}', step, what);

/**
 * The guided way to configure the service, so nobody has to edit JSON: a name, a base URL (checked
 * locally, then for reachability without any key), an optional key prefix, then the key through Set
 * API Key (verified before it is saved). Writes the user's settings only and makes the new environment active.
 * Resolves with the environment's name, or undefined when the user stopped.
 */
export async function addEnvironment(services: Services, answers: AddEnvironmentAnswers = {}): Promise<string | undefined> {
  const existing = services.environments.all().map((env) => env.name);
  const name = (answers.name ?? await vscode.window.showInputBox({
    title: TITLE(1, vscode.l10n.t('name')),
    prompt: vscode.l10n.t('A short name for this environment of the service, shown in the status bar.'),
    value: existing.length === 0 ? 'production' : '',
    placeHolder: vscode.l10n.t('production, preview, local…'),
    ignoreFocusOut: true,
    validateInput: (value) => checkEnvironmentName(value, existing),
  }))?.trim();
  if (!name || checkEnvironmentName(name, existing)) return undefined;

  let baseUrl: string | undefined;
  let typed = answers.baseUrl;
  for (;;) {
    typed = typed ?? await vscode.window.showInputBox({
      title: TITLE(2, vscode.l10n.t('base URL')),
      prompt: vscode.l10n.t('The address of the service, ending in /api/v1 (https; http only for this machine).'),
      placeHolder: vscode.l10n.t('https://host/api/v1'),
      ignoreFocusOut: true,
      validateInput: (value) => {
        const checked = checkBaseUrl(value);
        return checked.ok ? undefined : vscode.l10n.t('The base URL {0}.', checked.problem);
      },
    });
    if (typed === undefined) return undefined;
    const checked = checkBaseUrl(typed);
    if (!checked.ok) {
      void vscode.window.showErrorMessage(vscode.l10n.t('The base URL {0}.', checked.problem));
      return undefined;
    }
    const url = checked.baseUrl;
    const reach = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Checking that {0} answers…', url) },
      () => services.api.probe(url),
    );
    services.log.info(`Add Environment: ${url}: ${reach.note}`);
    if (reach.reachable && reach.looksLikeService) {
      baseUrl = url;
      break;
    }
    if (answers.baseUrl !== undefined) {
      // Automation gets no dialog: an address that does not answer like the service is not added.
      void vscode.window.showErrorMessage(vscode.l10n.t('{0} was not added: {1}.', url, reach.note));
      return undefined;
    }
    const addAnyway = vscode.l10n.t('Add Anyway');
    const changeAddress = vscode.l10n.t('Change Address');
    const detail = vscode.l10n.t('You can add it anyway (for example when the service is not running yet) or change the address.');
    const choice = await vscode.window.showWarningMessage(vscode.l10n.t('{0}: {1}.', url, reach.note), { modal: true, detail }, addAnyway, changeAddress);
    if (choice === addAnyway) {
      baseUrl = url;
      break;
    }
    if (choice !== changeAddress) return undefined;
    typed = undefined;
  }

  const keyPrefix = (answers.keyPrefix ?? await vscode.window.showInputBox({
    title: TITLE(3, vscode.l10n.t('key prefix (optional)')),
    prompt: vscode.l10n.t('The fixed beginning of this environment\'s API keys, if you know it: keys without it are refused before anything is sent. Leave empty to skip the check.'),
    placeHolder: vscode.l10n.t('e.g. sk-'),
    ignoreFocusOut: true,
    validateInput: (value) => (/\s/.test(value.trim()) ? vscode.l10n.t('The prefix cannot contain white space.') : undefined),
  }))?.trim();
  if (keyPrefix === undefined) return undefined;

  await services.environments.add(name, { baseUrl, ...(keyPrefix && { keyPrefix }) });
  await services.environments.activate(name);
  services.log.info(`Added environment ${name} (${baseUrl}) to the user settings; it is now active`);
  const saved = await setApiKey(services, name, answers.key, TITLE(4, vscode.l10n.t('API key')));
  if (!saved) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Environment "{0}" was added without a key. Set it later with "Inference: Set API Key".', name));
  }
  return name;
}
