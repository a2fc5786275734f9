import * as l10n from '@vscode/l10n';
import type { ImageRequest, ImageResponseFormat, ResponseMeta } from '../api/types';
import { imageDimensions } from './dimensions';

/** Everything the user chose for one generation; enough to run it again. */
export interface ImageInputs {
  prompt: string;
  /** An image model id of the environment, or `auto`. */
  model: string;
  width?: number;
  height?: number;
  seed?: number;
  negativePrompt?: string;
  responseFormat: ImageResponseFormat;
}

export const AUTO_MODEL = 'auto';

/** Largest side accepted locally; the service decides what it really supports (400 otherwise). */
export const MAX_SIDE = 16_384;

/** The largest seed sent; fits every common integer seed type of image back ends. */
export const MAX_SEED = 2 ** 31 - 1;

export function toImageRequest(inputs: ImageInputs): ImageRequest {
  const request: ImageRequest = { model: inputs.model, prompt: inputs.prompt, response_format: inputs.responseFormat };
  if (inputs.width !== undefined && inputs.height !== undefined) {
    request.width = inputs.width;
    request.height = inputs.height;
  }
  if (inputs.seed !== undefined) request.seed = inputs.seed;
  if (inputs.negativePrompt) request.negative_prompt = inputs.negativePrompt;
  return request;
}

export interface ImageSize {
  width: number;
  height: number;
}

/** A side length typed by the user: a whole number from 1 to MAX_SIDE. */
export function parseSide(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return value >= 1 && value <= MAX_SIDE ? value : undefined;
}

/** `1024x768` (also `1024 × 768`, `1024X768`) → {width, height}; anything else → undefined. */
export function parseSize(text: string): ImageSize | undefined {
  const match = /^\s*(\d+)\s*[x×X]\s*(\d+)\s*$/.exec(text);
  if (!match) return undefined;
  const width = parseSide(match[1]);
  const height = parseSide(match[2]);
  return width !== undefined && height !== undefined ? { width, height } : undefined;
}

/** The presets of the `inference.images.sizePresets` setting that parse, without duplicates. */
export function sizePresets(values: readonly unknown[]): ImageSize[] {
  const seen = new Set<string>();
  const sizes: ImageSize[] = [];
  for (const value of values) {
    const size = typeof value === 'string' ? parseSize(value) : undefined;
    if (!size || seen.has(`${size.width}x${size.height}`)) continue;
    seen.add(`${size.width}x${size.height}`);
    sizes.push(size);
  }
  return sizes;
}

/** A seed typed by the user: empty → undefined (a random one is chosen), else a whole number 0…MAX_SEED. */
export function parseSeed(text: string): { ok: true; seed?: number } | { ok: false; problem: string } {
  const trimmed = text.trim();
  if (!trimmed) return { ok: true };
  if (!/^\d+$/.test(trimmed) || Number(trimmed) > MAX_SEED) {
    return { ok: false, problem: l10n.t('The seed is a whole number from 0 to {0}, or empty for a random one.', MAX_SEED) };
  }
  return { ok: true, seed: Number(trimmed) };
}

/** The metadata written next to an image, so that the result can be reproduced. Never holds a key. */
export interface ImageSidecar {
  version: 1;
  prompt: string;
  negativePrompt: string | null;
  /** What was asked for: an id or `auto`. */
  requestedModel: string;
  /** What the service used, from `x-service-model-id`. */
  model: string | null;
  seed: number | null;
  width: number | null;
  height: number | null;
  responseFormat: ImageResponseFormat;
  mimeType: string;
  environment: string;
  requestId: string | null;
  creditsSpent: number | null;
  balanceAfter: number | null;
  /** The pixel size of the file itself, read from its header (PNG, JPEG, WebP or GIF; null when unreadable). */
  imageWidth: number | null;
  imageHeight: number | null;
  /** ISO 8601 time the response arrived. */
  createdAt: string;
  /** This image's position in the response, for responses with several images. */
  index: number;
}

export function buildSidecar(options: {
  inputs: ImageInputs;
  meta: ResponseMeta;
  environment: string;
  mimeType: string;
  /** What the generation cost, when it could be measured (generateImage.ts). */
  creditsSpent: number | undefined;
  index: number;
  bytes: Uint8Array;
}): ImageSidecar {
  const { inputs, meta } = options;
  const pixels = imageDimensions(options.bytes);
  return {
    version: 1,
    prompt: inputs.prompt,
    negativePrompt: inputs.negativePrompt || null,
    requestedModel: inputs.model,
    model: meta.modelId ?? null,
    seed: inputs.seed ?? null,
    width: inputs.width ?? null,
    height: inputs.height ?? null,
    responseFormat: inputs.responseFormat,
    mimeType: options.mimeType,
    environment: options.environment,
    requestId: meta.requestId ?? null,
    imageWidth: pixels?.width ?? null,
    imageHeight: pixels?.height ?? null,
    creditsSpent: options.creditsSpent ?? null,
    balanceAfter: meta.balanceCredits ?? null,
    createdAt: new Date(meta.receivedAt).toISOString(),
    index: options.index,
  };
}
