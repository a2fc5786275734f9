import { startEmulator, type Emulator } from '../emulator';
import { delay } from '../harness/wait';
import { alternate, arg, fmtMs, fmtRatio, percentile, ROUNDS, runBench, SMOKE, stats, type RatioStats, type Row } from './benchReport';
import { serviceClient, sourceText, suggestionHarness, typeFile, TYPING, type Harness, type Sample, type Service, type Typed } from './suggestionTyping';

/**
 * Benchmark (issue 39, inline suggestions while typing): a TypeScript-like file typed at 8 characters
 * a second in bursts of 3–12 with pauses of 0.2–1.5 s, into a simulated editor that asks the real
 * suggester on every change and cancels the previous question, as VS Code does; a suggestion shown
 * that is exactly the file's next characters is accepted (Tab), one being typed through is answered
 * by the cache. The suggester is wired as the host wires it: the real InferenceClient over undici
 * against the emulator (first token 150 ms, 50 tokens/s), the real billing on the account meter, a
 * spending guard with the suggestions' budget set, and a ledger. Counts per character written, what
 * was cancelled and shown, credits per accepted suggestion from the emulator and from the ledger;
 * then the time the suggester adds to a suggestion (after the debounce) over the same request sent
 * straight through `streamChat`, alternated over rounds. The same for a file 10× larger, whose last
 * part is typed: the ratios 10× / 1× must be flat.
 *
 *   node out/test/bench/suggestions.bench.js [--speed=5] [--rounds=5] [--samples=20]
 *
 * `--speed=N` divides every duration (keys, pauses, debounce, first token, token interval) by N, so
 * the counts per character stay those of real typing while a run takes minutes instead of 16.
 */

const SPEED = arg('speed', SMOKE ? 20 : 5);
const TYPED = SMOKE ? 300 : 2_000;
const SIZES = [TYPED, TYPED * 10] as const;
const SAMPLES = arg('samples', SMOKE ? 3 : 20);
const ENV = 'production';
const CHAT = '/api/v1/chat/completions';

interface SizeRun {
  size: number;
  typed: Typed;
  counts: Harness['counts'];
  /** The billed calls' opens while typing (ms). */
  openMs: number[];
  /** Emulator's side: chat requests, credits charged, streams the client closed, balance readings (model lists). */
  emulator: { requests: number; credits: number; clientClosed: number; balanceReadings: number };
  /** Ledger's side: measured credits, entries measured, entries equal to the emulator's charge, unmeasured, charged requests the ledger lacks. */
  ledger: { credits: number; measured: number; equal: number; unmeasured: number; missing: number };
  latency: Latency;
  /** The same rounds on the default settings (no budget, no limit: no reservation). */
  latencyNoBudget: Latency;
}

interface Latency { ratios: RatioStats; addedP95: RatioStats; suggesterP95: number; directP95: number; openP95: number }

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
const share = (part: number, whole: number) => `${whole ? ((100 * part) / whole).toFixed(0) : 0}%`;
const n = (value: number) => value.toLocaleString('en-US');

/**
 * The alternated rounds: each sample asked of the suggester (cache cleared, the debounce waited) and
 * its request sent straight through streamChat, read as far as the suggester read it.
 */
async function latencyRounds(harness: Harness, service: Service, samples: Sample[]): Promise<Latency> {
  const debounceMs = TYPING.debounceMs / SPEED;
  const viaSuggester = async (): Promise<number[]> => {
    const times: number[] = [];
    for (const sample of samples) {
      harness.suggester.clear();
      const started = performance.now();
      const answer = await harness.suggester.suggest(sample.place, new AbortController().signal);
      times.push(performance.now() - started - debounceMs);
      if (answer.text !== sample.text || !('from' in answer) || answer.from !== 'service') throw new Error(`the suggester answered ${JSON.stringify(answer)} where it had shown ${JSON.stringify(sample.text)} (${harness.failures.at(-1) ?? ''})`);
      await harness.suggester.settled();
      await harness.released();
    }
    return times;
  };
  const direct = async (): Promise<number[]> => {
    const times: number[] = [];
    for (const sample of samples) {
      const started = performance.now();
      let events = 0;
      for await (const _event of service.client.streamChat(sample.sent.request)) if (++events >= sample.sent.events) break;
      times.push(performance.now() - started);
    }
    return times;
  };
  await viaSuggester();
  await direct();
  const opensBefore = harness.openMs.length;
  const run = await alternate(ROUNDS, viaSuggester, direct, (times) => percentile(times, 95));
  const added = stats(run.measured.map((times, round) => percentile(times.map((ms, i) => ms - run.baseline[round][i]), 95)));
  return {
    ratios: run.ratios, addedP95: added, openP95: percentile(harness.openMs.slice(opensBefore), 95),
    suggesterP95: stats(run.measured.map((t) => percentile(t, 95))).median, directP95: stats(run.baseline.map((t) => percentile(t, 95))).median,
  };
}

/** Evenly spread over the run (early places have a short file before them, late ones a long one). */
function spread<T>(items: T[], count: number): T[] {
  if (items.length <= count) return items;
  return Array.from({ length: count }, (_, i) => items[Math.floor((i * items.length) / count)]);
}

async function runSize(emu: Emulator, service: Service, account: { credits?: number; at?: number }, size: number): Promise<SizeRun> {
  const model = emu.environments.production.chatModels[1];
  const harness = suggestionHarness(service, account, ENV, model, TYPING.debounceMs / SPEED, true);
  const plain = suggestionHarness(service, account, ENV, model, TYPING.debounceMs / SPEED, false);
  try {
    // The balance as it is now: the direct requests of the rounds before were billed outside the meter.
    await service.client.listModels({ type: 'chat' });
    const from = emu.requests.length;
    // The same typist (bursts, pauses) at both sizes: only the file before the typed part differs.
    const typed = await typeFile(harness, sourceText(size, size), size - TYPED, SPEED, 39);
    // The emulator settles a stream the client closed once it notices the close.
    await delay(100);
    const records = emu.requests.slice(from);
    const chat = records.filter((r) => r.path.startsWith(CHAT));
    const charged = new Map(chat.map((r) => [r.id, r.creditsCharged]));
    const entries = harness.entries.filter((e) => e.kind === 'suggestion');
    const measured = entries.filter((e) => e.credits !== null);
    const inLedger = new Set(entries.map((e) => e.requestId));
    const counts = { ...harness.counts };
    const openMs = [...harness.openMs];
    const emulator = { requests: chat.length, credits: sum(chat.map((r) => r.creditsCharged)), clientClosed: chat.filter((r) => r.clientClosedAt !== undefined).length, balanceReadings: records.length - chat.length };
    const ledger = {
      credits: sum(measured.map((e) => e.credits ?? 0)),
      measured: measured.length,
      equal: measured.filter((e) => Math.abs((e.credits ?? 0) - (charged.get(e.requestId) ?? Number.NaN)) < 1e-6).length,
      unmeasured: entries.length - measured.length,
      missing: chat.filter((r) => r.creditsCharged > 0 && !inLedger.has(r.id)).length,
    };
    if (typed.samples.length === 0) throw new Error(`no suggestion from the service was shown while typing ${n(TYPED)} characters`);
    const samples = spread(typed.samples, SAMPLES);
    const latency = await latencyRounds(harness, service, samples);
    const latencyNoBudget = await latencyRounds(plain, service, samples);
    return { size, typed, counts, openMs, emulator, ledger, latency, latencyNoBudget };
  } finally {
    harness.dispose();
    plain.dispose();
  }
}

function sizeRows(run: SizeRun): Row[] {
  const { typed, counts, emulator, ledger, latency, latencyNoBudget } = run;
  const label = `${n(run.size)}-char file`;
  const perChar = (count: number) => (count / typed.chars).toFixed(3);
  return [
    {
      what: `${label}: requests per character written`, target: '(context)',
      measured: `${perChar(counts.requested)} (${n(counts.requested)} requests, emulator logged ${n(emulator.requests)}; ${n(typed.keystrokes)} changes, ${n(typed.accepted)} accepted (${n(typed.acceptedChars)} chars))`,
      data: { ...counts, chars: typed.chars, keystrokes: typed.keystrokes, accepted: typed.accepted, acceptedChars: typed.acceptedChars, emulator },
    },
    {
      what: `${label}: requests cancelled by the next change (client closed)`, target: '(context)',
      measured: `${n(counts.cancelled)} (${share(counts.cancelled, counts.requested)}; ${perChar(counts.cancelled)}/char); streams the client closed before their end (emulator): ${n(emulator.clientClosed)}`,
    },
    {
      what: `${label}: requests whose suggestion was shown`, target: '(context)',
      measured: `${n(typed.shownService)} (${share(typed.shownService, counts.requested)}); shown from the cache (typing through, asked before): ${n(typed.shownCache)}`,
    },
    {
      what: `${label}: credits per accepted suggestion, emulator / ledger`, target: '(context)',
      measured: typed.accepted ? `${(emulator.credits / typed.accepted).toFixed(3)} / ${(ledger.credits / typed.accepted).toFixed(3)} (${emulator.credits.toFixed(3)} / ${ledger.credits.toFixed(3)} credits for ${typed.accepted})` : `none accepted (${emulator.credits.toFixed(3)} / ${ledger.credits.toFixed(3)} credits)`,
      data: { emulatorCredits: emulator.credits, ledger },
    },
    {
      what: `${label}: the ledger's credits equal the emulator's charges (sum)`, target: 'equal',
      measured: `${ledger.credits.toFixed(3)} / ${emulator.credits.toFixed(3)} credits; ${n(ledger.unmeasured)} entries unmeasured`,
      met: ledgerAgrees(run),
    },
    {
      what: `  context: request by request`, target: '(context)',
      measured: `${n(ledger.equal)} of ${n(ledger.measured)} measured entries equal the request's charge; ${n(ledger.missing)} charged requests not in the ledger (left before the response's headers)`,
    },
    {
      what: `${label}: balance readings (model-list requests) per suggestion request`, target: '(context)',
      measured: `${(emulator.balanceReadings / Math.max(1, emulator.requests)).toFixed(2)} (${n(emulator.balanceReadings)})`,
    },
    {
      what: `${label}: added latency while typing, p50 / p95 (answer - (last change + debounce) - response's own time at the transport)`, target: '(context)',
      measured: `${fmtMs(percentile(typed.addedMs, 50))} / ${fmtMs(percentile(typed.addedMs, 95))} (${typed.addedMs.length} shown; response p50 ${fmtMs(percentile(typed.responseMs, 50))})`,
      data: { addedMs: typed.addedMs, responseMs: typed.responseMs, openMs: run.openMs },
    },
    {
      what: `  context: of which the billed call's opening (spending guard, budget set), p50 / p95`, target: '(context)',
      measured: `${fmtMs(percentile(run.openMs, 50))} / ${fmtMs(percentile(run.openMs, 95))} (${run.openMs.length} opens)`,
    },
    {
      what: `${label}: added latency p95, suggester after the debounce - the same request via streamChat (${SAMPLES} places, alternated)`, target: '<= 15 ms',
      measured: `${fmtMs(latency.addedP95.min)} / ${fmtMs(latency.addedP95.median)} (p95 ${fmtMs(latency.suggesterP95)} against ${fmtMs(latency.directP95)}: ${fmtRatio(latency.ratios)}; guard's open p95 ${fmtMs(latency.openP95)})`,
      met: SMOKE ? undefined : latency.addedP95.median <= 15,
      data: { latency },
    },
    {
      what: `  context: the same on the default settings (no budget, no limit: the guard reserves nothing)`, target: '(context)',
      measured: `${fmtMs(latencyNoBudget.addedP95.min)} / ${fmtMs(latencyNoBudget.addedP95.median)} (p95 ${fmtMs(latencyNoBudget.suggesterP95)} against ${fmtMs(latencyNoBudget.directP95)}: ${fmtRatio(latencyNoBudget.ratios)}; guard's open p95 ${fmtMs(latencyNoBudget.openP95)})`,
      data: { latencyNoBudget },
    },
  ];
}

function slopeRows(small: SizeRun, large: SizeRun): Row[] {
  const ratio = (f: (run: SizeRun) => number) => f(large) / f(small);
  const perChar = (count: (run: SizeRun) => number) => ratio((run) => count(run) / run.typed.chars);
  const requests = perChar((run) => run.counts.requested);
  const added = ratio((run) => run.latency.addedP95.median);
  const label = `${n(large.size)} / ${n(small.size)} chars`;
  return [
    { what: `slope ${label}: requests per character`, target: '<= 1.5x', measured: `${requests.toFixed(2)}x`, met: SMOKE ? undefined : requests <= 1.5 },
    { what: `slope ${label}: added latency p95 (alternated, median)`, target: '<= 1.5x', measured: `${added.toFixed(2)}x (${fmtMs(large.latency.addedP95.median)} against ${fmtMs(small.latency.addedP95.median)})`, met: SMOKE ? undefined : added <= 1.5 },
    {
      what: `  context: slope ${label}: cancelled / shown per character; credits per accepted; added latency p95 while typing`, target: '(context)',
      measured: [
        perChar((run) => run.counts.cancelled), perChar((run) => run.typed.shownService),
        ratio((run) => run.emulator.credits / Math.max(1, run.typed.accepted)), ratio((run) => percentile(run.typed.addedMs, 95)),
      ].map((r) => `${r.toFixed(2)}x`).join(' / '),
    },
  ];
}

/** The ledger's measured credits add up to what the emulator charged, none unmeasured. */
function ledgerAgrees({ ledger, emulator }: SizeRun): boolean {
  return ledger.unmeasured === 0 && Math.abs(ledger.credits - emulator.credits) < 1e-6;
}

/** What the smoke run proves of the machinery. */
function checkMachinery(run: SizeRun): void {
  const problems = [
    run.counts.requested < 1 && 'no request was sent',
    run.counts.cancelled < 1 && 'no request was cancelled',
    run.typed.shownService < 1 && 'no suggestion was shown',
    !ledgerAgrees(run) && "the ledger's credits differ from the emulator's charges",
  ].filter(Boolean);
  if (problems.length) throw new Error(`${n(run.size)}-char file: ${problems.join('; ')} (${JSON.stringify({ counts: run.counts, shown: run.typed.shownService, ledger: run.ledger, emulator: run.emulator })})`);
}

async function main(): Promise<Row[]> {
  const emu = await startEmulator({ initialCredits: 10_000_000, defaultRpm: 1_000_000, firstTokenDelayMs: TYPING.firstTokenMs / SPEED, tokensPerSecond: TYPING.tokensPerSecond * SPEED });
  const account: { credits?: number; at?: number } = {};
  const service = serviceClient(emu.environments.production.baseUrl, emu.keys.production.full, account);
  try {
    // As after start-up: the account knows the balance; the connection is open.
    await service.client.listModels({ type: 'chat' });
    const runs: SizeRun[] = [];
    for (const size of SIZES) runs.push(await runSize(emu, service, account, size));
    if (SMOKE) runs.forEach(checkMachinery);
    const typedSeconds = sum(runs.map((run) => run.typed.seconds));
    return [
      {
        what: `setup: ${n(TYPED)} chars typed per file at ${1000 / TYPING.keyMs} chars/s in bursts of ${TYPING.burst.join('–')} (ending at a line's end at ${TYPING.lineEndPause * 100}%), pauses ${TYPING.pauseMs.map((ms) => ms / 1000).join('–')} s; debounce ${TYPING.debounceMs} ms; first token ${TYPING.firstTokenMs} ms, ${TYPING.tokensPerSecond} tokens/s`,
        target: '(context)',
        measured: `time scale ÷${SPEED} (--speed=${SPEED}): ${typedSeconds.toFixed(0)} s of typing, ${(typedSeconds * SPEED).toFixed(0)} s at ×1`,
        data: { speed: SPEED, typed: TYPED, sizes: SIZES, samples: SAMPLES, typing: TYPING },
      },
      ...runs.flatMap(sizeRows),
      ...slopeRows(runs[0], runs[1]),
    ];
  } finally {
    await service.client.close();
    await emu.close();
  }
}

runBench('suggestions', main);
