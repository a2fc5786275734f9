import { CHAT_PROTOCOL_VERSION, type MessageView, type SnapshotMessage } from '../../src/core/chat/protocol/chatProtocol';
import { fmtMs, fmtRatio, percentile, ROUNDS, runBench, SMOKE, stats, type RatioStats, type Row } from './benchReport';
import { batchedAppends, longAnswer, longFence, longList, longTable } from '../shared/answerCorpus';
import { profileRun } from './profileSummary';
import { traceRun } from './renderTrace';
import type { Page } from 'playwright-core';
import { openWebviewPage, type CpuTime, type PageDocument, type PageWindow } from './webviewPage';

/**
 * Benchmark (not a timed test): the real webview bundle in Chromium renders answers as the host
 * streams them, against one render of the final text, alternated over rounds in one run; within a
 * round the streamed runs and the reveal take turns a few appends at a time (SLICE_APPENDS). Every
 * frame is measured from the webview's render to the first task after paint. Appends are what the
 * host's AppendBatcher produces for a fast (~1,000 tokens/s) and a slow (~20 tokens/s) model. The
 * run fails only when a streamed DOM differs from the one-shot DOM.
 *
 *   node out/test/bench/render.bench.js [--rounds=5] [--only=<case substring>] [--skip=<case substring>]...
 *     [--profile=<case substring>] (one more streamed run under the profiler, after the measured rounds)
 *     [--trace=<case substring>] (one more streamed, one-shot and revealed run under Chromium's tracer: style, layout, paint)
 *     [--before=<webview bundle>] (the same cases with another commit's bundle on a second page, its stream taking turns with ours;
 *     the bundle must speak the same chat protocol version (CHAT_PROTOCOL_VERSION, 3 since appends became tuples))
 */

declare const window: PageWindow;
declare const document: PageDocument;

const FAST = 1000;
const SLOW = 20;

interface RunResult {
  ms: number;
  frames: number[];
  /** Per frame, our script in it (streamed runs only). */
  frameScripts?: number[];
  /** Per frame, idle callbacks that ran inside it (timed out, so run as a task before the frame ended). */
  frameIdles?: number[];
  html: string;
  /** The renderer's CPU time in the measured part (no wait for a core): main thread, whole process. */
  cpu: CpuTime;
  /** The page's own script in that time: message handling, animation-frame and idle callbacks (ours). */
  scriptMs: number;
  /** Of which idle callbacks (streamed runs only): counted in `ms`, outside any frame. */
  idleMs?: number;
  floorMs?: number;
  /** The floor frame's own script: dispatching the message, requesting the frame, adding the character. */
  floorScriptMs?: number;
}

type RevealResult = Pick<RunResult, 'ms' | 'frames' | 'cpu'>;

interface Case {
  name: string;
  text: string;
  tokensPerSecond: number;
  target: number;
  /** Also counted in the p99-frame-time row (the mixed answers of every size). */
  p99?: boolean;
  /**
   * false: no reveal baseline. A fence's one-shot DOM is one <pre> that, revealed line by line, is
   * laid out whole every frame (2,000 lines: 21x the one-shot fast, far longer slow); the streamed
   * fence grows by chunks instead (growingFence.ts), so that reveal is no floor for it.
   */
  reveal?: boolean;
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

/**
 * A streamed or revealed run is played in turns of this many appends, the runs of a round (the
 * stream, the reveal, another bundle's stream) taking turns. This host's speed drifts over seconds:
 * played whole one after the other (~15 s each), the 1 MB stream's main-thread CPU time ranged
 * 12.9–20.8 s over the 9 rounds of one run, and streamed / revealed 1.16–1.65x, so each round
 * compared two different machines. A turn costs each side the same few milliseconds (the CPU reads,
 * the page waking), which pulls the ratio towards 1: at 8 appends the reveal took ~15% longer than
 * played whole; at 24 (~100 ms of a fast stream) it takes as long, and the pause a turn leaves in
 * the other runs stays under the renderer's stall threshold (150 ms, streamingMarkdown.ts), so every
 * append still arrives at a fast model's pace.
 */
const SLICE_APPENDS = 24;

/** A run played slice by slice (`slice(appends)` is true once it ended), then its result. */
interface SlicedRun<R> {
  slice(appends: number): Promise<boolean>;
  result(): Promise<R>;
}

/** What a sliced run keeps in its page between slices. */
interface PageRun {
  start: SnapshotMessage;
  /** The host's appends (a streamed run) or only their lengths (a revealed one). */
  appends: string[];
  appendLengths: number[];
  /** The next append. */
  next: number;
  frames: number[];
  /**
   * The renderer's CPU time in the run's turns, each read from its start to its end (its idle
   * callbacks included), not from the run's start: between turns the page answers the harness, as
   * often for a reveal as for a stream, and that time counted on both sides brought their ratio
   * closer to 1.
   */
  cpu: CpuTime;
  /** Streamed runs. */
  frameScripts: number[];
  frameIdles: number[];
  scriptBefore: number;
  idleBefore: number;
  /** Revealed runs: `reveal(chars)` shows the next characters of the DOM's `textChars`, `check()` compares the DOM with the one-shot's. */
  reveal?: (chars: number) => void;
  check?: () => void;
  textChars: number;
  /** Markdown characters sent so far, and DOM characters revealed. */
  sent: number;
  revealed: number;
}
type RunWindow = PageWindow & { __run: PageRun; __pauseRun(): Promise<void>; __resumeRun(): Promise<void> };

/**
 * Installs in a page what its runs do between slices (a function evaluated in the page cannot call
 * another). The page rests between its slices: its idle callbacks run before its turn ends (their
 * time is counted as a stream's), and the streaming spinner stops, or its compositor would draw it
 * unthrottled through the other runs' turns on this 2-core machine. The run's CPU time is read from
 * the start of each slice to its end.
 */
function installRunPauses(): void {
  interface Played { pause(): void; play(): void }
  const w = window as RunWindow;
  let paused: Played[] = [];
  let sliceStart: CpuTime | undefined;
  w.__pauseRun = async () => {
    await new Promise<void>((resolve) => w.requestIdleCallback(() => resolve()));
    paused = (document as unknown as { getAnimations(): Played[] }).getAnimations();
    for (const animation of paused) animation.pause();
    if (!sliceStart) return;
    const spent = await w.__cpuSince!(sliceStart);
    sliceStart = undefined;
    w.__run.cpu.mainThreadMs += spent.mainThreadMs;
    w.__run.cpu.processMs += spent.processMs;
  };
  w.__resumeRun = async () => {
    sliceStart = await w.__cpuNow!();
    for (const animation of paused) animation.play();
    paused = [];
  };
}

/** Streams appends through the real message handler, one host append per painted frame: the start. */
async function streamBegin(args: { blank: SnapshotMessage; start: SnapshotMessage; appends: string[] }): Promise<void> {
  const w = window as RunWindow;
  w.__deliver(args.blank);
  await w.__frame();
  w.__deliver(args.start);
  await w.__frame();
  w.__run = {
    start: args.start, appends: args.appends, appendLengths: [], next: 0, frames: [], frameScripts: [], frameIdles: [],
    cpu: { mainThreadMs: 0, processMs: 0 }, scriptBefore: w.__scriptMs, idleBefore: w.__idleMs, textChars: 0, sent: 0, revealed: 0,
  };
  await w.__pauseRun();
}

/** The next `count` appends; after the last, the end of the answer (a patch without the text, as the host sends it). */
async function streamSlice(count: number): Promise<boolean> {
  const w = window as RunWindow;
  const run = w.__run;
  const { v, conversation } = run.start;
  await w.__resumeRun();
  for (const end = run.next + count; run.next < end && run.next <= run.appends.length; run.next++) {
    const before = w.__scriptMs;
    const idle = w.__idleMs;
    const ms = run.next < run.appends.length
      ? w.__deliver([v, run.next + 1, run.appends[run.next]])
      : w.__deliver({ v, type: 'messagePatch', conversationId: conversation.id, messageId: 'a1', status: 'done' });
    run.frames.push(ms + (await w.__frame()));
    run.frameScripts.push(w.__scriptMs - before);
    run.frameIdles.push(w.__idleMs - idle);
  }
  await w.__pauseRun();
  return run.next > run.appends.length;
}

async function streamEnd(): Promise<RunResult> {
  const run = (window as RunWindow).__run;
  const { cpu } = run;
  const scriptMs = window.__scriptMs - run.scriptBefore;
  // Work the page deferred to idle callbacks left the frames, not the total.
  const idleMs = window.__idleMs - run.idleBefore;
  let total = idleMs;
  for (const f of run.frames) total += f;
  return { ms: total, frames: run.frames, frameScripts: run.frameScripts, frameIdles: run.frameIdles, cpu, scriptMs, idleMs, html: document.querySelector('[data-message-id="a1"] .markdown')?.innerHTML ?? '' };
}

async function oneShotInPage(args: { blank: SnapshotMessage; start: SnapshotMessage }): Promise<RunResult> {
  window.__deliver(args.blank);
  await window.__frame();
  const cpuBefore = await window.__cpuNow!();
  const scriptBefore = window.__scriptMs;
  const ms = window.__deliver(args.start) + (await window.__frame());
  const scriptMs = window.__scriptMs - scriptBefore;
  const cpu = await window.__cpuSince!(cpuBefore);
  const html = document.querySelector('[data-message-id="a1"] .markdown')?.innerHTML ?? '';
  // The frame floor: what a frame costs that receives a message and only adds one character to the
  // answer's DOM (the message is dropped by the version check; the character goes in a rAF callback).
  const tail = document.querySelector('[data-message-id="a1"] .md-tail') as unknown as { append(text: string): void; textContent: string | null };
  const floor: number[] = [];
  const floorScript: number[] = [];
  for (let i = 0; i < 30; i++) {
    const scriptBefore = window.__scriptMs;
    const started = performance.now();
    const deliverMs = window.__deliver({ v: -1 } as unknown as SnapshotMessage);
    window.requestAnimationFrame(() => tail.append('x'));
    const called = performance.now() - started;
    floor.push(called + (await window.__frame()));
    // The rAF call itself is script too (in a stream it happens inside the message handler).
    floorScript.push(called - deliverMs + window.__scriptMs - scriptBefore);
  }
  tail.textContent = '';
  // This function runs in the page, which cannot reach benchReport's stats.
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  // The mean: a frame's script is near the timer's 0.1 ms resolution, whose jitter averages out.
  return { ms, frames: [ms], html, cpu, scriptMs, floorMs: median(floor), floorScriptMs: floorScript.reduce((a, b) => a + b, 0) / floorScript.length };
}

/**
 * The same answer growing at the same pace with no renderer at all: its one-shot DOM revealed in
 * document order, each append's share of its text added as new text nodes (elements cloned as the
 * text reaches them) in one frame callback. What showing this content grow costs the browser, paid
 * by any renderer that paints each append: the baseline our streamed render is compared with.
 */
async function revealBegin(args: { blank: SnapshotMessage; start: SnapshotMessage; appendLengths: number[] }): Promise<void> {
  interface Cloneable { nodeType: number; data: string; childNodes: ArrayLike<Cloneable>; cloneNode(deep: boolean): Cloneable; appendChild(child: Cloneable): void; replaceWith(other: Cloneable): void; innerHTML: string }
  const doc = document as unknown as { createTextNode(text: string): Cloneable };
  window.__deliver(args.blank);
  await window.__frame();
  window.__deliver(args.start);
  await window.__frame();
  // The chrome a streamed answer shows (the "Answering…" spinner, the composer's Stop): its animation
  // is drawn every frame (a slow model's compositor work over a third more with it), and it is not
  // the renderer's.
  const { v, conversation } = args.start;
  window.__deliver({ v, type: 'messagePatch', conversationId: conversation.id, messageId: 'a1', status: 'streaming' });
  await window.__frame();
  if (!document.querySelector('[data-message-id="a1"] .message-status .codicon-loading')) throw new Error('the reveal shows no streaming chrome');
  const final = document.querySelector('[data-message-id="a1"] .markdown') as unknown as Cloneable;
  const steps: ({ enter: Cloneable } | { text: string } | { leave: true })[] = [];
  const walk = (node: Cloneable) => {
    for (const child of Array.from(node.childNodes)) {
      if (child.nodeType === 3) steps.push({ text: child.data });
      else if (child.nodeType === 1) {
        steps.push({ enter: child });
        walk(child);
        steps.push({ leave: true });
      }
    }
  };
  walk(final);
  const shown = final.cloneNode(false);
  final.replaceWith(shown);
  const stack = [shown];
  let step = 0;
  let offset = 0;
  const reveal = (chars: number) => {
    while (step < steps.length) {
      const current = steps[step];
      if ('leave' in current) {
        stack.pop();
        step++;
      } else if (chars <= 0) {
        return;
      } else if ('enter' in current) {
        const clone = current.enter.cloneNode(false);
        stack[stack.length - 1].appendChild(clone);
        stack.push(clone);
        step++;
      } else {
        const n = Math.min(chars, current.text.length - offset);
        stack[stack.length - 1].appendChild(doc.createTextNode(current.text.slice(offset, offset + n)));
        offset += n;
        chars -= n;
        if (offset === current.text.length) {
          step++;
          offset = 0;
        }
      }
    }
  };
  const check = () => {
    if (shown.innerHTML !== final.innerHTML) throw new Error('the revealed DOM differs from the one-shot DOM');
  };
  // Appends are markdown source; the DOM has less text (no markup): each reveals its share of it.
  const textChars = steps.reduce((sum, s) => sum + ('text' in s ? s.text.length : 0), 0);
  const w = window as RunWindow;
  w.__run = {
    start: args.start, appends: [], appendLengths: args.appendLengths, next: 0, frames: [], frameScripts: [], frameIdles: [],
    cpu: { mainThreadMs: 0, processMs: 0 }, scriptBefore: 0, idleBefore: 0, reveal, check, textChars, sent: 0, revealed: 0,
  };
  await w.__pauseRun();
}

async function revealSlice(count: number): Promise<boolean> {
  const w = window as RunWindow;
  const run = w.__run;
  const { v, conversation } = run.start;
  const lengths = run.appendLengths;
  const sourceChars = lengths.reduce((sum, n) => sum + n, 0);
  await w.__resumeRun();
  for (const end = run.next + count; run.next < end && run.next <= lengths.length; run.next++) {
    const last = run.next === lengths.length;
    run.sent += last ? 0 : lengths[run.next];
    const target = last ? Infinity : Math.round((run.sent / sourceChars) * run.textChars);
    const chars = target - run.revealed;
    run.revealed = target;
    const started = performance.now();
    // The last frame ends the answer, as the streamed run's does.
    if (last) w.__deliver({ v, type: 'messagePatch', conversationId: conversation.id, messageId: 'a1', status: 'done' });
    w.requestAnimationFrame(() => run.reveal!(chars));
    run.frames.push(performance.now() - started + (await w.__frame()));
  }
  await w.__pauseRun();
  return run.next > lengths.length;
}

async function revealEnd(): Promise<RevealResult> {
  const run = (window as RunWindow).__run;
  const { cpu } = run;
  run.check!();
  let ms = 0;
  for (const f of run.frames) ms += f;
  return { ms, frames: run.frames, cpu };
}

/** Plays the runs a slice each in turn, the order rotated every turn, until every one has ended. */
async function interleave(runs: SlicedRun<unknown>[]): Promise<void> {
  let playing = runs;
  for (let turn = 0; playing.length; turn++) {
    const ended = new Set<SlicedRun<unknown>>();
    for (let k = 0; k < playing.length; k++) {
      const run = playing[(k + turn) % playing.length];
      if (await run.slice(SLICE_APPENDS)) ended.add(run);
    }
    playing = playing.filter((run) => !ended.has(run));
  }
}

/** One run on its own, whole (a warm-up, a profiled or traced run, the context row's). */
async function playWhole<R>(run: SlicedRun<R>): Promise<R> {
  while (!(await run.slice(Number.POSITIVE_INFINITY)));
  return run.result();
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
  for (const [label, text, reveal] of [[`list ${blockBytes / 1000} KB`, longList(blockBytes), true], [`table ${blockBytes / 1000} KB`, longTable(blockBytes), true], [`code fence ${fenceLines} lines`, longFence(fenceLines), false]] as const) {
    all.push({ name: `${label}, fast`, text, tokensPerSecond: FAST, target: 3, reveal });
    // A smoke run paces each kind of block once: the mixed answer's slow case has already run the slow pacing.
    if (!SMOKE) all.push({ name: `${label}, slow`, text, tokensPerSecond: SLOW, target: 3, reveal });
  }
  return all.filter((c) => (!only || c.name.includes(only)) && !skip.some((s) => c.name.includes(s)));
}

interface Variant {
  label: string;
  page: import('playwright-core').Page;
  measured: RunResult[];
  baseline: RunResult[];
  /** The one-shot DOM revealed at the same pace, on a page of its own (in the first variant's rounds only). */
  revealed: RevealResult[];
  p99s: { name: string; p99: number; scriptP99: number; revealP99?: number }[];
}

async function main(): Promise<Row[]> {
  // --before=<bundle>: the same cases on a second page with another commit's webview bundle, its stream
  // taking turns with this one's, so that before and after share the machine's load.
  const beforeBundle = process.argv.find((a) => a.startsWith('--before='))?.slice('--before='.length);
  const pages = [await openWebviewPage({ unthrottledFrames: true, cpuClock: true })];
  const rows: Row[] = [];
  const profileCase = process.argv.find((a) => a.startsWith('--profile='))?.slice('--profile='.length);
  const traceCase = process.argv.find((a) => a.startsWith('--trace='))?.slice('--trace='.length);
  let runs = 0;
  try {
    if (beforeBundle) pages.push(await openWebviewPage({ unthrottledFrames: true, cpuClock: true, bundle: beforeBundle }));
    const variants: Variant[] = pages.map((p, i) => ({ label: i === 0 ? '' : 'before: ', page: p.page, measured: [], baseline: [], revealed: [], p99s: [] }));
    // A page of its own: run on a variant's page, the reveals left it slower for later cases (a
    // fence measured 15-25% slower there than on the other variant's page, equal when run alone).
    const revealPage = await openWebviewPage({ unthrottledFrames: true, cpuClock: true });
    pages.push(revealPage);
    for (const p of pages) await p.page.evaluate(installRunPauses);
    const blank = () => snapshot(`blank-${runs++}`, undefined, 'done');
    const stream = async (page: Page, appends: string[]): Promise<SlicedRun<RunResult>> => {
      await page.evaluate(streamBegin, { blank: blank(), start: snapshot(`s-${runs}`, '', 'streaming'), appends });
      return { slice: (count) => page.evaluate(streamSlice, count), result: () => page.evaluate(streamEnd) };
    };
    // Warm up the JIT and highlight.js grammars, as a long session would have: both paths, or the
    // first streamed round of the first case also measured compiling the streaming code.
    const warmup = longAnswer(20_000, 3);
    for (const page of pages.slice(0, -1)) {
      await page.page.evaluate(oneShotInPage, { blank: blank(), start: snapshot('warmup-o', warmup, 'done') });
      await playWhole(await stream(page.page, batchedAppends(warmup, FAST)));
    }
    await revealPage.page.evaluate(oneShotInPage, { blank: blank(), start: snapshot('warmup-r', warmup, 'done') });
    for (const c of cases()) {
      const appends = batchedAppends(c.text, c.tokensPerSecond);
      const oneShot = (v: Variant) => v.page.evaluate(oneShotInPage, { blank: blank(), start: snapshot(`o-${runs}`, c.text, 'done') });
      const reveal = async (): Promise<SlicedRun<RevealResult>> => {
        await revealPage.page.evaluate(revealBegin, { blank: blank(), start: snapshot(`r-${runs}`, c.text, 'done'), appendLengths: appends.map((a) => a.length) });
        return { slice: (count) => revealPage.page.evaluate(revealSlice, count), result: () => revealPage.page.evaluate(revealEnd) };
      };
      const started = Date.now();
      const whole: { streamed: RunResult[]; revealed: RevealResult[] } = { streamed: [], revealed: [] };
      for (const v of variants) {
        v.measured = [];
        v.baseline = [];
        v.revealed = [];
      }
      // Alternated: the streams (each variant's) and the reveal slice by slice, the one-shots before
      // or after them, and the order of the variants flips every round.
      for (let round = 0; round < ROUNDS; round++) {
        const order = round % 2 === 0 ? variants : [...variants].reverse();
        const oneShots = async () => {
          for (const v of order) v.baseline.push(await oneShot(v));
        };
        if (round % 2 === 1) await oneShots();
        const streams: SlicedRun<RunResult>[] = [];
        for (const v of order) streams.push(await stream(v.page, appends));
        const revealed = c.reveal !== false ? await reveal() : undefined;
        await interleave(revealed ? [...streams, revealed] : streams);
        for (const [k, v] of order.entries()) v.measured.push(await streams[k].result());
        if (revealed) variants[0].revealed.push(await revealed.result());
        if (c.p99 && revealed) {
          // Also played whole, as before turns: the context row beside the judged one.
          const inOrder = [
            async () => { whole.streamed.push(await playWhole(await stream(variants[0].page, appends))); },
            async () => { whole.revealed.push(await playWhole(await reveal())); },
          ];
          for (const play of round % 2 === 0 ? inOrder : inOrder.reverse()) await play();
        }
        if (round % 2 === 0) await oneShots();
      }
      for (const v of variants) {
        const mismatch = v.measured.findIndex((r) => r.html !== v.baseline[0].html || !r.html);
        if (mismatch >= 0) throw new Error(`${v.label}${c.name}: the streamed DOM differs from the one-shot DOM (round ${mismatch + 1})`);
        const { row, line, p99, scriptP99, reveal } = summarise(c, appends, v.measured, v.baseline, variants[0].revealed);
        if (c.p99) v.p99s.push({ name: c.name.replace(/, fast$/, ''), p99, scriptP99, ...(reveal && { revealP99: reveal.p99 }) });
        rows.push(v.label ? { ...row, what: `${v.label}${row.what}`, met: undefined } : row);
        if (c.p99 && reveal && !v.label) rows.push(revealRow(c, reveal, scriptP99), wholeRow(c, whole.streamed, whole.revealed));
        console.log(`  ${v.label}${c.name}: ${line}, ${((Date.now() - started) / 1000).toFixed(0)} s)`);
      }
      const page = variants[0].page;
      const streamWhole = async () => { await playWhole(await stream(page, appends)); };
      const revealWhole = async () => { await playWhole(await reveal()); };
      if (profileCase && c.name.includes(profileCase)) {
        // The frame callback's calls: are the slowest frames our code, or the thread stopped in them?
        for (const line of await profileRun(page, c.name, streamWhole, 'renderFrame')) console.log(`  ${line}`);
        // The same pace with no renderer: what of the above the page pays anyway (its scrolling, chrome).
        if (c.reveal !== false) for (const line of await profileRun(revealPage.page, `${c.name} revealed`, revealWhole)) console.log(`  ${line}`);
      }
      if (traceCase && c.name.includes(traceCase)) {
        for (const line of await traceRun(page, `${c.name} streamed`, streamWhole)) console.log(`  ${line}`);
        for (const line of await traceRun(page, `${c.name} one-shot`, () => oneShot(variants[0]).then(() => undefined))) console.log(`  ${line}`);
        if (c.reveal !== false) for (const line of await traceRun(revealPage.page, `${c.name} revealed`, revealWhole)) console.log(`  ${line}`);
      }
    }
    for (const v of variants) {
      if (!v.p99s.length) continue;
      const worst = Math.max(...v.p99s.map((p) => p.p99));
      rows.push({
        what: `${v.label}p99 frame time while streaming (fast model), mixed answers`,
        target: '<= 8 ms, flat to 1 MB',
        // Beside each: the p99 of our script in a frame, and of the no-renderer reveal's frames (the browser alone).
        measured: v.p99s.map((p) => `${p.name.replace('mixed ', '')}: ${fmtMs(p.p99)} (our script ${fmtMs(p.scriptP99)}${p.revealP99 === undefined ? '' : `, no renderer ${fmtMs(p.revealP99)}`})`).join(', '),
        met: SMOKE || v.label ? undefined : worst <= 8,
        data: { p99s: v.p99s },
      });
    }
  } finally {
    for (const p of pages) await p.close();
  }
  rows.push({ what: 'streamed DOM equals one-shot DOM, every case and round', target: 'identical', measured: 'identical', met: true });
  return rows;
}

/**
 * The floor a streaming renderer is held to: the browser's own reveal of the final DOM at the same
 * pace (no renderer at all), in wall time and in main-thread CPU, with our script's p99 per frame.
 * Judged at the largest fast case (1 MB), where a per-append cost that grows with the answer shows.
 */
function revealRow(c: Case, reveal: RevealShares, scriptP99: number): Row {
  const judged = !SMOKE && c.text.length >= 1_000_000;
  return {
    what: `streamed / revealed (the browser's own reveal at the same pace), ${c.name}`,
    target: '<= 1.25x (median); main-thread CPU <= 1.2x; our script p99 <= 8 ms/frame',
    measured: `${fmtRatio(reveal.streamedOverReveal)}; main-thread CPU ${fmtRatio(reveal.streamedOverRevealCpu)}; our script p99 ${fmtMs(scriptP99)}/frame`,
    met: judged ? reveal.streamedOverReveal.median <= 1.25 && reveal.streamedOverRevealCpu.median <= 1.2 && scriptP99 <= 8 : undefined,
    data: { streamedOverReveal: reveal.streamedOverReveal, streamedOverRevealCpu: reveal.streamedOverRevealCpu, scriptP99Ms: scriptP99 },
  };
}

/**
 * The judged row's stream and reveal played whole, one after the other, in the same rounds: the
 * stream then never rests, so its deferred work (idle-time checks, garbage collection) shares its
 * frames, where in turns (and between a real model's appends) it has pauses to run in. Its ratio
 * also moves with this host's drift (see SLICE_APPENDS).
 */
function wholeRow(c: Case, streamed: RunResult[], revealed: RevealResult[]): Row {
  const wall = stats(streamed.map((s, i) => s.ms / revealed[i].ms));
  const cpu = stats(streamed.map((s, i) => s.cpu.mainThreadMs / revealed[i].cpu.mainThreadMs));
  return {
    what: `the same, each played whole one after the other (the stream never rests), ${c.name}`,
    target: 'context',
    measured: `${fmtRatio(wall)}; main-thread CPU ${fmtRatio(cpu)}`,
    data: { streamedOverReveal: wall, streamedOverRevealCpu: cpu },
  };
}

function summarise(c: Case, appends: string[], measured: RunResult[], baseline: RunResult[], revealed: RevealResult[]): { row: Row; line: string; p99: number; scriptP99: number; reveal?: RevealShares } {
  const ratios = stats(measured.map((r, i) => r.ms / baseline[i].ms));
  const cpuRatios = stats(measured.map((r, i) => r.cpu.mainThreadMs / baseline[i].cpu.mainThreadMs));
  // The browser's share: the same content shown growing at the same pace with no renderer, over the
  // one-shot; and ours: the streamed render over that.
  const reveal: RevealShares | undefined = revealed.length === 0 ? undefined : {
    overOneShot: stats(revealed.map((r, i) => r.ms / baseline[i].ms)),
    streamedOverReveal: stats(measured.map((r, i) => r.ms / revealed[i].ms)),
    streamedOverRevealCpu: stats(measured.map((r, i) => r.cpu.mainThreadMs / revealed[i].cpu.mainThreadMs)),
    streamedOverRevealProcessCpu: stats(measured.map((r, i) => r.cpu.processMs / revealed[i].cpu.processMs)),
    streamedOverNecessaryCpu: stats(measured.map((r, i) => r.cpu.mainThreadMs / (revealed[i].cpu.mainThreadMs + baseline[i].scriptMs + appends.length * (baseline[i].floorScriptMs ?? 0)))),
    p99: percentile(revealed.flatMap((r) => r.frames), 99),
  };
  const revealLine = reveal ? `revealing the one-shot DOM at this pace ${fmtRatio(reveal.overOneShot)} (p99 frame ${fmtMs(reveal.p99)}), streamed / revealed ${fmtRatio(reveal.streamedOverReveal)}, in CPU time ${fmtRatio(reveal.streamedOverRevealCpu)} (main thread), ${fmtRatio(reveal.streamedOverRevealProcessCpu)} (renderer process), over revealed + the one-shot's script + receiving the appends ${fmtRatio(reveal.streamedOverNecessaryCpu)} (main thread); ` : '';
  const p99 = percentile(measured.flatMap((r) => r.frames), 99);
  // What the slowest frames spent in our script: tells a spike of ours from one of Chromium's.
  const slowest = measured.flatMap((r) => r.frames.map((ms, i) => ({ ms, script: r.frameScripts?.[i] ?? 0, idle: r.frameIdles?.[i] ?? 0, i }))).filter((f) => f.ms >= p99);
  const slowScript = slowest.reduce((sum, f) => sum + f.script, 0) / Math.max(1, slowest.length);
  const slowIdle = slowest.reduce((sum, f) => sum + f.idle, 0) / Math.max(1, slowest.length);
  const streamedMs = stats(measured.map((r) => r.ms));
  // Absolute, for before/after runs: a change outside the renderer (the page's scrolling) moves the reveal as much as the stream.
  const streamedCpuMs = stats(measured.map((r) => r.cpu.mainThreadMs));
  const oneShotMs = stats(baseline.map((r) => r.ms));
  const frameCount = appends.length + 1;
  const floorMs = (i: number) => baseline[i].floorMs ?? 0;
  const shares: Shares = {
    // What a frame costs Chromium whatever the renderer does, paid once per append: the machine's.
    floor: stats(measured.map((_, i) => (frameCount * floorMs(i)) / baseline[i].ms)),
    // The streamed total minus that floor, over the one-shot.
    aboveFloor: stats(measured.map((r, i) => Math.max(0, r.ms - frameCount * floorMs(i)) / baseline[i].ms)),
    // Our script over the whole stream (message handling, parse, sanitise, DOM building), over the
    // one-shot, without the floor frame's own script (message dispatch, frame request), which the floor holds.
    script: stats(measured.map((r, i) => Math.max(0, r.scriptMs - frameCount * (baseline[i].floorScriptMs ?? 0)) / baseline[i].ms)),
    scriptPerFrameMs: stats(measured.map((r) => r.scriptMs / frameCount)),
    floorScriptMs: stats(baseline.map((r) => r.floorScriptMs ?? 0)),
    floorMs: stats(baseline.map((r) => r.floorMs ?? 0)),
  };
  const line = `${fmtRatio(ratios)} (main-thread CPU ${fmtRatio(cpuRatios)}); ${revealLine}floor ${fmtRatio(shares.floor)}, above it ${fmtRatio(shares.aboveFloor)}, our script above the floor's ${fmtRatio(shares.script)} (${fmtMs(shares.scriptPerFrameMs.median)}/frame, floor's ${fmtMs(shares.floorScriptMs.median)}, idle callbacks ${fmtMs(stats(measured.map((r) => r.idleMs ?? 0)).median)}) (${appends.length} appends, streamed ${fmtMs(streamedMs.median)} (main-thread CPU ${fmtMs(streamedCpuMs.median)}), one-shot ${fmtMs(oneShotMs.median)}, floor ${fmtMs(shares.floorMs.median)}/frame, p99 frame ${fmtMs(p99)}: ${slowest.length} frames >= p99 spent ${fmtMs(slowScript)} in our script on average (idle callbacks ${fmtMs(slowIdle)} of it), at appends ${slowest.slice(0, 8).map((f) => f.i).join(',')}`;
  const scriptP99 = percentile(measured.flatMap((r) => r.frameScripts ?? []), 99);
  return { row: ratioRow(c, appends, ratios, cpuRatios, { wall: streamedMs, cpu: streamedCpuMs }, oneShotMs, p99, shares, reveal), line, p99, scriptP99, ...(reveal && { reveal }) };
}

interface Shares {
  floor: RatioStats;
  aboveFloor: RatioStats;
  script: RatioStats;
  scriptPerFrameMs: RatioStats;
  floorScriptMs: RatioStats;
  floorMs: RatioStats;
}

interface RevealShares {
  overOneShot: RatioStats;
  streamedOverReveal: RatioStats;
  /** The same in CPU time, which leaves out waiting for a core: the renderer's main thread, and its whole process. */
  streamedOverRevealCpu: RatioStats;
  streamedOverRevealProcessCpu: RatioStats;
  /**
   * Main-thread CPU over what any renderer must pay at the least: the reveal (showing this content
   * grow), the one-shot render's own script (parsing, sanitising and building this answer once), and
   * receiving each append (the floor frame's script: the reveal gets only the end-of-answer patch,
   * which the streamed run gets too).
   */
  streamedOverNecessaryCpu: RatioStats;
  p99: number;
}

function ratioRow(c: Case, appends: string[], ratios: RatioStats, cpuRatios: RatioStats, streamed: { wall: RatioStats; cpu: RatioStats }, oneShot: RatioStats, p99: number, shares: Shares, reveal: RevealShares | undefined): Row {
  const averageAppend = c.text.length / appends.length;
  return {
    what: `streamed / one-shot render, ${c.name} (${appends.length} appends of ~${averageAppend.toFixed(0)} chars)`,
    target: `<= ${c.target}x`,
    measured: `${fmtRatio(ratios)} (main-thread CPU ${fmtRatio(cpuRatios)}; ${reveal ? `no renderer, the one-shot DOM revealed at this pace: ${fmtRatio(reveal.overOneShot)}; streamed / revealed ${fmtRatio(reveal.streamedOverReveal)}, in CPU time ${fmtRatio(reveal.streamedOverRevealCpu)}; ` : ''}frame floor ${fmtMs(shares.floorMs.median)}: ${fmtRatio(shares.floor)}; above it ${fmtRatio(shares.aboveFloor)}; our script above the floor's ${fmtRatio(shares.script)}, ${fmtMs(shares.scriptPerFrameMs.median)}/frame)`,
    met: SMOKE ? undefined : ratios.median <= c.target,
    data: { ratios, cpuRatios, ...shares, reveal, streamedMs: streamed.wall, streamedCpuMs: streamed.cpu, oneShotMs: oneShot, appends: appends.length, answerBytes: c.text.length, p99FrameMs: p99, tokensPerSecond: c.tokensPerSecond },
  };
}

runBench('render', main);
