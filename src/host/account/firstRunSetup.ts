import vscode = require('vscode');
import { addEnvironment } from './addEnvironment';
import { setApiKey } from './apiKeyCommands';
import { switchEnvironment, type SwitchEnvironmentServices } from './accountCommands';
import type { Services } from '../shared/services';

/** The offer reads whether it was shown (global state) and what is configured, then runs the command chosen. */
export type FirstRunServices = SwitchEnvironmentServices & Pick<Services, 'globalState' | 'environments' | 'keys'>;

const FIRST_RUN_KEY = 'inference.firstRunPromptShown';

/** The one set-up prompt a new user sees, once: what to offer depends on what is already configured. */
export async function offerFirstRunSetup(services: FirstRunServices): Promise<void> {
  const env = services.environments.active();
  if (services.globalState.get<boolean>(FIRST_RUN_KEY)) return;
  if (services.environments.all().length === 0) {
    // A clean first run: nothing is configured, so the one thing to offer is the guided set-up.
    await services.globalState.update(FIRST_RUN_KEY, true);
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
  await services.globalState.update(FIRST_RUN_KEY, true);
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
