/** POST /images/generations: scope, model (`auto`), size, seed, response_format; charged per image. */
import { randomInt } from 'node:crypto';
import { badRequest } from './errors';
import { isRecord, sendJson, type RequestContext } from './http';
import { requireScope, type KeyRecord } from './keys';
import { resolveModel } from './models';
import { renderPng } from './png';
import type { EnvRuntime } from './runtime';
import { roundCredits } from './wallet';

const MAX_IMAGES = 4;

interface ImageRequest { model: string; prompt: string; format: 'b64_json' | 'url'; width: number; height: number; seed?: number; n: number }

function integerField(body: Record<string, unknown>, field: string): number | undefined {
  const v = body[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v)) throw badRequest('invalid_parameter', `"${field}" must be an integer.`);
  return v;
}

function parseImageRequest(body: unknown, sizes: readonly string[]): ImageRequest {
  if (!isRecord(body)) throw badRequest('invalid_body', 'The request body must be a JSON object.');
  if (typeof body.model !== 'string' || body.model === '') throw badRequest('missing_model', '"model" is required: an image model id or "auto".');
  if (typeof body.prompt !== 'string' || body.prompt.trim() === '') throw badRequest('missing_prompt', '"prompt" is required and must be a non-empty string.');
  if (body.negative_prompt !== undefined && body.negative_prompt !== null && typeof body.negative_prompt !== 'string') {
    throw badRequest('invalid_parameter', '"negative_prompt" must be a string.');
  }
  const format = body.response_format ?? 'b64_json';
  if (format !== 'b64_json' && format !== 'url') throw badRequest('invalid_parameter', '"response_format" must be "b64_json" or "url".');
  let width = integerField(body, 'width');
  let height = integerField(body, 'height');
  // `size: "WxH"` (the common SDK field) is accepted as an alias of width/height.
  if (typeof body.size === 'string' && width === undefined && height === undefined) {
    const m = /^(\d+)x(\d+)$/.exec(body.size);
    if (!m) throw badRequest('invalid_parameter', '"size" must look like "512x512".');
    [width, height] = [Number(m[1]), Number(m[2])];
  }
  const size = `${width ?? 512}x${height ?? 512}`;
  if (!sizes.includes(size)) {
    throw badRequest('unsupported_image_size', `Image size ${size} is not supported. Supported sizes: ${sizes.join(', ')}.`);
  }
  const n = integerField(body, 'n') ?? 1;
  if (n < 1 || n > MAX_IMAGES) throw badRequest('invalid_parameter', `"n" must be between 1 and ${MAX_IMAGES}.`);
  const seed = body.seed === undefined || body.seed === null ? undefined : body.seed;
  if (seed !== undefined && (typeof seed !== 'number' || !Number.isFinite(seed))) throw badRequest('invalid_parameter', '"seed" must be a number.');
  return { model: body.model, prompt: body.prompt, format, width: width ?? 512, height: height ?? 512, seed, n };
}

export function handleImages(ctx: RequestContext, env: EnvRuntime, key: KeyRecord, body: unknown): void {
  requireScope(key, 'images');
  const request = parseImageRequest(body, env.options.imageSizes);
  const model = resolveModel(env.catalog, request.model, 'image');
  ctx.record.model = model;
  ctx.res.setHeader('x-service-model-id', model);

  const wallet = env.walletOf(key);
  const cost = roundCredits(env.options.prices.image * request.n);
  wallet.reserve(cost);
  let charged = 0;
  try {
    const baseSeed = request.seed ?? randomInt(0, 2 ** 31);
    const data = Array.from({ length: request.n }, (_, i) => {
      const b64 = renderPng(request.width, request.height, `${model}\n${request.prompt}`, baseSeed + i).toString('base64');
      return request.format === 'url' ? { url: `data:image/png;base64,${b64}` } : { b64_json: b64 };
    });
    charged = cost;
    ctx.record.creditsCharged = wallet.settle(cost, charged);
    sendJson(ctx, 200, { created: Math.floor(Date.now() / 1000), data }, { 'x-service-balance-credits': String(wallet.balance) });
  } finally {
    if (charged === 0) wallet.settle(cost, 0);
  }
}
