import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { startEmulator } from '../emulator';
import { launchBrowser, waitForWorkbench } from '../harness/browser';
import { startCodeServer, workbenchUrl } from '../harness/codeServer';
import { apiKeyEnvironment, emulatorSettings } from '../harness/extensionSetup';
import { REPO_ROOT, RESULTS_DIR } from '../harness/paths';
import { stopAll } from '../harness/processes';
import { waitFor } from '../harness/wait';
import { closeQuickInput, runCommand } from '../ui/workbench';
import { type CpuProfile, summariseProfile } from './profileSummary';
import { alternate, arg, fmtMs, fmtRatio, percentile, ROUNDS, runBench, SMOKE, stats, type Row } from './benchReport';

/**
 * Benchmark: the chat model picker ("Inference: Pick Chat Model") of an environment that lists 2,000
 * models, in code-server's workbench (Chromium): every keystroke of a filter typed and erased, timed in
 * the page (keystrokesInPage: the input event's handlers, then the next frame's rendering); against the same keystrokes in the same picker listing 20
 * models, alternated round by round (the emulator's list is changed between them, the picker's
 * refresh button reloads it). The smoke run (seconds, in `npm test`) starts no workbench, as the
 * activation benchmark's: it checks that the emulator lists the models the picker would show.
 *
 *   node out/test/bench/modelPicker.bench.js [--rounds=5] [--models=2000] [--profile]
 *
 * `--profile`: one more typing of the filter in the 2,000-model picker under Chromium's JS profiler;
 * prints the functions with the most self time (what VS Code does per keystroke).
 */

const MODELS = arg('models', 2000);
const FEW = 20;
/** Typed a character at a time, then erased the same way: 2 × 9 keystrokes a picker. */
const QUERY = 'llama-70b';

declare const document: { querySelector(selector: string): PageInput | null };
interface PageInput { value: string; dispatchEvent(event: unknown): boolean; style: { height: string } }
declare const InputEvent: new (type: string, init: { bubbles: boolean; inputType: string; data?: string }) => unknown;
declare const MessageChannel: new () => { port1: { onmessage: (() => void) | null }; port2: { postMessage(message: unknown): void } };
declare function requestAnimationFrame(callback: () => void): number;

interface Keystroke { handlerMs: number; frameMs: number }

/**
 * In the page: types `query` into the open quick input and erases it, one keystroke a frame. Each
 * keystroke: its input event's handlers (VS Code filters, sorts and updates the list in them), then
 * the next frame from its first animation-frame callback to the first task after it is painted (the
 * list's rows rendered, style, layout, paint), without the wait for that frame to start.
 */
async function keystrokesInPage(query: string): Promise<Keystroke[]> {
  const input = document.querySelector('.quick-input-widget .quick-input-box input')!;
  const nextFrame = () => new Promise<number>((resolve) => requestAnimationFrame(() => {
    const started = performance.now();
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve(performance.now() - started);
    channel.port2.postMessage(0);
  }));
  const strokes: Keystroke[] = [];
  const key = async (value: string, inputType: string, data?: string) => {
    await nextFrame();
    const started = performance.now();
    input.value = value;
    input.dispatchEvent(new InputEvent('input', { bubbles: true, inputType, ...(data !== undefined && { data }) }));
    const handlerMs = performance.now() - started;
    strokes.push({ handlerMs, frameMs: await nextFrame() });
  };
  for (let length = 1; length <= query.length; length++) await key(query.slice(0, length), 'insertText', query[length - 1]);
  for (let length = query.length - 1; length >= 0; length--) await key(query.slice(0, length), 'deleteContentBackward');
  return strokes;
}

/** Opens the picker, reloads its list from the service, and waits until it shows `count` models. */
async function openPicker(page: Page, count: number): Promise<void> {
  await runCommand(page, 'Inference: Pick Chat Model');
  await page.locator('.quick-input-widget .quick-input-title', { hasText: /Chat model for/ }).waitFor({ timeout: 15_000 });
  await page.locator('.quick-input-widget .quick-input-titlebar [aria-label="Refresh the model list"]').click();
  // The list is virtual: its height, not its rows, tells how many items it holds.
  await waitFor(`the picker to list ${count} models`, () => page.evaluate((expected) => {
    const rows = document.querySelector('.quick-input-widget .quick-input-list .monaco-list-rows');
    const row = document.querySelector('.quick-input-widget .quick-input-list .monaco-list-row') as unknown as { offsetHeight: number } | null;
    return Boolean(rows && row && Math.round(Number.parseFloat(rows.style.height) / row.offsetHeight) === expected);
  }, count), { timeoutMs: 30_000, intervalMs: 100 });
}

async function smoke(): Promise<Row[]> {
  const emulator = await startEmulator();
  try {
    const own = emulator.environments.production.chatModels.length;
    await fetch(`${emulator.environments.production.origin}/__emulator/models`, { method: 'POST', body: JSON.stringify({ extraChat: MODELS - own }) });
    const response = await fetch(`${emulator.environments.production.baseUrl}/models?type=chat`, { headers: { authorization: `Bearer ${emulator.keys.production.full}` } });
    const listed = ((await response.json()) as { data: unknown[] }).data.length;
    if (listed !== MODELS) throw new Error(`the emulator listed ${listed} models, not ${MODELS}`);
    return [{ what: `model picker with ${MODELS} models: one filter keystroke`, target: '<= 16 ms', measured: 'not measured in a smoke run (it needs a workbench); the emulator lists the models' }];
  } finally {
    await emulator.close();
  }
}

async function main(): Promise<Row[]> {
  if (SMOKE) return smoke();
  const emulator = await startEmulator();
  const own = emulator.environments.production.chatModels.length;
  const server = await startCodeServer({
    settings: emulatorSettings(emulator),
    env: apiKeyEnvironment({ production: emulator.keys.production.full }),
    logFile: path.join(RESULTS_DIR, 'bench', 'modelPicker-code-server.log'),
  });
  const browser = await launchBrowser();
  try {
    const page = browser.page;
    await page.goto(workbenchUrl(server, { extensionDevelopmentPaths: [REPO_ROOT] }), { timeout: 60_000 });
    await waitForWorkbench(page);
    const picker = async (count: number) => {
      const listed = await fetch(`${emulator.environments.production.origin}/__emulator/models`, { method: 'POST', body: JSON.stringify({ extraChat: count - own }) });
      if (!listed.ok) throw new Error(`the emulator refused ${count} models: ${listed.status}`);
      await openPicker(page, count);
      const times = await page.evaluate(keystrokesInPage, QUERY);
      await closeQuickInput(page);
      return times;
    };
    await picker(MODELS); // warm-up: the quick input's code and the extension's first list
    await picker(FEW);
    if (process.argv.includes('--profile')) {
      const listed = await fetch(`${emulator.environments.production.origin}/__emulator/models`, { method: 'POST', body: JSON.stringify({ extraChat: MODELS - own }) });
      if (!listed.ok) throw new Error(`the emulator refused ${MODELS} models: ${listed.status}`);
      await openPicker(page, MODELS);
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
      await cdp.send('Profiler.start');
      for (let repeat = 0; repeat < 5; repeat++) await page.evaluate(keystrokesInPage, QUERY);
      const { profile } = await cdp.send('Profiler.stop');
      await closeQuickInput(page);
      console.log(`profile of ${5 * 2 * QUERY.length} keystrokes with ${MODELS} models, self time:`);
      for (const line of summariseProfile(profile as CpuProfile, 25)) console.log(`  ${line}`);
    }
    const total = (strokes: Keystroke[]) => strokes.map((k) => k.handlerMs + k.frameMs);
    const result = await alternate(Math.max(ROUNDS, 5), () => picker(MODELS), () => picker(FEW), (strokes) => stats(total(strokes)).median);
    const many = total(result.measured.flat());
    const few = total(result.baseline.flat());
    const handler = stats(result.measured.flat().map((k) => k.handlerMs));
    const p99 = percentile(many, 99);
    return [{
      what: `model picker with ${MODELS} models: one filter keystroke (typed and erased "${QUERY}") to its painted frame`,
      target: '<= 16 ms',
      measured: `p99 ${fmtMs(p99)}, median ${fmtMs(stats(many).median)} (input handlers ${fmtMs(handler.median)}), max ${fmtMs(Math.max(...many))}; with ${FEW} models p99 ${fmtMs(percentile(few, 99))}, median ${fmtMs(stats(few).median)}; median keystroke ${MODELS} / ${FEW} models ${fmtRatio(result.ratios)} (${many.length} keystrokes)`,
      met: p99 <= 16,
      data: { p99, many: stats(many), few: stats(few), handler, ratios: result.ratios },
    }];
  } finally {
    await browser.close();
    await server.stop();
    await emulator.close();
  }
}

runBench('modelPicker', () => main().finally(() => stopAll()));
