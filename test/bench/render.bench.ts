import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildSync } from 'esbuild';
import { CHAT_PROTOCOL_VERSION, type MessageView, type SnapshotMessage } from '../../src/core/chatProtocol';
import { longAnswer, streamDeltas } from './corpus';
import { openWebviewPage, REPO_ROOT, type PageDocument, type PageWindow } from './webviewPage';

/**
 * Benchmark (not a timed test): the real webview bundle in Chromium renders a streamed 200 KB answer.
 * Prints total render time against one render of the final text in the same run, per-frame p50/p99/max,
 * and fails only if the streamed DOM differs from the one-shot DOM. The quadratic baseline (re-render
 * the whole message per delta) runs on a smaller answer, within a time budget, for the ratio.
 *
 *   npm run bench [-- --size=200000 --naive-size=40000 --naive-budget-ms=30000]
 */

declare const window: PageWindow & { __naiveStream(deltas: string[], budgetMs: number): NaiveResult };
declare const document: PageDocument;

interface NaiveResult { totalMs: number; frames: number; chars: number; complete: boolean }
interface StreamResult { totalMs: number; frames: number[]; finalHtml: string }

function arg(name: string, fallback: number): number {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  return found ? Number(found.split('=')[1]) : fallback;
}

const SIZE = arg('size', 200_000);
const NAIVE_SIZE = arg('naive-size', 40_000);
const NAIVE_BUDGET_MS = arg('naive-budget-ms', 30_000);

function snapshot(conversation: string, text: string, status: MessageView['status']): SnapshotMessage {
  const now = Date.now();
  return {
    v: CHAT_PROTOCOL_VERSION,
    type: 'snapshot',
    conversation: {
      id: conversation,
      title: 'Benchmark',
      params: {},
      messages: [
        { id: 'u1', role: 'user', text: 'Write a long answer.', createdAt: now },
        { id: 'a1', role: 'assistant', text, createdAt: now, status },
      ],
    },
    streaming: status === 'streaming' ? { messageId: 'a1', seq: 0 } : undefined,
    attachments: [],
    environment: { effectiveModel: 'bench-model', defaults: {} },
  };
}

/** Streams deltas through the real message handler, one host batch per animation frame. */
function streamInPage(args: { start: SnapshotMessage; deltas: string[]; conversation: string; full: string }): StreamResult {
  window.__deliver(args.start);
  window.__pumpFrame();
  const frames: number[] = [];
  let totalMs = 0;
  args.deltas.forEach((append, i) => {
    const ms = window.__deliver({ v: 2, type: 'append', seq: i + 1, text: append })
      + window.__pumpFrame();
    frames.push(ms);
    totalMs += ms;
  });
  // The end of an answer is a patch without the text, as the host sends it.
  const last = window.__deliver({ v: 2, type: 'messagePatch', conversationId: args.conversation, messageId: 'a1', status: 'done' }) + window.__pumpFrame();
  frames.push(last);
  totalMs += last;
  return { totalMs, frames, finalHtml: document.querySelector('[data-message-id="a1"] .markdown')?.innerHTML ?? '' };
}

function oneShotInPage(start: SnapshotMessage): { ms: number; html: string } {
  const ms = window.__deliver(start) + window.__pumpFrame();
  return { ms, html: document.querySelector('[data-message-id="a1"] .markdown')?.innerHTML ?? '' };
}

/** The naive baseline, bundled from the same markdown/sanitiser/code-block modules as the webview. */
function naiveBundle(): string {
  const contents = `
    import { createMarkdown, renderMarkdown } from './src/webview/markdown';
    import { sanitizeToFragment } from './src/webview/sanitize';
    import { decorateCodeBlocks } from './src/webview/codeBlocks';
    const md = createMarkdown();
    window.__naiveStream = (deltas, budgetMs) => {
      const container = document.createElement('div');
      container.className = 'markdown';
      document.querySelector('.messages').append(container);
      let text = '', totalMs = 0, frames = 0;
      for (const delta of deltas) {
        const start = performance.now();
        text += delta;
        const fragment = sanitizeToFragment(renderMarkdown(md, text, { highlight: true }));
        decorateCodeBlocks(Array.from(fragment.childNodes));
        container.replaceChildren(fragment);
        void document.body.offsetHeight;
        totalMs += performance.now() - start;
        frames++;
        if (totalMs > budgetMs) break;
      }
      container.remove();
      return { totalMs, frames, chars: text.length, complete: frames === deltas.length };
    };`;
  const result = buildSync({ stdin: { contents, resolveDir: REPO_ROOT, loader: 'js' }, bundle: true, format: 'iife', write: false, platform: 'browser', target: 'chrome120', minify: true });
  return result.outputFiles[0].text;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 0)} ms`;

async function main(): Promise<void> {
  const text = longAnswer(SIZE);
  const deltas = streamDeltas(text);
  const webview = await openWebviewPage({ manualFrames: true });
  try {
    const { page } = webview;
    // Warm up the JIT and highlight.js grammars, as a long session would have.
    await page.evaluate(oneShotInPage, snapshot('warmup', longAnswer(20_000, 3), 'done'));

    const streamed = await page.evaluate(streamInPage, { start: snapshot('streamed', '', 'streaming'), deltas, conversation: 'streamed', full: text });
    const oneShots: { ms: number; html: string }[] = [];
    for (let i = 0; i < 3; i++) oneShots.push(await page.evaluate(oneShotInPage, snapshot(`oneshot-${i}`, text, 'done')));
    const oneShotMs = percentile(oneShots.map((o) => o.ms), 50);
    const domEqual = streamed.finalHtml === oneShots[0].html && streamed.finalHtml.length > 0;

    const naiveText = text.slice(0, NAIVE_SIZE);
    const naiveDeltas = streamDeltas(naiveText);
    const incrementalSmall = await page.evaluate(streamInPage, { start: snapshot('small', '', 'streaming'), deltas: naiveDeltas, conversation: 'small', full: naiveText });
    await page.evaluate(naiveBundle());
    const naive = await page.evaluate(([d, budget]) => window.__naiveStream(d, budget), [naiveDeltas, NAIVE_BUDGET_MS] as [string[], number]);

    // Compare the same appends: the naive run may have stopped early at its budget.
    const incrementalSameAppends = incrementalSmall.frames.slice(0, naive.frames).reduce((a, b) => a + b, 0);
    const report = {
      answerBytes: text.length,
      appends: deltas.length,
      streamedTotalMs: streamed.totalMs,
      oneShotMs,
      ratio: streamed.totalMs / oneShotMs,
      frameP50Ms: percentile(streamed.frames, 50),
      frameP99Ms: percentile(streamed.frames, 99),
      frameMaxMs: Math.max(...streamed.frames),
      domEqual,
      naive: { ...naive, incrementalMsSameAppends: incrementalSameAppends, ratio: naive.totalMs / incrementalSameAppends },
      loadAverage: os.loadavg(),
      unexpectedRequests: webview.requests.filter((url) => !url.startsWith(webview.origin)),
    };
    console.log(`Machine: ${os.cpus().length} CPUs, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} (a busy machine inflates p99/max)`);
    console.log(`Streamed ${(text.length / 1000).toFixed(0)} KB answer in ${deltas.length} appends (one per frame), real webview bundle in Chromium:`);
    console.log(`  total render time while streaming : ${ms(report.streamedTotalMs)}`);
    console.log(`  one-shot render of the final text : ${ms(oneShotMs)} (median of 3)`);
    console.log(`  ratio streamed / one-shot         : ${report.ratio.toFixed(2)}x`);
    console.log(`  per-frame p50 / p99 / max         : ${ms(report.frameP50Ms)} / ${ms(report.frameP99Ms)} / ${ms(report.frameMaxMs)}`);
    console.log(`  final DOM equals one-shot DOM     : ${domEqual ? 'yes' : 'NO'} (${streamed.finalHtml.length} chars of HTML)`);
    const naiveLabel = naive.complete ? `${(naive.chars / 1000).toFixed(0)} KB` : `first ${(naive.chars / 1000).toFixed(0)} KB of ${(naiveText.length / 1000).toFixed(0)} KB (stopped at the ${NAIVE_BUDGET_MS / 1000} s budget)`;
    console.log(`Naive baseline (re-render the whole message per append), ${naiveLabel}, ${naive.frames} appends:`);
    console.log(`  naive ${ms(naive.totalMs)} vs incremental ${ms(incrementalSameAppends)} for the same ${naive.frames} appends: ${report.naive.ratio.toFixed(0)}x`);
    console.log(`  (quadratic: the naive cost of the full ${(text.length / 1000).toFixed(0)} KB answer would be roughly ${((naive.totalMs / 1000) * (text.length / naive.chars) ** 2).toFixed(0)} s)`);
    const outDir = path.join(REPO_ROOT, 'test-results');
    fs.mkdirSync(outDir, { recursive: true });
    fs.writeFileSync(path.join(outDir, 'bench-render.json'), JSON.stringify(report, null, 2));
    if (!domEqual) {
      fs.writeFileSync(path.join(outDir, 'bench-streamed.html'), streamed.finalHtml);
      fs.writeFileSync(path.join(outDir, 'bench-oneshot.html'), oneShots[0].html);
      throw new Error('The streamed DOM differs from the one-shot DOM (see test-results/bench-*.html)');
    }
    if (report.unexpectedRequests.length) throw new Error(`Unexpected requests: ${report.unexpectedRequests.join(', ')}`);
  } finally {
    await webview.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
