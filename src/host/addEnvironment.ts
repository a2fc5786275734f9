import * as vscode from 'vscode';
import { checkBaseUrl, checkEnvironmentName } from '../core/settings/baseUrl';
import { setApiKey } from './accountCommands';
import type { Services } from './services';

/** Answers given up front (automation and tests); any left out is asked for. */
export interface AddEnvironmentAnswers {
  name?: string;
  baseUrl?: string;
  keyPrefix?: string;
  /** The API key; when absent the Set API Key input asks for it. */
  key?: string;
}

const TITLE = (step: number, what: string) => `Add Environment (${step}/4): ${what}`;

/**
 * The guided way to configure the service, so nobody has to edit JSON: a name, a base URL (checked
 * locally, then for reachability without any key), an optional key prefix, then the key through Set
 * API Key (verified before it is saved). Writes the user's settings only and makes the new environment active.
 * Resolves with the environment's name, or undefined when the user stopped.
 */
export async function addEnvironment(services: Services, answers: AddEnvironmentAnswers = {}): Promise<string | undefined> {
  const existing = services.environments.all().map((env) => env.name);
  const name = (answers.name ?? await vscode.window.showInputBox({
    title: TITLE(1, 'name'),
    prompt: 'A short name for this environment of the service, shown in the status bar.',
    value: existing.length === 0 ? 'production' : '',
    placeHolder: 'production, preview, local…',
    ignoreFocusOut: true,
    validateInput: (value) => checkEnvironmentName(value, existing),
  }))?.trim();
  if (!name || checkEnvironmentName(name, existing)) return undefined;

  let baseUrl: string | undefined;
  let typed = answers.baseUrl;
  for (;;) {
    typed = typed ?? await vscode.window.showInputBox({
      title: TITLE(2, 'base URL'),
      prompt: 'The address of the service, ending in /api/v1 (https; http only for this machine).',
      placeHolder: 'https://host/api/v1',
      ignoreFocusOut: true,
      validateInput: (value) => {
        const checked = checkBaseUrl(value);
        return checked.ok ? undefined : `The base URL ${checked.problem}.`;
      },
    });
    if (typed === undefined) return undefined;
    const checked = checkBaseUrl(typed);
    if (!checked.ok) {
      void vscode.window.showErrorMessage(`The base URL ${checked.problem}.`);
      return undefined;
    }
    const url = checked.baseUrl;
    const reach = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Checking that ${url} answers…` },
      () => services.api.probe(url),
    );
    services.log.info(`Add Environment: ${url}: ${reach.note}`);
    if (reach.reachable && reach.looksLikeService) {
      baseUrl = url;
      break;
    }
    if (answers.baseUrl !== undefined) {
      // Automation gets no dialog: an address that does not answer like the service is not added.
      void vscode.window.showErrorMessage(`${url} was not added: ${reach.note}.`);
      return undefined;
    }
    const choice = await vscode.window.showWarningMessage(`${url}: ${reach.note}.`, { modal: true, detail: 'You can add it anyway (for example when the service is not running yet) or change the address.' }, 'Add Anyway', 'Change Address');
    if (choice === 'Add Anyway') {
      baseUrl = url;
      break;
    }
    if (choice !== 'Change Address') return undefined;
    typed = undefined;
  }

  const keyPrefix = (answers.keyPrefix ?? await vscode.window.showInputBox({
    title: TITLE(3, 'key prefix (optional)'),
    prompt: 'The fixed beginning of this environment\'s API keys, if you know it: keys without it are refused before anything is sent. Leave empty to skip the check.',
    placeHolder: 'e.g. sk-',
    ignoreFocusOut: true,
    validateInput: (value) => (/\s/.test(value.trim()) ? 'The prefix cannot contain white space.' : undefined),
  }))?.trim();
  if (keyPrefix === undefined) return undefined;

  await services.environments.add(name, { baseUrl, ...(keyPrefix && { keyPrefix }) });
  await services.environments.activate(name);
  services.log.info(`Added environment ${name} (${baseUrl}) to the user settings; it is now active`);
  const saved = await setApiKey(services, name, answers.key, TITLE(4, 'API key'));
  if (!saved) {
    void vscode.window.showInformationMessage(`Environment "${name}" was added without a key. Set it later with "Inference: Set API Key".`);
  }
  return name;
}
