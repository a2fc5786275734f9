import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readImageResultBody } from '../../src/core/api/imageBody';
import { decodeImageItem } from '../../src/core/api/imageData';
import { buildSidecar } from '../../src/core/images/imageJob';
import type { ResponseMeta } from '../../src/core/api/types';
import { alternate, fmtRatio, ROUNDS, runBench, SMOKE, stats, type Row } from './benchReport';
import { seededRandom } from '../shared/seededRandom';

/**
 * Benchmark: what the image command does with a b64_json result, on the path the product takes —
 * the response body, in the 64 KB pieces a local socket delivers, read by readImageResultBody (the
 * base64 decoded as it arrives, never held as text), then decodeImageItem, then the image and its
 * sidecar written exclusively as the image writer writes them — against the least a client could do
 * with the same body's text: `JSON.parse` + `Buffer.from` (+ one write). The baseline is given the
 * text for free (turning the body into text would cost it as much again); alternated over rounds.
 *
 *   node out/test/bench/image.bench.js [--rounds=9]
 */

const B64_BYTES = SMOKE ? 400_000 : 4_000_000;
/** Bodies decoded per round and variant: one 4 MB decode is a few milliseconds, too short to time alone. */
const REPEATS = SMOKE ? 1 : 5;
const PIECE = 64 * 1024;
const meta: ResponseMeta = { status: 200, receivedAt: Date.parse('2026-01-01T00:00:00Z'), requestId: 'req-bench', modelId: 'bench-image' };
const LIMITS = {
  maxBodyBytes: 64 * 1024 * 1024, maxDecodedBytes: 32 * 1024 * 1024,
  onBodyTooLarge: () => new Error('body too large'), onDecodedTooLarge: () => new Error('image too large'), onNotBase64: () => new Error('not base64'),
};

function pngLikeBytes(size: number): Buffer {
  const rand = seededRandom(5);
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i++) bytes[i] = Math.floor(rand() * 256);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes);
  return bytes;
}

/** A result body as the service sends it, around this base64 text. */
function resultBody(base64: string): { pieces: Buffer[]; text: string } {
  const text = `{"created":1767225600,"data":[{"b64_json":"${base64}","revised_prompt":"a lighthouse at dusk"}]}`;
  const body = Buffer.from(text);
  const pieces: Buffer[] = [];
  for (let offset = 0; offset < body.length; offset += PIECE) pieces.push(body.subarray(offset, offset + PIECE));
  return { pieces, text };
}

async function* arriving(pieces: Buffer[]): AsyncGenerator<Uint8Array> {
  for (const piece of pieces) yield piece;
}

interface Timed { wallMs: number; cpuMs: number; bytes: number }

async function timed(run: () => Promise<number>): Promise<Timed> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  let bytes = 0;
  for (let repeat = 0; repeat < REPEATS; repeat++) bytes = await run();
  const used = process.cpuUsage(cpu);
  return { wallMs: performance.now() - started, cpuMs: (used.user + used.system) / 1000, bytes };
}

async function main(): Promise<Row[]> {
  const original = pngLikeBytes(Math.floor((B64_BYTES * 3) / 4));
  const base64 = original.toString('base64');
  const plain = resultBody(base64);
  // PHP's json_encode, among others, escapes every '/': runs of ~64 characters between escapes.
  const slashes = resultBody(base64.replace(/\//g, '\\/'));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'image-bench-'));
  let files = 0;
  const target = (extension: string) => path.join(dir, `image-${files++}.${extension}`);
  const decodeFromBody = async (pieces: Buffer[]) => {
    const result = await readImageResultBody(arriving(pieces), { ...LIMITS, declaredLength: pieces.reduce((sum, piece) => sum + piece.length, 0) }) as { data: unknown[] };
    return decodeImageItem(result.data[0], meta);
  };
  const decodeFromText = (text: string) => Buffer.from((JSON.parse(text) as { data: Array<{ b64_json: string }> }).data[0].b64_json, 'base64');
  const writeAsTheProduct = async (bytes: Uint8Array, mimeType: string) => {
    const sidecar = buildSidecar({ inputs: { model: 'bench-image', prompt: 'a lighthouse at dusk', responseFormat: 'b64_json' }, meta, environment: 'bench', mimeType, creditsSpent: 4, index: 0, bytes });
    await fs.promises.writeFile(target('png'), bytes, { flag: 'wx' });
    await fs.promises.writeFile(target('json'), new TextEncoder().encode(`${JSON.stringify(sidecar, null, 2)}\n`), { flag: 'wx' });
  };
  const rounds = Math.max(ROUNDS, SMOKE ? 3 : 9);
  const row = async (what: string, measured: () => Promise<number>, baseline: () => Promise<number>, cpu: boolean, met: boolean) => {
    await measured();
    await baseline();
    const result = await alternate(rounds, () => timed(measured), () => timed(baseline), (r) => (cpu ? r.cpuMs : r.wallMs));
    if ([...result.measured, ...result.baseline].some((r) => r.bytes !== original.length)) throw new Error(`${what}: wrong bytes`);
    const ms = (runs: Timed[]) => stats(runs.map((r) => (cpu ? r.cpuMs : r.wallMs) / REPEATS)).median.toFixed(1);
    return {
      what, target: met ? '<= 1.5x' : 'context',
      measured: `${fmtRatio(result.ratios)} (median ${ms(result.measured)} ms against ${ms(result.baseline)} ms${cpu ? ' of CPU' : ''})`,
      met: SMOKE || !met ? undefined : result.ratios.median <= 1.5,
      data: { ratios: result.ratios, measured: result.measured, baseline: result.baseline, repeats: REPEATS },
    } satisfies Row;
  };
  const mb = (base64.length / 1e6).toFixed(1);
  try {
    return [
      await row(`image decode from the body, ${mb} MB b64 (CPU) / JSON.parse + Buffer.from of its text`,
        async () => (await decodeFromBody(plain.pieces)).bytes.length, async () => decodeFromText(plain.text).length, true, true),
      await row(`image decode + sidecar + write from the body, ${mb} MB b64 / JSON.parse + Buffer.from + one write`,
        async () => {
          const image = await decodeFromBody(plain.pieces);
          await writeAsTheProduct(image.bytes, image.mimeType);
          return image.bytes.length;
        },
        async () => {
          const bytes = decodeFromText(plain.text);
          await fs.promises.writeFile(target('png'), bytes, { flag: 'wx' });
          return bytes.length;
        }, false, true),
      await row(`image decode from the body, every '/' escaped as '\\/' (CPU) / the same`,
        async () => (await decodeFromBody(slashes.pieces)).bytes.length, async () => decodeFromText(slashes.text).length, true, false),
    ];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

runBench('image', main);
