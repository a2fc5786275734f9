import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PNG } from 'pngjs';
import { waitFor } from '../harness/wait';
import { renderPng } from '../emulator/png';
import { useWorkbench } from './fixture';

const PROMPT = 'A lighthouse on a cliff at sunset';

/** Image generation as a user does it: palette, the five questions, the opened image, then a key without the scope. */
describe('Generate Image from the command palette', () => {
  const ui = useWorkbench();
  const title = (pattern: RegExp) =>
    ui.page.locator('.quick-input-widget .quick-input-title', { hasText: pattern }).waitFor({ state: 'visible', timeout: 15_000 });

  it('asks the questions, saves the PNG into images/ and shows it in the image preview', async () => {
    await ui.runCommand('Inference: Generate Image');
    await title(/\(1\/5\): prompt/);
    await ui.typeInInput(PROMPT);
    await title(/Image model for/);
    const models = await waitFor('the image models in the picker', async () => {
      const items = await ui.quickPickItems();
      return items.length > 1 ? items : undefined;
    });
    assert.deepEqual(models, ['auto', ...ui.emulator.environments.production.imageModels]);
    await ui.pickQuickPickItem('auto');
    await title(/\(3\/5\): size/);
    assert.deepEqual(await ui.quickPickItems(), ['Model default', '512x512', '768x768', '1024x1024', '1024x768', '768x1024', 'Custom size…']);
    await ui.screenshot('01-size-presets');
    await ui.pickQuickPickItem('768x768');
    await title(/\(4\/5\): seed/);
    await ui.typeInInput('42');
    await title(/\(5\/5\): negative prompt/);
    await ui.typeInInput('');

    const file = 'a-lighthouse-on-a-cliff-at-sunset.png';
    await ui.page.locator('.tabs-container .tab', { hasText: file }).waitFor({ state: 'visible', timeout: 30_000 });
    const preview = ui.page.locator('iframe.webview.ready').first().contentFrame().frameLocator('iframe#active-frame').locator('img');
    await preview.waitFor({ state: 'visible', timeout: 15_000 });
    await waitFor('the image to be decoded in the preview', () => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0));
    assert.deepEqual(await preview.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight]), [768, 768]);
    const shot = await ui.screenshot('02-generated-image-preview');
    assert.ok(fs.statSync(shot).size > 0);

    const written = fs.readFileSync(path.join(ui.workspace, 'images', file));
    const decoded = PNG.sync.read(written);
    assert.deepEqual([decoded.width, decoded.height], [768, 768]);
    const model = ui.emulator.environments.production.imageModels[0];
    assert.ok(written.equals(renderPng(768, 768, `${model}\n${PROMPT}`, 42)), 'the file holds the bytes the emulator produced');
    const sidecar = JSON.parse(fs.readFileSync(path.join(ui.workspace, 'images', `${file}.json`), 'utf8')) as Record<string, unknown>;
    assert.equal(sidecar.model, model);
    assert.equal(sidecar.requestId, ui.emulator.requests.find((r) => r.path.endsWith('/images/generations'))?.id);
  });

  it('tells a user whose key lacks the images scope what the key needs, with Set API Key', async () => {
    await ui.runCommand('Inference: Set API Key');
    await ui.typeInInput(ui.emulator.keys.production.chatOnly);
    await ui.waitForNotification(/API key saved/);
    await ui.clearNotifications();
    await ui.runCommand('Inference: Generate Image with Last Settings');
    await title(/prompt/);
    await ui.typeInInput('A lighthouse, again');
    const refused = await waitFor('the refused image request', () => ui.emulator.requests.find((r) => r.path.endsWith('/images/generations') && r.status === 403));
    assert.equal(refused.errorCode, 'missing_scope');
    const item = await ui.waitForNotification(/the key lacks the "images" scope/);
    await item.hover();
    await item.locator('.monaco-button', { hasText: 'Set API Key' }).first().waitFor({ state: 'visible', timeout: 5000 });
    await ui.screenshot('03-missing-scope');
    assert.equal(fs.existsSync(path.join(ui.workspace, 'images', 'a-lighthouse-again.png')), false);
  });

  it('keeps the prompt of a failed generation: Retry in the notification generates it', async () => {
    await ui.runCommand('Inference: Set API Key');
    await ui.typeInInput(ui.emulator.keys.production.full);
    await ui.waitForNotification(/API key saved/);
    await ui.clearNotifications();
    ui.emulator.injectFault('production', { fault: 'http-500', path: '/images/generations' });
    await ui.runCommand('Inference: Generate Image with Last Settings');
    await title(/prompt/);
    await ui.typeInInput('A stormy sea');
    await waitFor('the failed image request', () => ui.emulator.requests.find((r) => r.path.endsWith('/images/generations') && r.status === 500));
    await ui.clickNotificationAction(/HTTP 500/, 'Retry');
    const file = path.join(ui.workspace, 'images', 'a-stormy-sea.png');
    await waitFor('the retried image to be written', () => fs.existsSync(file), { timeoutMs: 20_000 });
    await ui.page.locator('.tabs-container .tab', { hasText: 'a-stormy-sea.png' }).waitFor({ state: 'visible', timeout: 15_000 });
    await ui.screenshot('04-retried');
    const statuses = ui.emulator.requests.filter((r) => r.path.endsWith('/images/generations')).map((r) => r.status);
    assert.deepEqual(statuses.slice(-2), [500, 200]);
    assert.equal(PNG.sync.read(fs.readFileSync(file)).width, 768, 'the retry used the same settings (768x768)');
  });
});
