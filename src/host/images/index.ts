import * as vscode from 'vscode';
import type { Services } from '../services';
import { generateImage, type GenerateOptions, type GenerationOutcome } from './generateImage';
import { ImageHistory } from './imageHistory';
import { askForInputs, askWithLastSettings, type AnsweredInputs } from './imageQuestions';

export { generateImage, type GenerateOptions, type GenerationOutcome } from './generateImage';

/** What a command run ended with; `undefined` when the user cancelled a question. */
export type ImageCommandResult = GenerationOutcome | undefined;

async function showOutcome(services: Services, history: ImageHistory, env: string, answered: AnsweredInputs, outcome: GenerationOutcome): Promise<void> {
  const { inputs } = answered;
  switch (outcome.status) {
    case 'saved': {
      history.setFailedPrompt(env, undefined);
      await history.remember(env, inputs, answered.seedTyped);
      const names = outcome.images.map((image) => vscode.workspace.asRelativePath(image.image)).join(', ');
      const cost = outcome.creditsSpent === undefined ? '' : ` (${outcome.creditsSpent} credits)`;
      vscode.window.setStatusBarMessage(`$(file-media) Saved ${names}${cost}`, 10_000);
      return;
    }
    case 'failed':
      // The prompt is kept: Retry runs the same inputs, and the next prompt box starts with it.
      history.setFailedPrompt(env, inputs.prompt);
      void services.errors.present(outcome.error, {
        source: 'image generation',
        env,
        retry: () => runGeneration(services, history, env, answered),
      });
      return;
    case 'saveFailed': {
      const requestId = outcome.result.meta.requestId;
      const choice = await vscode.window.showErrorMessage(
        `The image was generated${requestId ? ` (request ${requestId})` : ''} but could not be saved: ${outcome.message}`,
        'Open Logs',
      );
      if (choice === 'Open Logs') services.log.show(true);
      return;
    }
    case 'refused': {
      const action = outcome.fix === 'trust' ? 'Manage Workspace Trust' : outcome.fix === 'settings' ? 'Open Settings' : undefined;
      const choice = await vscode.window.showWarningMessage(outcome.reason, ...(action ? [action] : []));
      if (choice === 'Manage Workspace Trust') await vscode.commands.executeCommand('workbench.trust.manage');
      if (choice === 'Open Settings') await vscode.commands.executeCommand('workbench.action.openSettings', 'inference.images.folder');
      return;
    }
    case 'noFolder':
    case 'cancelled':
      return;
  }
}

async function runGeneration(services: Services, history: ImageHistory, env: string, answered: AnsweredInputs, options: GenerateOptions = {}): Promise<GenerationOutcome> {
  const outcome = await generateImage(services, answered.inputs, { ...options, env });
  await showOutcome(services, history, env, answered, outcome).catch((error: unknown) => services.log.error(`Image result not shown: ${String(error)}`));
  return outcome;
}

async function runCommand(services: Services, history: ImageHistory, ask: typeof askForInputs): Promise<ImageCommandResult> {
  const env = services.environments.active().name;
  let answered: AnsweredInputs | undefined;
  try {
    answered = await ask(services, history, env);
  } catch (error) {
    // The model list can fail (no key, wrong base URL): the shared handling offers the fix.
    void services.errors.present(error, { source: 'image generation', env });
    return undefined;
  }
  return answered ? runGeneration(services, history, env, answered) : undefined;
}

/** The image commands; the returned outcome lets tests see what a palette run did. */
export function registerImages(services: Services): vscode.Disposable {
  const history = new ImageHistory(services.context.globalState);
  return vscode.Disposable.from(
    vscode.commands.registerCommand('inference.generateImage', () => runCommand(services, history, askForInputs)),
    vscode.commands.registerCommand('inference.generateImageWithLastSettings', () => runCommand(services, history, askWithLastSettings)),
  );
}
