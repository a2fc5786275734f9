import { eagerFrom, messageChars, snapshotParts } from '../../src/core/chat/protocol/snapshotParts';
import { CHAT_PROTOCOL_VERSION, type EarlierMessagesMessage, type SnapshotMessage } from '../../src/core/chat/protocol/chatProtocol';
import { alternate, arg, fmtMs, fmtRatio, percentile, ROUNDS, runBench, SMOKE, stats, type Row } from './benchReport';
import { conversationMessages } from '../shared/answerCorpus';
import { openWebviewPage, type PageWindow } from './webviewPage';
import { traceRun } from './renderTrace';
import { profileRun } from './profileSummary';

/**
 * Benchmark: opening a long conversation in the chat panel — the real webview bundle in Chromium
 * (webviewPage.ts), a 5 MB conversation of ~450 questions and mixed-markdown answers sent as the host
 * sends it (snapshotParts: the snapshot with the latest messages, then the older ones in parts).
 *
 * - first paint: delivering every part (each through structuredClone, as postMessage copies it) and
 *   the first painted frame, which shows the latest answers rendered; against the same for a
 *   conversation of only those latest messages (what any renderer must do to fill the screen).
 * - scroll: then scrolling up 120 px a frame (answers render as they come near, lazyMessages.ts),
 *   and jumping to the top and to the middle; each frame timed from its first animation-frame callback
 *   to the first task after paint (webviewPage's `__frame`); against scrolling back down over the
 *   same, now rendered, answers: the browser alone.
 *
 *   node out/test/bench/longConversation.bench.js [--rounds=5] [--mb=5] [--before=<webview bundle>] [--trace] [--profile]
 *
 * `--before`: also opens the conversation with another commit's bundle, as one snapshot (as that
 * commit's host sent it), for a before/after figure. `--trace` / `--profile`: one more opening and
 * scroll after the measured rounds under Chromium's tracer (style, layout, paint, and each frame's time
 * on a core) or its JS profiler (top self times).
 */

const MB = SMOKE ? 0.3 : arg('mb', 5);
const SCROLL_FRAMES = SMOKE ? 20 : 300;
const SCROLL_STEP_PX = 120;

declare const window: PageWindow;
declare const document: { querySelector(selector: string): ScrollList | null; querySelectorAll(selector: string): ArrayLike<unknown> };
interface ScrollList { scrollTop: number; scrollHeight: number; clientHeight: number }

function conversation(id: string, bytes: number): SnapshotMessage {
  return {
    v: CHAT_PROTOCOL_VERSION, type: 'snapshot',
    conversation: { id, title: 'Long conversation', params: {}, messages: conversationMessages(bytes) },
    attachments: [], environment: { effectiveModel: 'bench-model', defaults: {} },
  };
}

interface Opened { firstPaintMs: number; cpuMs: number; lastRendered: boolean }

/** In the page: a blank conversation first, then every part and the first frame after them. */
async function openInPage(args: { blank: SnapshotMessage; parts: Array<SnapshotMessage | EarlierMessagesMessage> }): Promise<Opened> {
  window.__deliver(args.blank);
  await window.__frame();
  const cpu = await window.__cpuNow!();
  const started = performance.now();
  for (const part of args.parts) window.__deliver(structuredClone(part));
  await window.__frame();
  const firstPaintMs = performance.now() - started;
  const cpuMs = (await window.__cpuSince!(cpu)).mainThreadMs;
  const answers = document.querySelectorAll('.message.role-assistant');
  const last = answers[answers.length - 1] as { querySelector(selector: string): unknown } | undefined;
  return { firstPaintMs, cpuMs, lastRendered: Boolean(last?.querySelector('.markdown')) };
}

interface Scrolled { up: number[]; down: number[]; jumps: number[]; scripts: number[]; deferredLeft: number }

/** In the page: scroll up frame by frame, jump, then scroll back down over the same range. */
async function scrollInPage(args: { frames: number; step: number }): Promise<Scrolled> {
  const list = document.querySelector('.messages') as ScrollList;
  /** Our script in each frame of the scroll up and the jumps (rendering the answers that came near). */
  const scripts: number[] = [];
  const frame = async (move: () => void) => {
    const script = window.__scriptMs;
    move();
    const ms = await window.__frame();
    scripts.push(window.__scriptMs - script);
    return ms;
  };
  const up: number[] = [];
  const start = list.scrollTop;
  for (let i = 0; i < args.frames; i++) up.push(await frame(() => { list.scrollTop -= args.step; }));
  const jumps: number[] = [];
  const end = list.scrollTop;
  for (const to of [0, Math.floor(list.scrollHeight / 2)]) {
    jumps.push(await frame(() => { list.scrollTop = to; }));
    for (let i = 0; i < 20; i++) jumps.push(await frame(() => undefined));
  }
  list.scrollTop = end;
  await window.__frame();
  scripts.length = up.length + jumps.length;
  const down: number[] = [];
  for (let i = 0; i < args.frames && list.scrollTop < start; i++) down.push(await frame(() => { list.scrollTop += args.step; }));
  return { up, down, jumps, scripts, deferredLeft: document.querySelectorAll('.md-placeholder').length };
}

async function main(): Promise<Row[]> {
  const beforeBundle = process.argv.find((a) => a.startsWith('--before='))?.slice('--before='.length);
  const long = conversation('long', MB * 1_000_000);
  const parts = snapshotParts(long);
  const first = parts[0] as SnapshotMessage;
  // The latest messages alone: what the screen shows, as a conversation of its own.
  const latest: SnapshotMessage = { ...first, conversation: { ...first.conversation, id: 'latest', messages: first.conversation.messages.slice(-eagerCount(first)) } };
  const page = await openWebviewPage({ unthrottledFrames: true, cpuClock: true });
  const rows: Row[] = [];
  let blanks = 0;
  const blank = (): SnapshotMessage => ({ ...latest, conversation: { ...latest.conversation, id: `blank-${blanks++}`, messages: [] } });
  try {
    const open = (variant: Array<SnapshotMessage | EarlierMessagesMessage>) => page.page.evaluate(openInPage, { blank: blank(), parts: variant });
    await open(parts);
    await open([latest]);
    const rounds = Math.max(ROUNDS, SMOKE ? 2 : 5);
    const scrolls: Scrolled[] = [];
    const opened = await alternate(rounds, async () => {
      const result = await open(parts);
      scrolls.push(await page.page.evaluate(scrollInPage, { frames: SCROLL_FRAMES, step: SCROLL_STEP_PX }));
      return result;
    }, () => open([latest]), (r) => r.firstPaintMs);
    const scrollOnce = async () => {
      await open(parts);
      await page.page.evaluate(scrollInPage, { frames: SCROLL_FRAMES, step: SCROLL_STEP_PX });
    };
    if (process.argv.includes('--trace')) for (const line of await traceRun(page.page, 'long conversation scroll', scrollOnce)) console.log(`  ${line}`);
    if (process.argv.includes('--profile')) for (const line of await profileRun(page.page, 'long conversation scroll', scrollOnce)) console.log(`  ${line}`);
    if (opened.measured.some((r) => !r.lastRendered)) throw new Error('the first paint did not show the latest answer rendered');
    const firstPaint = stats(opened.measured.map((r) => r.firstPaintMs));
    const firstPaintCpu = stats(opened.measured.map((r) => r.cpuMs));
    const mb = `${(long.conversation.messages.reduce((sum, m) => sum + m.text.length, 0) / 1e6).toFixed(1)} MB`;
    rows.push({
      what: `open a ${mb} conversation (${long.conversation.messages.length} messages, ${parts.length} parts): first paint`,
      target: '<= 300 ms',
      measured: `${fmtMs(firstPaint.min)} / ${fmtMs(firstPaint.median)} (main-thread CPU ${fmtMs(firstPaintCpu.median)}); over its latest ${latest.conversation.messages.length} messages alone ${fmtRatio(opened.ratios)}`,
      met: SMOKE ? undefined : firstPaint.median <= 300,
      data: { firstPaint, firstPaintCpu, ratios: opened.ratios, baselineMs: stats(opened.baseline.map((r) => r.firstPaintMs)) },
    });
    const scrollFrames = scrolls.flatMap((s) => [...s.up, ...s.jumps]);
    const renderedFrames = scrolls.flatMap((s) => s.down);
    const p99 = percentile(scrollFrames, 99);
    const p99s = scrolls.map((s) => percentile([...s.up, ...s.jumps], 99) / percentile(s.down, 99));
    rows.push({
      what: `scroll that conversation: ${SCROLL_FRAMES} frames up by ${SCROLL_STEP_PX} px, jumps to the top and the middle: p99 frame`,
      target: '<= 16 ms',
      measured: `${fmtMs(p99)} (max ${fmtMs(Math.max(...scrollFrames))}; our script in it p99 ${fmtMs(percentile(scrolls.flatMap((s) => s.scripts), 99))}); over scrolling the rendered answers back down (p99 ${fmtMs(percentile(renderedFrames, 99))}) ${fmtRatio(stats(p99s))}; answers still unrendered after: ${scrolls.at(-1)?.deferredLeft}`,
      met: SMOKE ? undefined : p99 <= 16,
      data: { p99, p99Ratios: stats(p99s), renderedP99: percentile(renderedFrames, 99), frames: scrollFrames.length },
    });
    if (beforeBundle) {
      const before = await openWebviewPage({ unthrottledFrames: true, cpuClock: true, bundle: beforeBundle });
      try {
        const runs: Opened[] = [];
        for (let round = 0; round < rounds; round++) runs.push(await before.page.evaluate(openInPage, { blank: blank(), parts: [long] }));
        const times = runs.map((r) => r.firstPaintMs);
        const scrolled = await before.page.evaluate(scrollInPage, { frames: SCROLL_FRAMES, step: SCROLL_STEP_PX });
        rows.push({
          what: `before (${beforeBundle}, one snapshot): first paint / p99 scroll frame`,
          target: 'context',
          measured: `${fmtMs(stats(times).min)} / ${fmtMs(stats(times).median)} (main-thread CPU ${fmtMs(stats(runs.map((r) => r.cpuMs)).median)}); p99 scroll frame ${fmtMs(percentile([...scrolled.up, ...scrolled.jumps], 99))}`,
          data: { firstPaint: stats(times) },
        });
      } finally {
        await before.close();
      }
    }
    return rows;
  } finally {
    await page.close();
  }
}

/** How many of the snapshot's latest messages the webview renders at once. */
function eagerCount(snapshot: SnapshotMessage): number {
  return snapshot.conversation.messages.length - eagerFrom(snapshot.conversation.messages.map(messageChars));
}

runBench('longConversation', main);
