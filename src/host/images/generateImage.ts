import vscode = require('vscode');
import type { ImageInputs } from '../../core/images/imageJob';
import { runImageGeneration, type GenerationOutcome as Outcome, type SavedImage as Saved } from '../../core/images/imageGeneration';
import { servicesMeter, type MeterServices } from '../shared/billingMeter';
import type { Services } from '../shared/services';
import { writeImageWithSidecar, type WrittenImage } from './imageWriter';
import { askForFolder, resolveSaveTarget, type ChooseFolder } from './saveTarget';

export type SavedImage = Saved<WrittenImage>;
export type GenerationOutcome = Outcome<WrittenImage>;

export interface GenerateOptions {
  /** Defaults to the active environment. */
  env?: string;
  /** Cancels like the notification's Cancel button. */
  token?: vscode.CancellationToken;
  /** Asked when no folder is open; the interactive question by default. */
  chooseFolder?: ChooseFolder;
  /** Save into this folder (inside a workspace folder) instead of the `inference.images.folder` setting. */
  folder?: vscode.Uri;
  /** Open the first image in VS Code's image preview (default true). */
  open?: boolean;
}

const WHO = 'Image generation';

/** The image client (api), the active environment, the log and the meter the call is billed by. */
export type GenerateImageServices = MeterServices & Pick<Services, 'api' | 'environments' | 'log'>;

/**
 * One generation (core/images/imageGeneration.ts decides its steps) on VS Code: the save target from
 * the workspace, the request under a cancellable progress notification, the files through the
 * workspace file system, and the first image opened.
 */
export async function generateImage(services: GenerateImageServices, inputs: ImageInputs, options: GenerateOptions = {}): Promise<GenerationOutcome> {
  const env = options.env ?? services.environments.active().name;
  const outcome = await runImageGeneration({
    resolveTarget: () => resolveSaveTarget(options.chooseFolder ?? askForFolder, options.folder),
    withProgress: (run) => vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Generating image'), cancellable: true },
      async (progress, progressToken) => {
        const abort = new AbortController();
        const subscriptions = [progressToken, options.token].map((token) => token?.onCancellationRequested(() => abort.abort()));
        if (options.token?.isCancellationRequested) abort.abort();
        try {
          return await run((message) => progress.report({ message }), abort.signal);
        } finally {
          for (const subscription of subscriptions) subscription?.dispose();
        }
      },
    ),
    meter: servicesMeter(services, WHO),
    generate: async (envName, request, signal) => {
      const client = await services.api.client(envName, undefined, 'image');
      return services.api.withRateLimitRetry('image generation', () => client.generateImage(request, { signal }), signal);
    },
    write: writeImageWithSidecar,
    describe: (written) => written.image.toString(true),
    log: services.log,
  }, inputs, env);
  if (outcome.status === 'saved' && options.open !== false && outcome.images[0]) await vscode.commands.executeCommand('vscode.open', outcome.images[0].image);
  return outcome;
}
