import * as fs from 'node:fs';
import * as path from 'node:path';
import { CHAT_PROTOCOL_VERSION, type MessageView, type SnapshotMessage } from '../../src/core/chatProtocol';
import { RESULTS_DIR } from '../harness/paths';
import { alternate, arg, fmtMs, fmtRatio, percentile, ROUNDS, runBench, SMOKE, stats, type RatioStats, type Row } from './benchReport';
import { batchedAppends, longAnswer, longFence, longList, longTable } from './corpus';
import { summariseProfile, type CpuProfile } from './profileSummary';
import { traceRun } from './renderTrace';
import { openWebviewPage, type PageDocument, type PageWindow } from './webviewPage';

/**
 * Benchmark (not a timed test): the real webview bundle in Chromium renders answers as the host
 * streams them, against one render of the final text, alternated over rounds in one run. Every
 * frame is measured from the webview's render to the first task after paint. Appends are what the
 * host's AppendBatcher produces for a fast (~1,000 tokens/s) and a slow (~20 tokens/s) model. The
 * run fails only when a streamed DOM differs from the one-shot DOM.
 *
 *   node out/test/bench/render.bench.js [--rounds=5] [--only=<case substring>] [--skip=<case substring>]...
 *     [--profile=<case substring>] (one more streamed run under the profiler, after the measured rounds)
 *     [--trace=<case substring>] (one more streamed and one-shot run under Chromium's tracer: style, layout, paint)
 */

declare const window: PageWindow;
declare const document: PageDocument;

const FAST = 1000;
const SLOW = 20;

interface RunResult { ms: number; frames: number[]; html: string; floorMs?: number }

interface Case {
  name: string;
  text: string;
  tokensPerSecond: number;
  target: number;
  /** Also counted in the p99-frame-time row (the mixed answers of every size). */
  p99?: boolean;
}

function snapshot(conversation: string, text: string | undefined, status: MessageView['status']): SnapshotMessage {
  const now = Date.now();
  const messages: MessageView[] = text === undefined ? [] : [
    { id: 'u1', role: 'user', text: 'Write a long answer.', createdAt: now },
    { id: 'a1', role: 'assistant', text, createdAt: now, status },
  ];
  return {
    v: CHAT_PROTOCOL_VERSION,
    type: 'snapshot',
    conversation: { id: conversation, title: 'Benchmark', params: {}, messages },
    streaming: status === 'streaming' ? { messageId: 'a1', seq: 0 } : undefined,
    attachments: [],
    environment: { effectiveModel: 'bench-model', defaults: {} },
  };
}

/** Streams appends through the real message handler, one host append per painted frame. */
async function streamInPage(args: { blank: SnapshotMessage; start: SnapshotMessage; appends: string[] }): Promise<RunResult> {
  window.__deliver(args.blank);
  await window.__frame();
  const conversationId = args.start.conversation.id;
  const v = args.start.v;
  window.__deliver(args.start);
  await window.__frame();
  const frames: number[] = [];
  for (let i = 0; i < args.appends.length; i++) {
    const ms = window.__deliver({ v, type: 'append', seq: i + 1, text: args.appends[i] });
    frames.push(ms + (await window.__frame()));
  }
  // The end of an answer is a patch without the text, as the host sends it.
  frames.push(window.__deliver({ v, type: 'messagePatch', conversationId, messageId: 'a1', status: 'done' }) + (await window.__frame()));
  let total = 0;
  for (const f of frames) total += f;
  return { ms: total, frames, html: document.querySelector('[data-message-id="a1"] .markdown')?.innerHTML ?? '' };
}

async function oneShotInPage(args: { blank: SnapshotMessage; start: SnapshotMessage }): Promise<RunResult> {
  window.__deliver(args.blank);
  await window.__frame();
  const ms = window.__deliver(args.start) + (await window.__frame());
  const html = document.querySelector('[data-message-id="a1"] .markdown')?.innerHTML ?? '';
  // The frame floor: what a frame costs that only adds one character to the answer's DOM.
  const tail = document.querySelector('[data-message-id="a1"] .md-tail') as unknown as { append(text: string): void; textContent: string | null };
  const floor: number[] = [];
  for (let i = 0; i < 30; i++) {
    const started = performance.now();
    window.requestAnimationFrame(() => tail.append('x'));
    floor.push(performance.now() - started + (await window.__frame()));
  }
  tail.textContent = '';
  floor.sort((a, b) => a - b);
  return { ms, frames: [ms], html, floorMs: floor[Math.floor(floor.length / 2)] };
}

function cases(): Case[] {
  const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
  const skip = process.argv.filter((a) => a.startsWith('--skip=')).map((a) => a.slice('--skip='.length));
  const kb = (n: number) => n * 1000;
  const mixed = SMOKE ? [kb(3)] : [kb(10), kb(200), kb(1000)];
  const blockBytes = SMOKE ? kb(1.5) : kb(20);
  const fenceLines = SMOKE ? 60 : 2000;
  const all: Case[] = [];
  for (const size of mixed) {
    const text = longAnswer(size);
    all.push({ name: `mixed ${size / 1000} KB, fast`, text, tokensPerSecond: FAST, target: 2, p99: true });
    all.push({ name: `mixed ${size / 1000} KB, slow`, text, tokensPerSecond: SLOW, target: 3 });
  }
  for (const [label, text] of [[`list ${blockBytes / 1000} KB`, longList(blockBytes)], [`table ${blockBytes / 1000} KB`, longTable(blockBytes)], [`code fence ${fenceLines} lines`, longFence(fenceLines)]]) {
    all.push({ name: `${label}, fast`, text, tokensPerSecond: FAST, target: 3 });
    all.push({ name: `${label}, slow`, text, tokensPerSecond: SLOW, target: 3 });
  }
  return all.filter((c) => (!only || c.name.includes(only)) && !skip.some((s) => c.name.includes(s)));
}

async function main(): Promise<Row[]> {
  const webview = await openWebviewPage({ unthrottledFrames: true });
  const rows: Row[] = [];
  const p99s: { name: string; p99: number }[] = [];
  const profileCase = process.argv.find((a) => a.startsWith('--profile='))?.slice('--profile='.length);
  const traceCase = process.argv.find((a) => a.startsWith('--trace='))?.slice('--trace='.length);
  let runs = 0;
  try {
    const { page } = webview;
    const blank = () => snapshot(`blank-${runs++}`, undefined, 'done');
    // Warm up the JIT and highlight.js grammars, as a long session would have.
    await page.evaluate(oneShotInPage, { blank: blank(), start: snapshot('warmup', longAnswer(20_000, 3), 'done') });
    for (const c of cases()) {
      const appends = batchedAppends(c.text, c.tokensPerSecond);
      const stream = () => page.evaluate(streamInPage, { blank: blank(), start: snapshot(`s-${runs}`, '', 'streaming'), appends });
      const oneShot = () => page.evaluate(oneShotInPage, { blank: blank(), start: snapshot(`o-${runs}`, c.text, 'done') });
      const started = Date.now();
      const result = await alternate(ROUNDS, stream, oneShot, (r) => r.ms);
      const mismatch = result.measured.findIndex((r) => r.html !== result.baseline[0].html || !r.html);
      if (mismatch >= 0) throw new Error(`${c.name}: the streamed DOM differs from the one-shot DOM (round ${mismatch + 1})`);
      const allFrames = result.measured.flatMap((r) => r.frames);
      const p99 = percentile(allFrames, 99);
      if (c.p99) p99s.push({ name: c.name.replace(/, fast$/, ''), p99 });
      const streamedMs = stats(result.measured.map((r) => r.ms));
      const oneShotMs = stats(result.baseline.map((r) => r.ms));
      // Renderer work above the frame floor: what no renderer that paints every append can avoid is taken out.
      const aboveFloor = stats(result.measured.map((r, i) => Math.max(0, r.ms - (appends.length + 1) * (result.baseline[i].floorMs ?? 0)) / result.baseline[i].ms));
      const floorMs = stats(result.baseline.map((r) => r.floorMs ?? 0));
      rows.push(ratioRow(c, appends, result.ratios, streamedMs, oneShotMs, p99, aboveFloor, floorMs.median));
      console.log(`  ${c.name}: ${fmtRatio(result.ratios)}, above the frame floor ${fmtRatio(aboveFloor)} (${appends.length} appends, streamed ${fmtMs(streamedMs.median)}, one-shot ${fmtMs(oneShotMs.median)}, floor ${fmtMs(floorMs.median)}/frame, p99 frame ${fmtMs(p99)}, ${((Date.now() - started) / 1000).toFixed(0)} s)`);
      if (profileCase && c.name.includes(profileCase)) await profile(page, c, () => stream().then(() => undefined));
      if (traceCase && c.name.includes(traceCase)) {
        for (const line of await traceRun(page, `${c.name} streamed`, () => stream().then(() => undefined))) console.log(`  ${line}`);
        for (const line of await traceRun(page, `${c.name} one-shot`, () => oneShot().then(() => undefined))) console.log(`  ${line}`);
      }
    }
  } finally {
    await webview.close();
  }
  if (p99s.length) {
    const worst = Math.max(...p99s.map((p) => p.p99));
    rows.push({
      what: 'p99 frame time while streaming (fast model), mixed answers',
      target: '<= 8 ms, flat to 1 MB',
      measured: p99s.map((p) => `${p.name.replace('mixed ', '')}: ${fmtMs(p.p99)}`).join(', '),
      met: SMOKE ? undefined : worst <= 8,
      data: { p99s },
    });
  }
  rows.push({ what: 'streamed DOM equals one-shot DOM, every case and round', target: 'identical', measured: 'identical', met: true });
  return rows;
}

function ratioRow(c: Case, appends: string[], ratios: RatioStats, streamed: RatioStats, oneShot: RatioStats, p99: number, aboveFloor: RatioStats, floorMs: number): Row {
  const averageAppend = c.text.length / appends.length;
  return {
    what: `streamed / one-shot render, ${c.name} (${appends.length} appends of ~${averageAppend.toFixed(0)} chars)`,
    target: `<= ${c.target}x`,
    measured: `${fmtRatio(ratios)} (above a ${fmtMs(floorMs)} frame floor: ${fmtRatio(aboveFloor)})`,
    met: SMOKE ? undefined : ratios.median <= c.target,
    data: { ratios, aboveFloor, floorMs, streamedMs: streamed, oneShotMs: oneShot, appends: appends.length, answerBytes: c.text.length, p99FrameMs: p99, tokensPerSecond: c.tokensPerSecond },
  };
}

/** One more streamed run under Chromium's sampling profiler; writes the .cpuprofile and prints the top self times. */
async function profile(page: import('playwright-core').Page, c: Case, run: () => Promise<void>): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: arg('sampling-us', 200) });
  await cdp.send('Profiler.start');
  await run();
  const { profile: cpuProfile } = await cdp.send('Profiler.stop');
  const dir = path.join(RESULTS_DIR, 'bench');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `render-${c.name.replace(/[^\w]+/g, '-')}.cpuprofile`);
  fs.writeFileSync(file, JSON.stringify(cpuProfile));
  console.log(`  profile of "${c.name}" (${file}):`);
  for (const line of summariseProfile(cpuProfile as CpuProfile, 15)) console.log(`    ${line}`);
}

runBench('render', main);
