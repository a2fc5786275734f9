import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { decodeImageItem } from '../../src/core/imageData';
import type { ResponseMeta } from '../../src/core/types';
import { alternate, fmtRatio, ROUNDS, runBench, SMOKE, stats, type Row } from './benchReport';
import { seededRandom } from '../shared/seededRandom';

/**
 * Benchmark: what the image command does with a b64_json result (decodeImageItem, then one
 * exclusive write as the image writer does) against the least it could do (`Buffer.from` and one
 * write), alternated over rounds.
 *
 *   node out/test/bench/image.bench.js [--rounds=5]
 */

const B64_BYTES = SMOKE ? 400_000 : 4_000_000;
const meta: ResponseMeta = { status: 200 } as ResponseMeta;

function pngLikeBytes(size: number): Buffer {
  const rand = seededRandom(5);
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i++) bytes[i] = Math.floor(rand() * 256);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes);
  return bytes;
}

async function main(): Promise<Row[]> {
  const original = pngLikeBytes(Math.floor((B64_BYTES * 3) / 4));
  const b64 = original.toString('base64');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'image-bench-'));
  let files = 0;
  const target = () => path.join(dir, `image-${files++}.png`);
  const product = async () => {
    const started = performance.now();
    const image = decodeImageItem({ b64_json: b64 }, meta);
    await fs.promises.writeFile(target(), image.bytes, { flag: 'wx' });
    return { ms: performance.now() - started, bytes: image.bytes.length };
  };
  const baseline = async () => {
    const started = performance.now();
    const bytes = Buffer.from(b64, 'base64');
    await fs.promises.writeFile(target(), bytes, { flag: 'wx' });
    return { ms: performance.now() - started, bytes: bytes.length };
  };
  try {
    await product();
    await baseline();
    const result = await alternate(Math.max(ROUNDS, SMOKE ? 3 : 9), product, baseline, (r) => r.ms);
    if (result.measured.some((r) => r.bytes !== original.length)) throw new Error('decodeImageItem returned the wrong bytes');
    const productMs = stats(result.measured.map((r) => r.ms));
    return [{
      what: `image decode+write of a ${(b64.length / 1e6).toFixed(1)} MB b64 result / Buffer.from + one write`,
      target: '<= 1.5x',
      measured: `${fmtRatio(result.ratios)} (median ${productMs.median.toFixed(1)} ms)`,
      met: SMOKE ? undefined : result.ratios.median <= 1.5,
      data: { ratios: result.ratios, productMs, baselineMs: stats(result.baseline.map((r) => r.ms)) },
    }];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

runBench('image', main);
