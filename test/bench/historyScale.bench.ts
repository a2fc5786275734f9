import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Conversation } from '../../src/core/chat/conversation';
import { HistoryStore } from '../../src/core/chat/history/historyStore';
import { serializeConversation } from '../../src/core/chat/history/serialization';
import { seededRandom } from '../shared/seededRandom';
import { fmtMs, ROUNDS, runBench, SMOKE, stats, type Row } from './benchReport';
import { heapPeak, heapUsed } from './heap';

/**
 * Benchmark (issue 28, rows "Chat History opens", "heap added by listing", "search 500 MB of
 * history"): a history of conversations of ~50 KB on disk, through the core store as the extension
 * host uses it. Listing is timed with the index built (the first listing of a history builds it, shown
 * as context: that is what every listing cost before), at two sizes a factor 10 apart, alternated.
 * Search runs the store's search (the one Search Chat History runs) for a word that ~1% of the
 * conversations hold; its heap is sampled while it runs, garbage included.
 *
 *   node out/test/bench/historyScale.bench.js [--rounds=5]   INFERENCE_BENCH_SMOKE=1: 100 / 1,000 conversations of ~5 KB
 */

const SMALL = SMOKE ? 100 : 1_000;
const LARGE = SMOKE ? 1_000 : 10_000;
const CONVERSATION_BYTES = SMOKE ? 5_000 : 50_000;
const MESSAGES = 20;
const NEEDLE = 'quasarlattice';
const NEEDLE_SHARE = 0.01;
const MB = 1024 * 1024;

const random = seededRandom(28);
const WORDS = ['stream', 'answer', 'token', 'é', '漢字', 'history', 'journal', '`code`', '**bold**', 'line\n', '🙂', 'write', 'the', 'model', 'function', 'return'];
/** A pool of text that messages are cut from: generating 500 MB word by word would take longer than the bench. */
const POOL = (() => {
  let out = '';
  while (out.length < 400_000) out += `${WORDS[Math.floor(random() * WORDS.length)]} `;
  return out;
})();

function conversation(index: number, now: number): Conversation {
  const at = now - index * 60_000;
  const perMessage = Math.floor(CONVERSATION_BYTES / MESSAGES);
  const messages: Conversation['messages'] = [];
  const planted = random() < NEEDLE_SHARE ? Math.floor(random() * MESSAGES) : -1;
  for (let i = 0; i < MESSAGES; i++) {
    const start = Math.floor(random() * (POOL.length - perMessage));
    let text = POOL.slice(start, start + perMessage);
    if (i === planted) text = `${text.slice(0, perMessage / 2)} ${NEEDLE} ${text.slice(perMessage / 2)}`;
    const assistant = i % 2 === 1;
    messages.push({ id: `m${i}`, role: assistant ? 'assistant' : 'user', text, createdAt: at, ...(assistant && { status: 'done' as const, meta: { model: 'bench-model', requestId: `req-${index}-${i}`, creditsSpent: 0.001 } }) });
  }
  return { id: `c${String(index).padStart(6, '0')}`, title: `Conversation ${index}`, params: {}, createdAt: at, updatedAt: at, messages };
}

/** Writes `count` conversations as the store writes them; returns the folder and its size in bytes. */
function corpus(count: number): { dir: string; bytes: number; planted: number } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `history-scale-${count}-`));
  const now = Date.now();
  let bytes = 0;
  let planted = 0;
  for (let i = 0; i < count; i++) {
    const text = `${serializeConversation(conversation(i, now))}\n`;
    if (text.includes(NEEDLE)) planted++;
    fs.writeFileSync(path.join(dir, `c${String(i).padStart(6, '0')}.json`), text);
    bytes += Buffer.byteLength(text);
  }
  return { dir, bytes, planted };
}

/** A window opening Chat History: a store on the folder (its start-up done), then one listing. */
/** CPU time of this process since `since` (process.cpuUsage), in milliseconds: on a loaded machine, wall time also counts waiting for a core. */
function cpuMs(since: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1000;
}

async function timedList(dir: string): Promise<{ ms: number; cpu: number; count: number; checkMs: number; againMs: number }> {
  const store = new HistoryStore({ dir, isAlive: () => true });
  await store.flush();
  const cpu = process.cpuUsage();
  const started = performance.now();
  const summaries = await store.list();
  const ms = performance.now() - started;
  const cpuSpent = cpuMs(cpu);
  const checking = performance.now();
  if (await store.verified) throw new Error('the index disagreed with files nobody changed');
  const checkMs = performance.now() - checking;
  const again = performance.now();
  await store.list();
  const againMs = performance.now() - again;
  await store.verified;
  return { ms, cpu: cpuSpent, count: summaries.length, checkMs, againMs };
}

const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;
const minMedian = (values: number[], format: (n: number) => string) => {
  const { min, median } = stats(values);
  return `${format(min)} / ${format(median)}`;
};

async function main(): Promise<Row[]> {
  const rows: Row[] = [];
  const small = corpus(SMALL);
  const large = corpus(LARGE);
  try {
    // The first listing reads every log and builds the index: the cost of every listing before it.
    const built = performance.now();
    const first = await timedList(small.dir);
    const buildMs = performance.now() - built;
    await timedList(large.dir);
    const times: Record<'small' | 'large', number[]> = { small: [], large: [] };
    const cpus: Record<'small' | 'large', number[]> = { small: [], large: [] };
    const checks: number[] = [];
    const again: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      for (const size of round % 2 === 0 ? (['small', 'large'] as const) : (['large', 'small'] as const)) {
        const result = await timedList(size === 'small' ? small.dir : large.dir);
        if (result.count !== (size === 'small' ? SMALL : LARGE)) throw new Error(`listed ${result.count} conversations`);
        times[size].push(result.ms);
        cpus[size].push(result.cpu);
        if (size === 'large') {
          checks.push(result.checkMs);
          again.push(result.againMs);
        }
      }
    }
    const smallStats = stats(times.small);
    const largeStats = stats(times.large);
    const sizeOf = (count: number, bytes: number) => `${count.toLocaleString('en')} conversations (${mb(bytes)})`;
    rows.push({ what: `Chat History opens, ${sizeOf(SMALL, small.bytes)}`, target: '<= 50 ms', measured: minMedian(times.small, fmtMs), met: SMOKE ? undefined : smallStats.median <= 50, data: { ms: times.small } });
    rows.push({ what: `Chat History opens, ${sizeOf(LARGE, large.bytes)}`, target: '<= 150 ms', measured: minMedian(times.large, fmtMs), met: SMOKE ? undefined : largeStats.median <= 150, data: { ms: times.large } });
    const slope = largeStats.median / smallStats.median;
    rows.push({ what: `  slope ${SMALL.toLocaleString('en')} -> ${LARGE.toLocaleString('en')} (10x the count and the bytes)`, target: '<= 10x (the count, not the bytes)', measured: `${slope.toFixed(2)}x (median / median)`, met: SMOKE ? undefined : slope <= 10 });
    rows.push({ what: `  context: CPU time of those listings, ${SMALL.toLocaleString('en')} / ${LARGE.toLocaleString('en')} (min / median each)`, target: '(context)', measured: `${minMedian(cpus.small, fmtMs)}; ${minMedian(cpus.large, fmtMs)}` });
    rows.push({ what: `  context: first listing of ${SMALL.toLocaleString('en')} (no index yet: every log read, as before)`, target: '(context)', measured: fmtMs(buildMs), data: { count: first.count } });
    rows.push({ what: `  context: the same window opening it again (the index it holds reused), ${LARGE.toLocaleString('en')}`, target: '(context)', measured: minMedian(again, fmtMs) });
    rows.push({ what: `  context: background check of every log against the index, ${LARGE.toLocaleString('en')}`, target: '(context)', measured: minMedian(checks, fmtMs) });

    const heap: number[] = [];
    const held: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const store = new HistoryStore({ dir: large.dir, isAlive: () => true });
      await store.flush();
      const before = heapUsed();
      const peak = heapPeak(1);
      const summaries = await store.list();
      await store.verified;
      heap.push(peak.stop() - before);
      held.push(heapUsed() - before);
      if (summaries.length !== LARGE) throw new Error('lost conversations');
    }
    rows.push({ what: `heap added by listing ${LARGE.toLocaleString('en')} conversations (peak while listing and checking, garbage included)`, target: '<= 30 MB', measured: minMedian(heap, mb), met: SMOKE ? undefined : stats(heap).median <= 30 * MB });
    rows.push({ what: `  context: heap still held afterwards (the summaries and the index the window keeps)`, target: '(context)', measured: minMedian(held, mb) });

    const firstHit: number[] = [];
    const allHits: number[] = [];
    const peaks: number[] = [];
    const searchCpu: number[] = [];
    let found = 0;
    let firstRank = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const store = new HistoryStore({ dir: large.dir, isAlive: () => true });
      await store.list();
      await store.verified;
      const base = heapUsed();
      const peak = heapPeak();
      const cpu = process.cpuUsage();
      const started = performance.now();
      found = 0;
      for await (const hit of store.search(NEEDLE)) {
        if (!hit.messageId) throw new Error('a hit without its message');
        if (found++ === 0) {
          firstHit.push(performance.now() - started);
          // Conversations are numbered newest first: the number is how many were searched before it.
          firstRank = Number(hit.id.slice(1)) + 1;
        }
      }
      allHits.push(performance.now() - started);
      searchCpu.push(cpuMs(cpu));
      peaks.push(peak.stop() - base);
      if (found !== large.planted) throw new Error(`search found ${found} of ${large.planted} conversations`);
    }
    const searched = `search ${mb(large.bytes)} of history (${LARGE.toLocaleString('en')} conversations, ${found} hold the word)`;
    rows.push({ what: `${searched}: first result (the match at position ${firstRank.toLocaleString('en')}, newest first)`, target: '<= 300 ms', measured: minMedian(firstHit, fmtMs), met: SMOKE ? undefined : stats(firstHit).median <= 300 });
    rows.push({ what: `  all results`, target: '<= 3 s', measured: minMedian(allHits, fmtMs), met: SMOKE ? undefined : stats(allHits).median <= 3000 });
    rows.push({ what: `  context: CPU time of the whole search (the rest of the wall time is waiting for a core or the disk)`, target: '(context)', measured: minMedian(searchCpu, fmtMs) });
    rows.push({ what: `  heap while searching (peak above the start, garbage included)`, target: '<= 100 MB', measured: minMedian(peaks, mb), met: SMOKE ? undefined : stats(peaks).median <= 100 * MB });
    return rows;
  } finally {
    fs.rmSync(small.dir, { recursive: true, force: true });
    fs.rmSync(large.dir, { recursive: true, force: true });
  }
}

runBench('historyScale', main);
