import vscode = require('vscode');
import { checkAlternateBaseUrl, checkBaseUrl } from '../../core/api/baseUrl';
import { checkEnvironmentName } from '../../core/settings/environmentName';
import { setApiKey, type SetApiKeyServices } from './apiKeyCommands';
import type { Services } from '../shared/services';

/** Answers given up front (automation and tests); any left out is asked for. */
export interface AddEnvironmentAnswers {
  name?: string;
  baseUrl?: string;
  /** Alternate base URLs (equivalent hosts); [] for none. */
  baseUrls?: string[];
  keyPrefix?: string;
  /** The API key; when absent the Set API Key input asks for it. */
  key?: string;
}

/** Add Environment probes the addresses, writes the environment and hands over to Set API Key. */
export type AddEnvironmentServices = SetApiKeyServices & Pick<Services, 'environments' | 'api' | 'log'>;

const TITLE = (step: number, what: string) => vscode.l10n.t('Add Environment ({0}/5): {1}', step, what);

/**
 * The guided way to configure the service, so nobody has to edit JSON: a name, a base URL (checked
 * locally, then for reachability without any key), optional alternate base URLs (each checked the same
 * way), an optional key prefix, then the key through Set API Key (verified before it is saved). Writes the user's settings only and makes the new environment active.
 * Resolves with the environment's name, or undefined when the user stopped.
 */
export async function addEnvironment(services: AddEnvironmentServices, answers: AddEnvironmentAnswers = {}): Promise<string | undefined> {
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

  // Automation that gave the base URL and no alternates has none: it is not asked.
  const baseUrls = await askAlternates(services, baseUrl, answers.baseUrls ?? (answers.baseUrl !== undefined ? [] : undefined));
  if (baseUrls === undefined) return undefined;

  const keyPrefix = (answers.keyPrefix ?? await vscode.window.showInputBox({
    title: TITLE(4, vscode.l10n.t('key prefix (optional)')),
    prompt: vscode.l10n.t('The fixed beginning of this environment\'s API keys, if you know it: keys without it are refused before anything is sent. Leave empty to skip the check.'),
    placeHolder: vscode.l10n.t('e.g. sk-'),
    ignoreFocusOut: true,
    validateInput: (value) => (/\s/.test(value.trim()) ? vscode.l10n.t('The prefix cannot contain white space.') : undefined),
  }))?.trim();
  if (keyPrefix === undefined) return undefined;

  await services.environments.add(name, { baseUrl, ...(baseUrls.length > 0 && { baseUrls }), ...(keyPrefix && { keyPrefix }) });
  await services.environments.activate(name);
  services.log.info(`Added environment ${name} (${baseUrl}) to the user settings; it is now active`);
  const saved = await setApiKey(services, name, answers.key, TITLE(5, vscode.l10n.t('API key')));
  if (!saved) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Environment "{0}" was added without a key. Set it later with "Inference: Set API Key".', name));
  }
  return name;
}

/** Alternates as typed: separated by spaces or commas. */
function splitAlternates(text: string): string[] {
  return text.split(/[\s,]+/).filter(Boolean);
}

/** The first problem among typed alternates, as one sentence, or undefined. */
function alternatesProblem(primary: string, typed: readonly string[]): string | undefined {
  const taken = [new URL(primary).origin];
  for (const raw of typed) {
    const checked = checkAlternateBaseUrl(raw, primary, taken);
    if (!checked.ok) return vscode.l10n.t('The alternate base URL {0}.', checked.problem);
    taken.push(checked.origin);
  }
  return undefined;
}

/**
 * Optional alternate base URLs, each checked locally as the primary is, then that it answers (without
 * any key). Resolves with the checked URLs ([] for none), or undefined when the user stopped.
 */
async function askAlternates(services: Pick<Services, 'api' | 'log'>, primary: string, given: string[] | undefined): Promise<string[] | undefined> {
  const typed = given ?? await vscode.window.showInputBox({
    title: TITLE(3, vscode.l10n.t('alternate base URLs (optional)')),
    prompt: vscode.l10n.t('Other host names of the same service, if it has several (same path, ending in /api/v1), separated by spaces. A request moves to another host only when the service cannot have received it. Leave empty for none.'),
    placeHolder: vscode.l10n.t('https://other-host/api/v1'),
    ignoreFocusOut: true,
    validateInput: (value) => alternatesProblem(primary, splitAlternates(value)),
  }).then((text) => (text === undefined ? undefined : splitAlternates(text)));
  if (typed === undefined) return undefined;
  const problem = alternatesProblem(primary, typed);
  if (problem) {
    void vscode.window.showErrorMessage(problem);
    return undefined;
  }
  const alternates = typed.map((raw) => checkBaseUrl(raw)).flatMap((checked) => (checked.ok ? [checked.baseUrl] : []));
  for (const url of alternates) {
    const reach = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Checking that {0} answers…', url) },
      () => services.api.probe(url),
    );
    services.log.info(`Add Environment: alternate ${url}: ${reach.note}`);
    if (reach.reachable && reach.looksLikeService) continue;
    if (given !== undefined) {
      void vscode.window.showErrorMessage(vscode.l10n.t('{0} was not added: {1}.', url, reach.note));
      return undefined;
    }
    const addAnyway = vscode.l10n.t('Add Anyway');
    const choice = await vscode.window.showWarningMessage(vscode.l10n.t('{0}: {1}.', url, reach.note), { modal: true, detail: vscode.l10n.t('An alternate that does not answer is set aside when tried; you can add it anyway.') }, addAnyway);
    if (choice !== addAnyway) return undefined;
  }
  return alternates;
}
