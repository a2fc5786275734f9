import vscode = require('vscode');
import { toApiError, type ApiError } from '../../core/api/errors';
import { extensionForMimeType, fileNameFromPrompt } from '../../core/images/fileNames';
import { buildSidecar, toImageRequest, type ImageInputs } from '../../core/images/imageJob';
import type { ImageResult } from '../../core/api/types';
import { BilledCall } from '../../core/usage/billedCall';
import { servicesMeter, type MeterServices } from '../shared/billingMeter';
import type { Services } from '../shared/services';
import { writeImageWithSidecar, type WrittenImage } from './imageWriter';
import { askForFolder, resolveSaveTarget, type ChooseFolder } from './saveTarget';

export interface SavedImage extends WrittenImage {
  mimeType: string;
  bytes: number;
}

export type GenerationOutcome =
  | { status: 'saved'; images: SavedImage[]; result: ImageResult; creditsSpent?: number }
  /** Nothing was requested: saving here is not allowed (untrusted, read-only, bad folder setting). */
  | { status: 'refused'; reason: string; fix?: 'trust' | 'settings' }
  /** Nothing was requested: no folder is open and the user chose none. */
  | { status: 'noFolder' }
  | { status: 'cancelled' }
  /** The service (or the connection) failed; nothing was written. */
  | { status: 'failed'; error: ApiError }
  /** The image was generated (and charged) but could not be written. */
  | { status: 'saveFailed'; message: string; result: ImageResult };

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

/** `spent`: what the call cost, unless it could not be measured; `overlapped`: because another call of the wallet ran meanwhile. */
type RequestOutcome = { status: 'ok'; result: ImageResult; spent: number | undefined } | { status: 'cancelled' } | { status: 'failed'; error: ApiError };

const WHO = 'Image generation';

/** The image client (api), the active environment, the log and the meter the call is billed by. */
export type GenerateImageServices = MeterServices & Pick<Services, 'api' | 'environments' | 'log'>;

/**
 * One generation, start to end: decide where it will be saved (before spending credits), request it
 * under a cancellable progress notification, write image + sidecar without overwriting anything, and
 * open it. Errors are returned, not shown: the command decides how to present them.
 */
export async function generateImage(services: GenerateImageServices, inputs: ImageInputs, options: GenerateOptions = {}): Promise<GenerationOutcome> {
  const env = options.env ?? services.environments.active().name;
  const resolution = await resolveSaveTarget(options.chooseFolder ?? askForFolder, options.folder);
  if (!resolution.ok) {
    if (resolution.reason === undefined) return { status: 'noFolder' };
    services.log.warn(`Image generation refused: ${resolution.reason}`);
    return { status: 'refused', reason: resolution.reason, ...(resolution.fix && { fix: resolution.fix }) };
  }
  const { target } = resolution;

  const requested = await vscode.window.withProgress<RequestOutcome>(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Generating image'), cancellable: true },
    async (progress, progressToken) => {
      progress.report({ message: `${inputs.model}: ${inputs.prompt.length > 60 ? `${inputs.prompt.slice(0, 59)}…` : inputs.prompt}` });
      const abort = new AbortController();
      const subscriptions = [progressToken, options.token].map((token) => token?.onCancellationRequested(() => abort.abort()));
      if (options.token?.isCancellationRequested) abort.abort();
      let call: BilledCall | undefined;
      try {
        // Open until the response, whose balance header is the balance after the charge; a spending limit refuses here.
        call = await BilledCall.open(servicesMeter(services, WHO), WHO, env);
        const client = await services.api.client(env, undefined, 'image');
        const result = await services.api.withRateLimitRetry(
          'image generation',
          () => client.generateImage(toImageRequest(inputs), { signal: abort.signal }),
          abort.signal,
        );
        progress.report({ message: vscode.l10n.t('saving…') });
        // Billed whether or not the files can be written: recorded before saving.
        const { balanceCredits } = result.meta;
        const record = { requestId: result.meta.requestId ?? '', model: result.meta.modelId ?? inputs.model, environment: env, kind: 'image' as const };
        const spend = call.billed(record, balanceCredits === undefined ? undefined : { credits: balanceCredits, at: Date.now() });
        return { status: 'ok', result, spent: 'credits' in spend ? spend.credits : undefined };
      } catch (error) {
        const apiError = toApiError(error);
        return apiError.kind === 'cancelled' || abort.signal.aborted ? { status: 'cancelled' } : { status: 'failed', error: apiError };
      } finally {
        for (const subscription of subscriptions) subscription?.dispose();
        // Refused, failed or cancelled before the response: nothing was billed (nothing after billed()).
        call?.notBilled();
      }
    },
  );
  if (requested.status === 'cancelled') services.log.info('Image generation cancelled');
  if (requested.status !== 'ok') return requested;
  const { result, spent } = requested;

  const images: SavedImage[] = [];
  try {
    const baseName = fileNameFromPrompt(inputs.prompt);
    for (const [index, image] of result.images.entries()) {
      const sidecar = buildSidecar({ inputs, meta: result.meta, environment: env, mimeType: image.mimeType, creditsSpent: spent, index, bytes: image.bytes });
      const written = await writeImageWithSidecar(target, baseName, extensionForMimeType(image.mimeType), image.bytes, () =>
        new TextEncoder().encode(`${JSON.stringify(sidecar, null, 2)}\n`),
      );
      images.push({ ...written, mimeType: image.mimeType, bytes: image.bytes.length });
      services.log.info(`Image saved: ${written.image.toString(true)} (request ${result.meta.requestId ?? 'without id'}, model ${result.meta.modelId ?? inputs.model})`);
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    services.log.error(`Image generated (request ${result.meta.requestId ?? 'without id'}) but not saved: ${message}`);
    return { status: 'saveFailed', message, result };
  }
  if (options.open !== false && images[0]) await vscode.commands.executeCommand('vscode.open', images[0].image);
  return { status: 'saved', images, result, ...(spent !== undefined && { creditsSpent: spent }) };
}
