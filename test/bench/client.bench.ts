import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createParser } from 'eventsource-parser';
import { Agent, request } from 'undici';
import { InferenceClient } from '../../src/core/api/client';
import { alternate, fmtRatio, ROUNDS, runBench, SMOKE, stats, type Row } from './benchReport';
import { longAnswer, modelTokens } from '../shared/answerCorpus';

/**
 * Benchmark: the client's streaming path (InferenceClient.streamChat, as the chat uses it) against
 * the least any client must do with the same bytes: undici's request, eventsource-parser and one
 * JSON.parse per event. Both read the same chat-completions event stream from a local server in
 * the same run, alternated over rounds.
 *
 *   node out/test/bench/client.bench.js [--rounds=5]
 */

const STREAM_BYTES = SMOKE ? 300_000 : 8_000_000;
const FIRST_DELTA_ROUNDS = SMOKE ? 10 : 200;

function eventStream(text: string): Buffer {
  const events = modelTokens(text).map((content, i) => `data: ${JSON.stringify({
    id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'bench-model',
    choices: [{ index: 0, delta: i === 0 ? { role: 'assistant', content } : { content }, finish_reason: null }],
  })}\n\n`);
  events.push(`data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'bench-model', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`, 'data: [DONE]\n\n');
  return Buffer.from(events.join(''));
}

interface Run { ms: number; chars: number; firstDeltaMs: number }

async function main(): Promise<Row[]> {
  let answer = longAnswer(STREAM_BYTES / 30);
  let body = eventStream(answer);
  while (body.length < STREAM_BYTES) {
    answer += answer;
    body = eventStream(answer);
  }
  const tiny = eventStream('Hello');
  let current = body;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.end(current);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = new InferenceClient({ baseUrl: `${origin}/api/v1`, apiKey: 'bench-key' });
  const agent = new Agent({ keepAliveTimeout: 30_000 });
  const chatRequest = { model: 'bench-model', messages: [{ role: 'user' as const, content: 'Write.' }] };

  const viaClient = async (): Promise<Run> => {
    const started = performance.now();
    let chars = 0;
    let firstDeltaMs = 0;
    for await (const event of client.streamChat(chatRequest)) {
      if (event.type !== 'delta') continue;
      if (!chars) firstDeltaMs = performance.now() - started;
      chars += event.text.length;
    }
    return { ms: performance.now() - started, chars, firstDeltaMs };
  };
  const reference = async (): Promise<Run> => {
    const started = performance.now();
    let chars = 0;
    let firstDeltaMs = 0;
    const response = await request(`${origin}/api/v1/chat/completions`, {
      method: 'POST', dispatcher: agent,
      headers: { authorization: 'Bearer bench-key', accept: 'text/event-stream', 'content-type': 'application/json' },
      body: JSON.stringify({ ...chatRequest, stream: true }),
    });
    const parser = createParser({
      onEvent: (event) => {
        if (event.data === '[DONE]') return;
        const content = (JSON.parse(event.data) as { choices?: { delta?: { content?: string } }[] }).choices?.[0]?.delta?.content;
        if (!content) return;
        if (!chars) firstDeltaMs = performance.now() - started;
        chars += content.length;
      },
    });
    const decoder = new TextDecoder();
    for await (const chunk of response.body) parser.feed(decoder.decode(chunk as Buffer, { stream: true }));
    return { ms: performance.now() - started, chars, firstDeltaMs };
  };

  try {
    await viaClient();
    await reference();
    const throughput = await alternate(ROUNDS, viaClient, reference, (r) => r.ms);
    const expected = throughput.baseline[0].chars;
    if (throughput.measured.some((r) => r.chars !== expected) || expected === 0) throw new Error('the client and the reference read different answers');
    // Ratio of MB/s is the inverse ratio of times.
    const mbps = stats(throughput.ratios.values.map((r) => 1 / r));
    const clientMBps = body.length / 1e6 / (stats(throughput.measured.map((r) => r.ms)).median / 1000);
    const referenceMBps = body.length / 1e6 / (stats(throughput.baseline.map((r) => r.ms)).median / 1000);

    current = tiny;
    const first = await alternate(FIRST_DELTA_ROUNDS, viaClient, reference, (r) => r.firstDeltaMs);
    const added = stats(first.measured.map((r, i) => r.firstDeltaMs - first.baseline[i].firstDeltaMs));
    return [
      {
        what: `client streaming MB/s / undici + eventsource-parser + JSON.parse (${(body.length / 1e6).toFixed(1)} MB stream)`,
        target: '>= 0.8x',
        measured: `${mbps.min.toFixed(2)}x / ${mbps.median.toFixed(2)}x (client ${clientMBps.toFixed(1)} MB/s, reference ${referenceMBps.toFixed(1)} MB/s)`,
        met: SMOKE ? undefined : mbps.median >= 0.8,
        data: { ratios: mbps, timeRatios: throughput.ratios, clientMBps, referenceMBps, streamBytes: body.length },
      },
      {
        what: `added time to first delta (client - reference, ${FIRST_DELTA_ROUNDS} alternated requests)`,
        target: '< 1 ms',
        measured: `${added.min.toFixed(3)} ms / ${added.median.toFixed(3)} ms (min / median; ratio ${fmtRatio(first.ratios)})`,
        met: SMOKE ? undefined : added.median < 1,
        data: { addedMs: added, ratios: first.ratios },
      },
    ];
  } finally {
    await client.close();
    await agent.close();
    server.close();
  }
}

runBench('client', main);
