import { fork } from 'node:child_process';
import * as fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { request } from 'undici';
import { InferenceClient } from '../../src/core/api/client';
import { arg, SMOKE, stats } from './benchReport';

/**
 * Benchmark (not a timed test): how much memory one generated image costs on its way through the client,
 * from the response body to the decoded bytes. Each measurement runs in a fresh child process that reads
 * its resident-set high-water mark (`VmHWM`, Linux) before and after one `generateImage` call, so peaks
 * inside synchronous parsing and decoding are counted. The baseline is the decoded image size itself;
 * the target is a peak of at most 3x that. "before issue 9" replays the old path (whole-body text, regex
 * scans, an extra copy) in the same run for comparison.
 *
 *   node out/test/bench/imageMemory.bench.js [--mb=20] [--rounds=5]      INFERENCE_BENCH_SMOKE=1: 2 MB, 1 round
 */

const MB = SMOKE ? 2 : arg('mb', 20);
const ROUNDS = SMOKE ? 1 : arg('rounds', 5);
const VARIANTS = ['client', 'before issue 9'] as const;
type Variant = (typeof VARIANTS)[number];

function statusKb(field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync('/proc/self/status', 'utf8'));
  if (!match) throw new Error(`no ${field} in /proc/self/status (this benchmark needs Linux)`);
  return Number(match[1]) * 1024;
}

/** The path images took before issue 9: body as text, JSON.parse, two regex passes, decode, copy. */
async function beforeIssue9(baseUrl: string): Promise<number> {
  const response = await request(`${baseUrl}/images/generations`, { method: 'POST', body: '{}' });
  const body = JSON.parse(await response.body.text()) as { data: Array<{ b64_json: string }> };
  const compact = body.data[0].b64_json.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(compact)) throw new Error('bad base64');
  return new Uint8Array(Buffer.from(compact, 'base64')).length;
}

async function client(baseUrl: string): Promise<number> {
  const inference = new InferenceClient({ baseUrl, apiKey: 'svc-bench-key-0123456789' });
  try {
    return (await inference.generateImage({ model: 'auto', prompt: 'bench' })).images[0].bytes.length;
  } finally {
    await inference.close();
  }
}

/** Child: one call, reported as the growth of the resident high-water mark over the resident size before it. */
async function child(variant: Variant, baseUrl: string, warmUrl: string): Promise<void> {
  const run = variant === 'client' ? client : beforeIssue9;
  await run(warmUrl); // loads and compiles everything on a tiny image first
  (globalThis as { gc?: () => void }).gc?.();
  // A high-water mark already above the resident size makes the figure larger, never smaller.
  const before = statusKb('VmRSS');
  const decoded = await run(baseUrl);
  process.send?.({ decoded, peakExtra: statusKb('VmHWM') - before, arrayBuffersAfter: process.memoryUsage().arrayBuffers });
}

function imageResponse(bytes: number): Buffer {
  const image = Buffer.alloc(bytes);
  for (let i = 0; i < bytes; i += 4) image.writeUInt32LE((i * 2654435761) >>> 0, i); // incompressible-looking, cheap
  Buffer.from('89504e470d0a1a0a', 'hex').copy(image, 0);
  return Buffer.from(JSON.stringify({ created: 1, data: [{ b64_json: image.toString('base64') }] }));
}

async function main(): Promise<void> {
  const big = imageResponse(MB * 1024 * 1024);
  const small = imageResponse(4096);
  const server = http.createServer((req, res) => {
    req.resume();
    const body = req.url?.startsWith('/warm') ? small : big;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const results: Record<Variant, Array<{ decoded: number; peakExtra: number }>> = { client: [], 'before issue 9': [] };
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const variant of round % 2 === 0 ? VARIANTS : [...VARIANTS].reverse()) {
        const measured = await new Promise<{ decoded: number; peakExtra: number }>((resolve, reject) => {
          const worker = fork(__filename, ['--child', variant, `${origin}/api/v1`, `${origin}/warm/api/v1`], { execArgv: ['--expose-gc'] });
          worker.once('message', (message) => resolve(message as { decoded: number; peakExtra: number }));
          worker.once('exit', (code) => (code ? reject(new Error(`child exited ${code}`)) : undefined));
        });
        results[variant].push(measured);
      }
    }
  } finally {
    server.close();
  }
  const rows = VARIANTS.map((variant) => {
    const ratios = results[variant].map((r) => r.peakExtra / r.decoded);
    // At the smoke size fixed costs (the connection pool, code) dominate: only the machinery is checked.
    const met = variant !== 'client' ? '-' : SMOKE ? 'n/a (smoke)' : stats(ratios).median <= 3 ? 'yes' : 'NO';
    return { what: `${MB} MB image, ${variant}: peak memory / decoded size`, target: variant === 'client' ? '<= 3x' : 'reference', min: Math.min(...ratios), median: stats(ratios).median, met };
  });
  console.log('what | target | measured (min / median ratio) | met?');
  for (const row of rows) console.log(`${row.what} | ${row.target} | ${row.min.toFixed(2)}x / ${row.median.toFixed(2)}x | ${row.met}`);
  const outDir = path.join(__dirname, '..', '..', '..', 'test-results', 'bench');
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, 'imageMemory.json'), JSON.stringify({ mb: MB, rounds: ROUNDS, results, rows }, null, 2));
  if (results.client.some((r) => r.decoded !== MB * 1024 * 1024)) throw new Error('the client decoded the wrong number of bytes');
  if (rows[0].met === 'NO') process.exitCode = 1;
}

if (process.argv[2] === '--child') {
  child(process.argv[3] as Variant, process.argv[4], process.argv[5]).then(() => process.exit(0), (error: unknown) => {
    console.error(error);
    process.exit(1);
  });
} else {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
