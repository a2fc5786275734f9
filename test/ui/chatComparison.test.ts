import * as assert from 'node:assert/strict';
import type { FrameLocator } from 'playwright-core';
import { waitFor } from '../harness/wait';
import { chatSteps } from './chatSteps';
import { useWorkbench } from './fixture';
import { webviewContent } from './workbench';

const SMALL = 'emu-chat-small';
const LARGE = 'emu-chat-large';

/**
 * Issue 40 as a user sees it, in real VS Code against the emulator: three models asked one question
 * from the composer, their answers streaming in columns (side by side in the panel, stacked in the
 * side bar) with their figures, Continue with one of them, and the comparison kept across a reload.
 */
describe('chat: compare models', () => {
  const ui = useWorkbench({
    emulator: {
      tokensPerSecond: 80,
      // Models that differ in speed and price, as a user's list does.
      modelPacing: { [SMALL]: { firstTokenDelayMs: 100, tokensPerSecond: 160 }, [LARGE]: { firstTokenDelayMs: 700, tokensPerSecond: 60 } },
      modelPrices: { [LARGE]: { chatPerRequest: 2, chatPer1kTokens: 8 } },
    },
  });
  const steps = chatSteps(ui);
  const outerFrames = () => ui.page.locator('iframe.webview.ready');
  const compareRequests = (since: number) => steps.chatRequests().filter((r) => r.startedAt >= since);
  let third = '';

  before(async () => {
    // A third chat model in the environment's list (the emulator lists two of its own).
    const production = ui.emulator.environments.production;
    const response = await fetch(`${production.origin}/__emulator/models`, { method: 'POST', body: JSON.stringify({ extraChat: 1 }) });
    assert.equal(response.status, 200);
    const listed = await (await fetch(`${production.baseUrl}/models`, { headers: { authorization: `Bearer ${ui.emulator.keys.production.full}` } })).json() as { data: { id: string }[] };
    third = listed.data.map((m) => m.id).find((id) => id.startsWith('emu-chat-extra-')) ?? assert.fail('no extra chat model listed');
  });

  /**
   * Ticks the models in the composer's compare menu, then closes it; the compare bar names them. The
   * menu opens from the Compare models button, or where the composer is too narrow for it (the side
   * bar), from the model menu's "Compare models…" row.
   */
  async function pickToCompare(frame: FrameLocator, models: string[]): Promise<'button' | 'model menu'> {
    const button = frame.locator('button[data-action="compareModels"]');
    const way = await button.isVisible() ? 'button' : 'model menu';
    if (way === 'button') await button.click();
    else {
      await frame.locator('button[data-action="pickModel"]').click();
      await frame.locator('.model-menu-row[data-compare="true"]').click();
    }
    const menu = frame.locator('.model-menu.is-compare');
    await menu.waitFor({ state: 'visible', timeout: 15_000 });
    for (const model of models) {
      const row = menu.locator(`.model-menu-row[data-model="${model}"]`);
      // The list is virtual: the filter brings the row into view.
      await frame.locator('.model-menu-filter').fill(model);
      await row.click();
      await waitFor(`${model} ticked`, async () => (await row.getAttribute('aria-selected')) === 'true', { timeoutMs: 5000, intervalMs: 50 });
    }
    await frame.locator('.model-menu-filter').press('Escape');
    await waitFor('the compare bar to name the models', async () => (await frame.locator('.compare-bar .compare-model').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-model')))).join() === models.join(), { timeoutMs: 10_000, intervalMs: 100 });
    return way;
  }

  /** Sends the question to the models in the compare bar; resolves with the comparison's columns once every one ended. */
  async function compare(frame: FrameLocator, question: string, models: string[]) {
    const since = Date.now();
    await frame.locator('.composer-input').fill(question);
    assert.equal(await frame.locator('button[data-action="send"]').getAttribute('data-compare'), 'true', 'Send asks all of them');
    await frame.locator('.composer-input').press('Enter');
    const comparison = frame.locator('.comparison').last();
    // Streaming side by side: every column has started before any of the slower ones ended.
    await waitFor('every model asked', () => compareRequests(since).length === models.length, { timeoutMs: 20_000, intervalMs: 50 });
    await waitFor('every column to end', async () => (await comparison.locator('.comparison-column[data-status="done"]').count()) === models.length, { timeoutMs: 60_000, intervalMs: 200 });
    assert.deepEqual(compareRequests(since).map((r) => r.model).sort(), [...models].sort(), 'exactly one request per model');
    return comparison;
  }

  it('asks three models at once in the panel; columns side by side with their figures; Continue with the second; kept across a reload', async function () {
    this.timeout(240_000);
    await steps.openChat(SMALL);
    const panel = steps.chat();
    const models = [SMALL, LARGE, third];
    assert.equal(await pickToCompare(panel, models), 'button', 'the panel has room for the Compare models button');
    // Money first: the bar states an estimate per model (or that there is no history for one) and the total.
    assert.equal(await panel.locator('.compare-bar .compare-total').count(), 1);
    const balanceBefore = ui.emulator.balance('production');
    const comparison = await compare(panel, 'Explain a binary search in two sentences.', models);
    const columns = comparison.locator('.comparison-column');
    assert.deepEqual(await columns.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-column-model'))), models, 'a column per model, in the order picked');
    // Side by side: the columns share a row in the panel.
    const boxes = await columns.evaluateAll((nodes) => nodes.map((n) => n.getBoundingClientRect()).map((r) => ({ x: r.x, y: r.y })));
    assert.ok(new Set(boxes.map((b) => Math.round(b.y))).size === 1 && new Set(boxes.map((b) => Math.round(b.x))).size === 3, `columns side by side: ${JSON.stringify(boxes)}`);
    for (const model of models) {
      const figures = comparison.locator(`.comparison-column[data-column-model="${model}"] .comparison-column-figures`);
      assert.ok(Number(await figures.getAttribute('data-ttft-ms')) > 0, `${model}: time to first token`);
      assert.ok(Number(await figures.getAttribute('data-total-ms')) >= Number(await figures.getAttribute('data-ttft-ms')), `${model}: total time`);
      assert.ok(Number(await figures.getAttribute('data-chars-per-second')) > 0, `${model}: output characters per second`);
      assert.ok((await figures.getAttribute('data-not-measured')) !== null, `${model}: ran beside the others, so its own spend is not measured`);
    }
    // The slow model's first token came after the fast one's, as the emulator paced them.
    const ttft = async (model: string) => Number(await comparison.locator(`.comparison-column[data-column-model="${model}"] .comparison-column-figures`).getAttribute('data-ttft-ms'));
    assert.ok(await ttft(LARGE) > await ttft(SMALL), 'the slow model was slower to its first token');
    // The comparison as a whole is measured: what the wallet lost.
    const total = comparison.locator('.comparison-bar .comparison-total');
    await waitFor('the comparison\'s measured total', async () => (await total.getAttribute('data-credits')) !== null, { timeoutMs: 20_000, intervalMs: 200 });
    const chatTotal = Number(await total.getAttribute('data-credits'));
    assert.ok(Math.abs(chatTotal - (balanceBefore - ui.emulator.balance('production'))) < 0.01, 'the total is the wallet\'s difference');
    await ui.screenshot('01-panel-three-columns');

    // Export comparison: the report, the question, each answer under its model and the figures table.
    const turnId = await comparison.getAttribute('data-turn-id') ?? assert.fail('the comparison names its turn');
    await comparison.locator('.comparison-bar button[data-action="exportComparison"]').click();
    const report = await waitFor('the comparison report in an editor', async () => {
      const text = await steps.editorText().catch(() => '');
      return text.startsWith('# Comparison: ') && text.includes('## Prompt') ? text : false;
    }, { timeoutMs: 30_000, intervalMs: 250 });
    // The lines on screen (the editor builds no others): the first answer under its model's heading, escaped as Markdown.
    assert.ok(report.includes(`## ${SMALL.replace(/-/g, '\\-')}`), `the report's first answer is under its model:\n${report}`);
    await ui.runCommand('View: Revert and Close Editor');

    // Its usage: the usage view opens filtered to this comparison, a row per model.
    await steps.chat().locator('.comparison .comparison-bar button[data-action="comparisonUsage"]').click();
    const filter = ui.chatFrame(0).locator('select[name="comparison-filter"]');
    await waitFor('the usage view filtered to the comparison', async () => (await filter.inputValue({ timeout: 2000 }).catch(() => '')) === turnId, { timeoutMs: 30_000, intervalMs: 250 });
    const perModel = ui.chatFrame(0).locator(`tr.comparison-total[data-comparison-id="${turnId}"] ~ tr.comparison-model`);
    assert.equal(await perModel.count(), models.length, 'a row per model under the comparison');
    // Measured as a whole: the same total as the chat's, its columns in it, none of them left out.
    const totalCell = ui.chatFrame(0).locator(`tr.comparison-total[data-comparison-id="${turnId}"] td.number`);
    await waitFor('the comparison\'s total in the usage view', async () => !/not measured/.test(await totalCell.innerText()), { timeoutMs: 10_000, intervalMs: 200 });
    assert.ok(Math.abs(parseFloat((await totalCell.innerText()).replace(/,/g, '')) - chatTotal) < 0.01, `the chat's total (${chatTotal}): ${await totalCell.innerText()}`);
    assert.deepEqual(await perModel.locator('td.number').allInnerTexts(), models.map(() => 'in the total: measured together'));
    await ui.screenshot('01b-usage-of-the-comparison');
    await ui.runCommand('View: Close Editor');

    // Continue with the second: the conversation goes on with that model and that answer.
    const second = comparison.locator(`.comparison-column[data-column-model="${LARGE}"]`);
    const secondAnswer = (await second.locator('.markdown').innerText()).trim();
    await second.locator('button[data-action="continueWith"]').click();
    await waitFor('the second column chosen', async () => (await second.getAttribute('class'))?.includes('is-chosen') ?? false, { timeoutMs: 10_000, intervalMs: 100 });
    const followUp = await steps.send('And in one sentence?');
    assert.equal(followUp.model, LARGE, 'the conversation went on with the chosen model');
    const sent = followUp.chat?.messages ?? [];
    assert.equal(sent.filter((m) => m.role === 'assistant').length, 1, 'one answer carried: the chosen one');
    assert.ok(String(sent.find((m) => m.role === 'assistant')?.content ?? '').trim().startsWith(secondAnswer.slice(0, 20)), 'the chosen answer is the one carried');
    await steps.waitForAnswerEnd();
    await ui.screenshot('02-panel-continued-with-the-second');

    await ui.reloadWindow();
    const restored = steps.chat().locator('.comparison').first();
    await restored.waitFor({ state: 'visible', timeout: 60_000 });
    assert.deepEqual(await restored.locator('.comparison-column').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-column-model'))), models, 'the comparison after a reload');
    assert.equal(await restored.locator(`.comparison-column.is-chosen`).getAttribute('data-column-model'), LARGE);
    await ui.screenshot('03-panel-after-reload');
    await ui.runCommand('View: Close All Editors');
  });

  it('stacks the columns in the narrow side bar', async function () {
    this.timeout(180_000);
    await ui.page.locator('.activitybar .action-item a[aria-label^="Inference"]').first().click();
    const bar = await ui.page.locator('.part.sidebar').boundingBox() ?? assert.fail('no side bar');
    const index = await waitFor('the chat view in the side bar', async () => {
      const count = await outerFrames().count();
      for (let i = 0; i < count; i++) {
        const box = await outerFrames().nth(i).boundingBox();
        if (box && box.width > 0 && box.x >= bar.x - 1 && box.x + box.width <= bar.x + bar.width + 1) return i;
      }
      return undefined;
    }, { timeoutMs: 30_000, intervalMs: 200 });
    const view = webviewContent(outerFrames().nth(index));
    await view.locator('.composer-input').waitFor({ state: 'visible', timeout: 30_000 });
    if (await view.locator('.message').count()) {
      await view.locator('.header-actions button[data-action="newConversation"]').click();
      await view.locator('.empty-state').waitFor({ state: 'visible', timeout: 10_000 });
    }
    const models = [SMALL, LARGE, third];
    // At the side bar's default width the model's name keeps its room: comparing starts from the model menu.
    assert.equal(await pickToCompare(view, models), 'model menu');
    const modelName = view.locator('.model-button span:not(.codicon)');
    assert.equal(await modelName.evaluate((span) => span.scrollWidth <= span.clientWidth), true, 'the model name is not cut');
    const comparison = await compare(view, 'Name three sorting algorithms.', models);
    const boxes = await comparison.locator('.comparison-column').evaluateAll((nodes) => nodes.map((n) => n.getBoundingClientRect()).map((r) => ({ x: r.x, y: r.y })));
    assert.ok(boxes.every((b, i) => i === 0 || (Math.round(b.x) === Math.round(boxes[0]!.x) && b.y > boxes[i - 1]!.y)), `columns stacked: ${JSON.stringify(boxes)}`);
    await ui.screenshot('04-side-bar-stacked');
  });
});
