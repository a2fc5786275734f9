import * as vscode from 'vscode';
import { formatCredits, SPEND_DIGITS } from '../../core/credits';
import type { Services } from '../services';
import { generateImage, type GenerateOptions, type GenerationOutcome } from './generateImage';
import { ImageHistory } from './imageHistory';
import { askForInputs, askWithLastSettings, type AnsweredInputs } from './imageQuestions';

export { generateImage, type GenerateOptions, type GenerationOutcome } from './generateImage';

/** Nothing was requested: why, as the kind of failure whose action fixes it. */
const REFUSAL_KINDS = { trust: 'untrustedWorkspace', settings: 'imageFolder', none: 'workspaceRefused' } as const;

/** What a command run ended with; `undefined` when the user cancelled a question. */
export type ImageCommandResult = GenerationOutcome | undefined;

async function showOutcome(services: Services, history: ImageHistory, env: string, answered: AnsweredInputs, outcome: GenerationOutcome): Promise<void> {
  const { inputs } = answered;
  switch (outcome.status) {
    case 'saved': {
      history.setFailedPrompt(env, undefined);
      await history.remember(env, inputs, answered.seedTyped);
      const names = outcome.images.map((image) => vscode.workspace.asRelativePath(image.image)).join(', ');
      const cost = outcome.creditsSpent === undefined ? '' : ` (${formatCredits(outcome.creditsSpent, SPEND_DIGITS)} credits)`;
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
    case 'saveFailed':
      // Logged by generateImage; the credits are spent, so the request id matters for support.
      services.errors.show({
        kind: 'saveFailed',
        message: `The image was generated but could not be saved: ${outcome.message}`,
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
