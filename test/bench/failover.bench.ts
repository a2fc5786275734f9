import * as http from 'node:http';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import { InferenceClient } from '../../src/core/api/client';
import { FailoverTransport } from '../../src/core/api/failoverTransport';
import { HostHealth } from '../../src/core/api/hostHealth';
import type { Transport } from '../../src/core/api/transport';
import { createUndiciTransport } from '../../src/core/api/undiciTransport';
import { alternate, ROUNDS, runBench, SMOKE, stats, type Row } from './benchReport';

/**
 * Benchmark: what failing over between an environment's hosts costs (issue 30).
 * - Healthy path: a model-list call through the failover transport (two hosts, the first healthy)
 *   against the same call on the plain transport, alternated request by request over real loopback
 *   sockets; the figure is the median per-request difference.
 * - Failover from a refused connection: the same call whose first host refuses (a port nobody
 *   listens on; fresh health each time, so the refused host is tried first) against the call sent
 *   straight to the second host; the figure is the time added by trying the refused host.
 *
 *   node out/test/bench/failover.bench.js [--rounds=5]
 */

const REQUESTS_PER_ROUND = SMOKE ? 20 : 400;
const MODELS = JSON.stringify({ object: 'list', data: [{ id: 'bench-model', object: 'model' }] });

function listen(server: http.Server | net.Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

/** A port that refuses connections: bound once to learn a free number, then closed. */
async function refusedOrigin(): Promise<string> {
  const probe = net.createServer();
  const origin = await listen(probe);
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return origin;
}

interface Run { perRequestMs: number[] }

async function main(): Promise<Row[]> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(MODELS));
  });
  const origin = await listen(server);
  const refused = await refusedOrigin();
  const shared = createUndiciTransport();
  const clientOver = (transport: Transport, base: string) => new InferenceClient({ baseUrl: `${base}/api/v1`, apiKey: 'bench-key', transport });
  const plain = clientOver(shared, origin);
  const failover = clientOver(new FailoverTransport(shared, { health: new HostHealth([origin, 'http://127.0.0.2:9']) }), origin);

  const timed = async (client: InferenceClient, count: number): Promise<Run> => {
    const perRequestMs: number[] = [];
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      await client.listModels();
      perRequestMs.push(performance.now() - started);
    }
    return { perRequestMs };
  };
  const afterRefusal = async (): Promise<Run> => {
    const perRequestMs: number[] = [];
    for (let i = 0; i < REQUESTS_PER_ROUND / 10; i++) {
      const client = clientOver(new FailoverTransport(shared, { health: new HostHealth([refused, origin]) }), refused);
      const started = performance.now();
      await client.listModels();
      perRequestMs.push(performance.now() - started);
    }
    return { perRequestMs };
  };

  try {
    await timed(plain, 20);
    await timed(failover, 20);
    const healthy = await alternate(ROUNDS, () => timed(failover, REQUESTS_PER_ROUND), () => timed(plain, REQUESTS_PER_ROUND), (run) => stats(run.perRequestMs).median);
    const healthyAdded = stats(healthy.measured.map((run, i) => stats(run.perRequestMs).median - stats(healthy.baseline[i].perRequestMs).median));
    const refusal = await alternate(ROUNDS, afterRefusal, () => timed(plain, REQUESTS_PER_ROUND / 10), (run) => stats(run.perRequestMs).median);
    const refusalAdded = stats(refusal.measured.map((run, i) => stats(run.perRequestMs).median - stats(refusal.baseline[i].perRequestMs).median));
    const plainMs = stats(healthy.baseline.map((run) => stats(run.perRequestMs).median)).median;
    return [
      {
        what: `healthy path: added latency per model-list call through the failover transport (${REQUESTS_PER_ROUND} requests per round, median per round)`,
        target: '<= 0.1 ms',
        measured: `${healthyAdded.min.toFixed(3)} ms / ${healthyAdded.median.toFixed(3)} ms (min / median; a plain call takes ${plainMs.toFixed(3)} ms)`,
        met: SMOKE ? undefined : healthyAdded.median <= 0.1,
        data: { addedMs: healthyAdded, ratios: healthy.ratios, plainMs },
      },
      {
        what: 'failover from a refused connection: time added to the second host\'s own',
        target: '<= 50 ms',
        measured: `${refusalAdded.min.toFixed(2)} ms / ${refusalAdded.median.toFixed(2)} ms (min / median)`,
        met: SMOKE ? undefined : refusalAdded.median <= 50,
        data: { addedMs: refusalAdded, ratios: refusal.ratios },
      },
    ];
  } finally {
    await shared.close();
    server.close();
  }
}

runBench('failover', main);
