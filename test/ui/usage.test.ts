import * as assert from 'node:assert/strict';
import type { RequestRecord } from '../emulator';
import { dayKey } from '../../src/core/usage/report';
import { waitFor } from '../harness/wait';
import { chatSteps } from './chatSteps';
import { useWorkbench } from './fixture';

const DAY_MS = 86_400_000;

/**
 * The usage view with real spend: chat answers and images made through the emulator, half of them
 * "yesterday" (the extension's ledger clock is shifted: fixture.ts, `ledgerClockOffsetMs`), then the
 * chart, the tables, Copy Request ID, the status bar's today figure and the CSV export are checked
 * against what the emulator charged.
 */
describe('usage view: spend per day from emulator calls', () => {
  const ui = useWorkbench({ emulator: { tokensPerSecond: 200 }, ledgerClockOffsetMs: -DAY_MS });
  const { chat, messages, send, waitForAnswerEnd, openChat, editorText } = chatSteps(ui);
  const usage = () => ui.chatFrame(0);
  const spent: { day: string; kind: 'chat' | 'image'; record: RequestRecord }[] = [];
  const title = (pattern: RegExp) => ui.page.locator('.quick-input-widget .quick-input-title', { hasText: pattern }).waitFor({ state: 'visible', timeout: 15_000 });

  async function chatOnce(day: string, text: string): Promise<void> {
    const answersBefore = await messages('assistant').count();
    const record = await send(text);
    // Until the new answer exists, the last one is the previous (finished, already priced) answer.
    await waitFor('the new answer', async () => (await messages('assistant').count()) > answersBefore, { timeoutMs: 15_000, intervalMs: 100 });
    await waitForAnswerEnd();
    // The spend is recorded once the settled balance was read after the answer.
    await messages('assistant').nth(answersBefore).locator('.meta-credits').waitFor({ timeout: 15_000 });
    spent.push({ day, kind: 'chat', record });
  }

  async function imageOnce(day: string, prompt: string, first: boolean): Promise<void> {
    const before = ui.emulator.requests.length;
    await ui.runCommand(first ? 'Inference: Generate Image' : 'Inference: Generate Image with Last Settings');
    await title(/prompt/);
    await ui.typeInInput(prompt);
    if (first) {
      await title(/Image model for/);
      await ui.pickQuickPickItem('auto');
      await title(/size/);
      await ui.pickQuickPickItem('512x512');
      await title(/seed/);
      await ui.typeInInput('7');
      await title(/negative prompt/);
      await ui.typeInInput('');
    }
    const record = await waitFor('the image request', () => ui.emulator.requests.slice(before).find((r) => r.path.endsWith('/images/generations') && r.status === 200), { timeoutMs: 30_000, intervalMs: 100 });
    await ui.page.locator('.tabs-container .tab', { hasText: '.png' }).first().waitFor({ timeout: 30_000 });
    spent.push({ day, kind: 'image', record });
  }

  it('records chat answers and images on two days', async () => {
    const yesterday = dayKey(Date.now() - DAY_MS);
    const today = dayKey(Date.now());
    // One webview at a time (the chat, or an image preview), so that the frame locators are unambiguous.
    const closeAll = () => ui.runCommand('View: Close All Editors');
    await openChat();
    await chatOnce(yesterday, 'Tell me about lighthouses');
    await chatOnce(yesterday, 'And about harbours, in more words please');
    await closeAll();
    await imageOnce(yesterday, 'A lighthouse at dawn', true);
    await closeAll();
    ui.setLedgerClockOffset(0);
    await ui.runCommand('Inference: Open Chat');
    await chat().locator('.composer-input').waitFor({ timeout: 30_000 });
    await chatOnce(today, 'One more question today');
    await closeAll();
    await imageOnce(today, 'A harbour at night', false);
    await closeAll();
    assert.equal(spent.length, 5);
    assert.ok(spent.every((s) => s.record.creditsCharged > 0));
  });

  it('draws spend per day stacked by model, then by kind, with the most expensive requests and environment totals', async () => {
    await ui.runCommand('View: Close All Editors');
    await ui.runCommand('Inference: Show Usage');
    const chart = usage().locator('svg.chart');
    await chart.waitFor({ timeout: 30_000 });
    const sum = (day: string, kind?: string) => spent.filter((s) => s.day === day && (!kind || s.kind === kind)).reduce((total, s) => total + s.record.creditsCharged, 0);
    const barTotal = async (day: string, series?: string) => {
      const rects = usage().locator(`rect.bar[data-date="${day}"]${series ? `[data-series="${series}"]` : ''}`);
      const titles = await rects.locator('title').allTextContents();
      return titles.reduce((total, t) => total + Number(/: ([\d.,]+) credits$/.exec(t)?.[1]?.replace(/,/g, '') ?? NaN), 0);
    };
    const days = [...new Set(spent.map((s) => s.day))];
    assert.equal(days.length, 2);
    for (const day of days) {
      assert.ok(Math.abs((await barTotal(day)) - sum(day)) < 0.01, `${day}: chart ${await barTotal(day)}, emulator charged ${sum(day)}`);
    }
    const imageModel = ui.emulator.environments.production.imageModels[0];
    assert.ok((await usage().locator(`rect.bar[data-series="${imageModel}"]`).count()) === 2, 'the image model has a segment on both days');
    assert.ok((await usage().locator('rect.bar[data-series="emu-chat-large"]').count()) === 2);
    await ui.screenshot('01-usage-by-model');

    await usage().getByLabel('Kind').check();
    await usage().locator('rect.bar[data-series="image"]').first().waitFor({ timeout: 5000 });
    for (const day of days) {
      assert.ok(Math.abs((await barTotal(day, 'image')) - sum(day, 'image')) < 0.01);
      assert.ok(Math.abs((await barTotal(day, 'chat')) - sum(day, 'chat')) < 0.01);
    }
    await ui.screenshot('02-usage-by-kind');

    const rows = usage().locator('.top-requests tbody tr');
    assert.equal(await rows.count(), 5);
    const ids = (await usage().locator('.top-requests tbody td.request-id code').allTextContents()).map((t) => t.trim());
    assert.deepEqual(new Set(ids), new Set(spent.map((s) => s.record.id)));
    const charged = (id: string) => spent.find((s) => s.record.id === id)?.record.creditsCharged ?? NaN;
    assert.deepEqual(ids.map(charged), ids.map(charged).sort((a, b) => b - a), 'most expensive first');
    const envRow = usage().locator('.environments tbody tr');
    assert.equal(await envRow.count(), 1);
    assert.match(await envRow.innerText(), /production\s+5\s+/);
    // Figures are right-aligned, and so are their column titles: a title sits above its figures.
    const textRight = (selector: string) => usage().locator(selector).first().evaluate((cell) => {
      const range = document.createRange();
      range.selectNodeContents(cell);
      return Math.round(range.getBoundingClientRect().right);
    });
    assert.equal(await textRight('.top-requests thead th.number'), await textRight('.top-requests tbody td.number'));
    assert.equal(await textRight('.environments thead th.number'), await textRight('.environments tbody td.number'));

    await rows.first().locator('button[data-action="copyRequestId"]').click();
    await ui.page.locator('.statusbar-item', { hasText: `Copied request ID ${ids[0]}` }).waitFor({ timeout: 10_000 });
  });

  it('shows today\'s spend in the balance tooltip', async () => {
    const today = spent.filter((s) => s.day === dayKey(Date.now())).reduce((total, s) => total + s.record.creditsCharged, 0);
    // The balance item ("990.01 credits"), not a status message that also names credits.
    await ui.statusBarItem(/\d credits\s*$/).first().hover();
    const hover = ui.page.locator('.monaco-hover, .workbench-hover').filter({ hasText: 'Today' }).first();
    await hover.waitFor({ timeout: 10_000 });
    const shown = /Today: ([\d.,]+) credits/.exec(await hover.innerText())?.[1];
    assert.ok(shown !== undefined && Math.abs(Number(shown.replace(/,/g, '')) - today) < 0.01, `tooltip shows ${shown}, charged today ${today}`);
    await ui.screenshot('03-status-bar-today');
    await ui.page.keyboard.press('Escape');
  });

  it('exports the ledger as CSV: one row per request, with its request id, kind, model and credits', async () => {
    await usage().locator('button[data-action="exportCsv"]').click();
    // An untitled document's tab is named after its first line, with "Untitled-1" beside it.
    await ui.page.locator('.tabs-container .tab', { hasText: 'Untitled-1' }).first().waitFor({ timeout: 15_000 });
    const text = await waitFor('the CSV in the editor', async () => {
      const value = await editorText();
      return value.split('\n').length >= 6 ? value : undefined;
    }, { timeoutMs: 10_000, intervalMs: 200 });
    const lines = text.split('\n').filter(Boolean);
    assert.equal(lines[0], '"time","date","environment","kind","model","credits","request_id","token","comparison","measured_together"');
    // Every text field is quoted (none of these holds a comma or quote); credits are bare numbers.
    const rows = lines.slice(1).map((line) => line.split(',').map((field) => field.replace(/^"(.*)"$/, '$1')));
    assert.equal(rows.length, 5);
    for (const { day, kind, record } of spent) {
      const row = rows.find((r) => r[6] === record.id);
      assert.ok(row, `a row for ${record.id}`);
      assert.equal(row[1], day);
      assert.equal(row[2], 'production');
      assert.equal(row[3], kind);
      assert.ok(Math.abs(Number(row[5]) - record.creditsCharged) < 1e-6, `${row[5]} vs ${record.creditsCharged}`);
    }
    assert.deepEqual(rows.map((r) => r[1]), [...rows.map((r) => r[1])].sort(), 'oldest first');
    await ui.screenshot('04-csv-export');
  });
});
