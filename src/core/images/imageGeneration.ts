import * as l10n from '@vscode/l10n';
import { toApiError, type ApiError } from '../api/errors';
import type { ImageRequest, ImageResult } from '../api/types';
import { BilledCall, type BillingMeter } from '../usage/billedCall';
import { extensionForMimeType, fileNameFromPrompt } from './fileNames';
import { buildSidecar, toImageRequest, type ImageInputs } from './imageJob';

/** Where the images will be saved, decided before anything is requested. */
export type SaveResolution<Target> =
  | { ok: true; target: Target }
  /** Saving here is not allowed; `reason` tells the user why and what to do. */
  | { ok: false; reason: string; fix?: 'trust' | 'settings' }
  /** No folder is open and the user chose none. */
  | { ok: false; reason?: undefined };

export type SavedImage<Written extends object> = Written & { mimeType: string; bytes: number };

export type GenerationOutcome<Written extends object> =
  | { status: 'saved'; images: SavedImage<Written>[]; result: ImageResult; creditsSpent?: number }
  /** Nothing was requested: saving here is not allowed (untrusted, read-only, bad folder setting). */
  | { status: 'refused'; reason: string; fix?: 'trust' | 'settings' }
  /** Nothing was requested: no folder is open and the user chose none. */
  | { status: 'noFolder' }
  | { status: 'cancelled' }
  /** The service (or the connection) failed; nothing was written. */
  | { status: 'failed'; error: ApiError }
  /** The image was generated (and charged) but could not be written. */
  | { status: 'saveFailed'; message: string; result: ImageResult };

/** What one generation uses of the editor and the extension; `Target` and `Written` are the host's folder and files. */
export interface ImageGenerationPorts<Target, Written extends object> {
  resolveTarget(): Promise<SaveResolution<Target>>;
  /** Runs the request under a cancellable progress: `report` shows a message, `signal` aborts when the user cancels. */
  withProgress<T>(run: (report: (message: string) => void, signal: AbortSignal) => Promise<T>): PromiseLike<T>;
  readonly meter: BillingMeter;
  /** Sends the request to the environment (retrying a 429 as the client's policy says). */
  generate(env: string, request: ImageRequest, signal: AbortSignal): Promise<ImageResult>;
  /** Writes an image and its sidecar without overwriting anything. */
  write(target: Target, baseName: string, extension: string, bytes: Uint8Array, sidecarFor: (imageName: string) => Uint8Array): Promise<Written>;
  /** A written image as the log names it. */
  describe(written: Written): string;
  readonly log: { info(message: string): void; warn(message: string): void; error(message: string): void };
  readonly now?: () => number;
}

const WHO = 'Image generation';
/** How much of the prompt the progress notification shows. */
const PROGRESS_PROMPT_CHARS = 60;

/** `spent`: what the call cost, unless it could not be measured. */
type RequestOutcome = { status: 'ok'; result: ImageResult; spent: number | undefined } | { status: 'cancelled' } | { status: 'failed'; error: ApiError };

/**
 * One generation, start to end: decide where it will be saved (before spending credits), request it
 * under a cancellable progress, bill it, then write image + sidecar without overwriting anything.
 * Errors are returned, not shown: the command decides how to present them.
 */
export async function runImageGeneration<Target, Written extends object>(ports: ImageGenerationPorts<Target, Written>, inputs: ImageInputs, env: string): Promise<GenerationOutcome<Written>> {
  const resolution = await ports.resolveTarget();
  if (!resolution.ok) {
    if (resolution.reason === undefined) return { status: 'noFolder' };
    ports.log.warn(`Image generation refused: ${resolution.reason}`);
    return { status: 'refused', reason: resolution.reason, ...(resolution.fix && { fix: resolution.fix }) };
  }
  const requested = await ports.withProgress((report, signal) => requestImage(ports, inputs, env, report, signal));
  if (requested.status === 'cancelled') ports.log.info('Image generation cancelled');
  if (requested.status !== 'ok') return requested;
  return saveImages(ports, resolution.target, inputs, env, requested.result, requested.spent);
}

async function requestImage<Target, Written extends object>(ports: ImageGenerationPorts<Target, Written>, inputs: ImageInputs, env: string, report: (message: string) => void, signal: AbortSignal): Promise<RequestOutcome> {
  const { prompt } = inputs;
  report(`${inputs.model}: ${prompt.length > PROGRESS_PROMPT_CHARS ? `${prompt.slice(0, PROGRESS_PROMPT_CHARS - 1)}…` : prompt}`);
  const now = ports.now ?? Date.now;
  let call: BilledCall | undefined;
  try {
    // Open until the response, whose balance header is the balance after the charge; a spending limit refuses here.
    call = await BilledCall.open(ports.meter, WHO, env, { now });
    const result = await ports.generate(env, toImageRequest(inputs), signal);
    report(l10n.t('saving…'));
    // Billed whether or not the files can be written: recorded before saving.
    const { balanceCredits } = result.meta;
    const record = { requestId: result.meta.requestId ?? '', model: result.meta.modelId ?? inputs.model, environment: env, kind: 'image' as const };
    const spend = call.billed(record, balanceCredits === undefined ? undefined : { credits: balanceCredits, at: now() });
    return { status: 'ok', result, spent: 'credits' in spend ? spend.credits : undefined };
  } catch (error) {
    const apiError = toApiError(error);
    return apiError.kind === 'cancelled' || signal.aborted ? { status: 'cancelled' } : { status: 'failed', error: apiError };
  } finally {
    // Refused, failed or cancelled before the response: nothing was billed (nothing after billed()).
    call?.notBilled();
  }
}

async function saveImages<Target, Written extends object>(
  ports: ImageGenerationPorts<Target, Written>, target: Target, inputs: ImageInputs, env: string, result: ImageResult, spent: number | undefined,
): Promise<GenerationOutcome<Written>> {
  const images: SavedImage<Written>[] = [];
  const requestId = result.meta.requestId ?? 'without id';
  try {
    const baseName = fileNameFromPrompt(inputs.prompt);
    for (const [index, image] of result.images.entries()) {
      const sidecar = buildSidecar({ inputs, meta: result.meta, environment: env, mimeType: image.mimeType, creditsSpent: spent, index, bytes: image.bytes });
      const written = await ports.write(target, baseName, extensionForMimeType(image.mimeType), image.bytes, () =>
        new TextEncoder().encode(`${JSON.stringify(sidecar, null, 2)}\n`),
      );
      images.push({ ...written, mimeType: image.mimeType, bytes: image.bytes.length });
      ports.log.info(`Image saved: ${ports.describe(written)} (request ${requestId}, model ${result.meta.modelId ?? inputs.model})`);
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    ports.log.error(`Image generated (request ${requestId}) but not saved: ${message}`);
    return { status: 'saveFailed', message, result };
  }
  return { status: 'saved', images, result, ...(spent !== undefined && { creditsSpent: spent }) };
}
