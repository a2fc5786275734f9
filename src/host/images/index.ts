import vscode = require('vscode');
import { formatCredits, SPEND_DIGITS } from '../../core/credits';
import type { Registered } from '../shared/disposable';
import type { Services } from '../shared/services';
import { generateImage, type GenerateImageServices, type GenerateOptions, type GenerationOutcome } from './generateImage';
import { ImageHistory } from './imageHistory';
import { askForInputs, askWithLastSettings, type AnsweredInputs, type ImageQuestionServices } from './imageQuestions';

async function askForWorkspaceFolder(): Promise<vscode.Uri | undefined> {
  const picked = await vscode.window.showOpenDialog({
    canSelectFiles: false,
    canSelectFolders: true,
    canSelectMany: false,
    defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
    openLabel: vscode.l10n.t('Generate Image Here'),
    title: vscode.l10n.t('Folder inside the workspace for the generated image'),
  });
  return picked?.[0];
}

export { generateImage, type GenerateOptions, type GenerationOutcome } from './generateImage';

/** Generation, its questions, the history's storage (global state), and how an outcome is told (errors; billing for Send Anyway). */
export type ImagesServices = GenerateImageServices & ImageQuestionServices & Pick<Services, 'globalState' | 'errors' | 'billing' | 'environments' | 'log'>;

/** Nothing was requested: why, as the kind of failure whose action fixes it. */
const REFUSAL_KINDS = { trust: 'untrustedWorkspace', settings: 'imageFolder', none: 'workspaceRefused' } as const;

/** What a command run ended with; `undefined` when the user cancelled a question. */
export type ImageCommandResult = GenerationOutcome | undefined;

async function showOutcome(services: ImagesServices, history: ImageHistory, env: string, answered: AnsweredInputs, outcome: GenerationOutcome, options: GenerateOptions): Promise<void> {
  const { inputs } = answered;
  switch (outcome.status) {
    case 'saved': {
      history.setFailedPrompt(env, undefined);
      await history.remember(env, inputs, answered.seedTyped);
      const names = outcome.images.map((image) => vscode.workspace.asRelativePath(image.image)).join(', ');
      const saved = outcome.creditsSpent === undefined
        ? vscode.l10n.t('Saved {0}', names)
        : vscode.l10n.t('Saved {0} ({1} credits)', names, formatCredits(outcome.creditsSpent, SPEND_DIGITS));
      vscode.window.setStatusBarMessage(`$(file-media) ${saved}`, 10_000);
      return;
    }
    case 'failed':
      // The prompt is kept: Retry runs the same inputs, and the next prompt box starts with it.
      history.setFailedPrompt(env, inputs.prompt);
      // Awaited so the command ends once the user is told (a 404 first forgets the model, which takes a moment).
      await services.errors.present(outcome.error, {
        source: 'image generation',
        env,
        retry: () => runGeneration(services, history, env, answered, options),
        sendAnyway: () => {
          services.billing.allowOnce(env);
          return runGeneration(services, history, env, answered, options);
        },
      });
      return;
    case 'saveFailed':
      // Logged by generateImage; the credits are spent, so the request id matters for support.
      services.errors.show({
        kind: 'saveFailed',
        message: vscode.l10n.t('The image was generated but could not be saved: {0}', outcome.message),
        ...(outcome.result.meta.requestId && { requestId: outcome.result.meta.requestId }),
      });
      return;
    case 'refused':
      services.errors.show({ kind: REFUSAL_KINDS[outcome.fix ?? 'none'], message: outcome.reason });
      return;
    case 'noFolder':
    case 'cancelled':
      return;
  }
}

async function runGeneration(services: ImagesServices, history: ImageHistory, env: string, answered: AnsweredInputs, options: GenerateOptions = {}): Promise<GenerationOutcome> {
  const outcome = await generateImage(services, answered.inputs, { ...options, env });
  await showOutcome(services, history, env, answered, outcome, options).catch((error: unknown) => services.log.error(`Image result not shown: ${String(error)}`));
  return outcome;
}

async function runCommand(services: ImagesServices, history: ImageHistory, ask: typeof askForInputs, folder?: vscode.Uri): Promise<ImageCommandResult> {
  const env = services.environments.active().name;
  let answered: AnsweredInputs | undefined;
  try {
    answered = await ask(services, history, env);
  } catch (error) {
    // The model list can fail (no key, wrong base URL): the shared handling offers the fix.
    await services.errors.present(error, { source: 'image generation', env });
    return undefined;
  }
  return answered ? runGeneration(services, history, env, answered, folder ? { folder } : {}) : undefined;
}

/** The image commands; the returned outcome lets tests see what a palette run did. */
export function registerImages(services: ImagesServices): Registered {
  const history = new ImageHistory(services.globalState);
  return vscode.Disposable.from(
    vscode.commands.registerCommand('inference.generateImage', () => runCommand(services, history, askForInputs)),
    vscode.commands.registerCommand('inference.generateImageWithLastSettings', () => runCommand(services, history, askWithLastSettings)),
    // The Explorer passes the folder it was invoked on; from the palette there is none, so ask for one.
    vscode.commands.registerCommand('inference.generateImageHere', async (folder?: unknown) => {
      const target = folder instanceof vscode.Uri ? folder : await askForWorkspaceFolder();
      return target ? runCommand(services, history, askForInputs, target) : undefined;
    }),
  );
}
