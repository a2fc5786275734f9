import type { ChatModelsView } from '../../src/core/chat/protocol/chatRequests';
import { startEmulator } from '../emulator';
import { arg, fmtMs, percentile, ROUNDS, runBench, SMOKE, stats, type Row } from './benchReport';
import { keystrokesInPage, type Keystroke } from './keystrokes';
import { answerRequest, emptyConversationSnapshot, openWebviewPage, type PageWindow } from './webviewPage';

/**
 * Benchmark: the chat panel's model menu (webview/chat/modelMenu.ts) with an environment listing 2,000
 * chat models (the emulator's list), in the real webview bundle in Chromium: the menu opened from
 * the composer's model button, then a filter typed and erased a keystroke a frame, each timed in the
 * page (keystrokes.ts: the input event's handlers, where the menu filters and builds the rows in view,
 * then the next frame's rendering). The smoke run types one round with the same list.
 *
 *   node out/test/bench/modelMenu.bench.js [--rounds=5] [--models=2000]
 *
 * The command palette's *Pick Chat Model* is VS Code's quick pick: the modelPicker benchmark.
 */

const MODELS = arg('models', 2000);
/** As modelPicker's: typed a character at a time, then erased the same way. */
const QUERY = 'llama-70b';

declare const window: PageWindow;

/** The emulator's chat models, `count` of them: the ids a real environment's list would give the menu. */
async function listedModels(count: number): Promise<string[]> {
  const emulator = await startEmulator();
  try {
    const production = emulator.environments.production;
    await fetch(`${production.origin}/__emulator/models`, { method: 'POST', body: JSON.stringify({ extraChat: count - production.chatModels.length }) });
    const response = await fetch(`${production.baseUrl}/models?type=chat`, { headers: { authorization: `Bearer ${emulator.keys.production.full}` } });
    const ids = ((await response.json()) as { data: Array<{ id: string }> }).data.map((m) => m.id);
    if (ids.length !== count) throw new Error(`the emulator listed ${ids.length} models, not ${count}`);
    return ids;
  } finally {
    await emulator.close();
  }
}

async function main(): Promise<Row[]> {
  const ids = await listedModels(MODELS);
  const listed: ChatModelsView = { environment: 'production', models: ids, environmentModel: ids[0] };
  const page = await openWebviewPage({ unthrottledFrames: true });
  try {
    await page.page.evaluate((snapshot) => window.__deliver(snapshot), emptyConversationSnapshot('menu', 'Menu'));
    const round = async (): Promise<Keystroke[]> => {
      await page.page.click('button[data-action="pickModel"]');
      await answerRequest(page.page, 'chatModels', listed);
      await page.page.locator('.model-menu:not([hidden])').waitFor({ timeout: 10_000 });
      const strokes = await page.page.evaluate(keystrokesInPage, { query: QUERY, selector: '.model-menu-filter' });
      await page.page.keyboard.press('Escape');
      return strokes;
    };
    await round();
    const strokes: Keystroke[] = [];
    for (let r = 0; r < (SMOKE ? 1 : Math.max(ROUNDS, 5)); r++) strokes.push(...await round());
    const total = strokes.map((k) => k.handlerMs + k.frameMs);
    const p99 = percentile(total, 99);
    return [{
      what: `the chat panel's model menu with ${MODELS} models (Chromium, the real bundle): one filter keystroke (typed and erased "${QUERY}") to its painted frame`,
      target: '<= 16 ms',
      measured: `p99 ${fmtMs(p99)}, median ${fmtMs(stats(total).median)} (input handlers ${fmtMs(stats(strokes.map((k) => k.handlerMs)).median)}), max ${fmtMs(Math.max(...total))} (${strokes.length} keystrokes)`,
      met: SMOKE ? undefined : p99 <= 16,
      data: { p99, total: stats(total), handler: stats(strokes.map((k) => k.handlerMs)) },
    }];
  } finally {
    await page.close();
  }
}

runBench('modelMenu', main);
