import { CHAT_PROTOCOL_VERSION, type MessageView, type SnapshotMessage } from '../../src/core/chat/protocol/chatProtocol';
import { batchedAppends, longAnswer } from '../shared/answerCorpus';
import { fmtMs, fmtRatio, percentile, ROUNDS, runBench, SMOKE, stats, type Row } from './benchReport';
import { openWebviewPage, type PageDocument, type PageWindow } from './webviewPage';

/**
 * Benchmark: a comparison's columns streaming at once in the real webview bundle (Chromium). Three
 * answers of 200 KB (20 KB in the smoke run), each in the appends the host's batcher makes for a fast
 * model, all three columns' appends of a frame delivered before that frame, against one answer of
 * the same size streamed alone on the same page: our script per frame (the message handler and every
 * frame and idle callback, timed with performance.now()), p99 and median, alternated round by round.
 * Target: three streams' p99 no more than 1.5x one stream's (the columns share a frame's work).
 *
 *   node out/test/bench/comparisonRender.bench.js [--rounds=N]
 */

declare const window: PageWindow;
declare const document: PageDocument;

const FAST = 1000;
const COLUMNS = 3;
const ANSWER_BYTES = SMOKE ? 20_000 : 200_000;

interface FrameScripts {
  /** Our script in each frame (delivering its appends, then its frame and idle callbacks). */
  scripts: number[];
  /** Whether the page shows what was streamed: each column's text, whole. */
  shownChars: number[];
}

function question(): MessageView {
  return { id: 'u1', role: 'user', text: 'Compare these models.', createdAt: Date.now() };
}

function singleSnapshot(conversation: string): SnapshotMessage {
  return {
    v: CHAT_PROTOCOL_VERSION, type: 'snapshot',
    conversation: { id: conversation, title: 'Benchmark', params: {}, messages: [question(), { id: 'a1', role: 'assistant', text: '', createdAt: Date.now(), status: 'streaming' }] },
    streaming: { messageId: 'a1', seq: 0 },
    attachments: [], environment: { effectiveModel: 'bench-model', defaults: {} },
  };
}

function comparisonSnapshot(conversation: string): SnapshotMessage {
  const columns = Array.from({ length: COLUMNS }, (_, i) => ({
    model: `bench-model-${i}`,
    answer: { id: `c${i}`, role: 'assistant', text: '', createdAt: Date.now(), status: 'streaming' } satisfies MessageView,
  }));
  return {
    v: CHAT_PROTOCOL_VERSION, type: 'snapshot',
    conversation: {
      id: conversation, title: 'Benchmark', params: {},
      messages: [question(), { id: 't1', role: 'assistant', text: '', createdAt: Date.now(), status: 'streaming', comparison: { columns } }],
    },
    streamingColumns: { turnId: 't1', columns: columns.map((c) => ({ columnId: c.answer.id, seq: 0 })) },
    attachments: [], environment: { effectiveModel: 'bench-model', defaults: {} },
  };
}

/** Delivers each frame's appends (one per column, or one alone) through the real message handler, then waits for the frame. */
async function streamInPage(args: { blank: SnapshotMessage; start: SnapshotMessage; appends: string[][]; columns: boolean }): Promise<FrameScripts> {
  window.__deliver(args.blank);
  await window.__frame();
  window.__deliver(args.start);
  await window.__frame();
  const v = args.start.v;
  const scripts: number[] = [];
  const frames = Math.max(...args.appends.map((a) => a.length));
  for (let i = 0; i < frames; i++) {
    const before = window.__scriptMs;
    args.appends.forEach((appends, column) => {
      if (i < appends.length) window.__deliver(args.columns ? [v, i + 1, appends[i]!, 0, column] : [v, i + 1, appends[i]!]);
    });
    await window.__frame();
    scripts.push(window.__scriptMs - before);
  }
  const selector = args.columns ? '.comparison-column .markdown' : '[data-message-id="a1"] .markdown';
  const shownChars = Array.from(document.querySelectorAll(selector), (node) => (node as unknown as { textContent: string | null }).textContent?.length ?? 0);
  return { scripts, shownChars };
}

async function main(): Promise<Row[]> {
  const answers = Array.from({ length: COLUMNS }, (_, i) => longAnswer(ANSWER_BYTES, 42 + i));
  const appends = answers.map((text, i) => batchedAppends(text, FAST, 7 + i));
  const webview = await openWebviewPage({ unthrottledFrames: true });
  try {
    let runs = 0;
    const blank = (): SnapshotMessage => ({ v: CHAT_PROTOCOL_VERSION, type: 'snapshot', conversation: { id: `blank-${runs++}`, title: 'Blank', params: {}, messages: [] }, attachments: [], environment: { defaults: {} } });
    const single = () => webview.page.evaluate(streamInPage, { blank: blank(), start: singleSnapshot(`single-${runs}`), appends: [appends[0]!], columns: false });
    const three = () => webview.page.evaluate(streamInPage, { blank: blank(), start: comparisonSnapshot(`three-${runs}`), appends, columns: true });
    // Warm up both paths (the JIT, highlight.js's grammars), as a session would have.
    await single();
    const warm = await three();
    if (warm.shownChars.length !== COLUMNS || warm.shownChars.some((chars) => chars === 0)) throw new Error(`the comparison's columns showed no text: ${JSON.stringify(warm.shownChars)}`);
    const p99 = { single: [] as number[], three: [] as number[] };
    const median = { single: [] as number[], three: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      // Alternated: which one goes first flips every round.
      const order = round % 2 === 0 ? ['single', 'three'] as const : ['three', 'single'] as const;
      for (const which of order) {
        const { scripts } = await (which === 'single' ? single() : three());
        p99[which].push(percentile(scripts, 99));
        median[which].push(percentile(scripts, 50));
      }
    }
    const ratio = stats(p99.three.map((ms, i) => ms / p99.single[i]!));
    const medianRatio = stats(median.three.map((ms, i) => ms / median.single[i]!));
    return [{
      what: `our script per frame, ${COLUMNS} comparison columns of ${ANSWER_BYTES / 1000} KB streaming at once / one answer alone (fast model, ${appends[0]!.length} appends each; p99 per run)`,
      target: '<= 1.5x (median of p99 ratios)',
      measured: `${fmtRatio(ratio)} (p99 ${fmtMs(stats(p99.three).median)} against ${fmtMs(stats(p99.single).median)}; median frame ${fmtRatio(medianRatio)}, ${fmtMs(stats(median.three).median)} against ${fmtMs(stats(median.single).median)})`,
      met: SMOKE ? undefined : ratio.median <= 1.5,
      data: { p99, median, ratio, medianRatio },
    }];
  } finally {
    await webview.close();
  }
}

runBench('comparisonRender', main);
