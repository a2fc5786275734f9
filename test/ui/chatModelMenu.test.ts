import * as assert from 'node:assert/strict';
import type { ChatModelsView } from '../../src/core/chat/protocol/chatRequests';
import { answerRequest, emptyConversationSnapshot, openWebviewPage, type PageDocument, type PageWindow, type WebviewPage } from '../bench/webviewPage';
import { sharedChromium } from './sharedWorkbench';

declare const window: PageWindow;
declare const document: PageDocument & { activeElement: { className: string } | null };

const MODELS = Array.from({ length: 2000 }, (_, i) => `vendor-${i % 40}/model-${String(i).padStart(4, '0')}${i % 7 === 0 ? '-70b' : ''}`);
const LISTED: ChatModelsView = { environment: 'Production', models: MODELS, current: MODELS[42], environmentModel: MODELS[1] };

/**
 * The composer's model menu (webview/chat/modelMenu.ts) in the real bundle: the host's list answered by
 * hand, the filter typed, keys pressed; what it asks of the host read from the posted requests.
 */
describe('chat webview: the model menu with 2,000 models (real bundle, Chromium)', function () {
  this.timeout(60_000);
  let webview: WebviewPage;

  before(async () => {
    webview = await openWebviewPage({ browser: await sharedChromium() });
    await webview.page.evaluate((snapshot) => window.__deliver(snapshot), emptyConversationSnapshot('menu', 'Menu'));
  });
  after(async () => {
    await webview?.close();
  });

  /** Clicks the model button and answers its `chatModels` request with LISTED. */
  const open = async () => {
    await webview.page.click('button[data-action="pickModel"]');
    await answerRequest(webview.page, 'chatModels', LISTED);
    await webview.page.locator('.model-menu:not([hidden])').waitFor({ timeout: 5000 });
  };
  const state = () => webview.page.evaluate(() => {
    const filter = document.querySelector('.model-menu-filter') as unknown as { getAttribute(name: string): string | null };
    const rows = Array.from(document.querySelectorAll('.model-menu-row'), (row) => ({
      label: row.querySelector('.model-menu-label')?.textContent, selected: row.getAttribute('aria-selected') === 'true', size: Number(row.getAttribute('aria-setsize')),
    }));
    return {
      open: document.querySelector('.model-menu')?.getAttribute('hidden') === null,
      rows: rows.length,
      selected: rows.find((row) => row.selected)?.label,
      size: rows[0]?.size ?? 0,
      activeIsRendered: Boolean(document.querySelector(`#${filter.getAttribute('aria-activedescendant')}`)),
      focused: document.activeElement?.className ?? '',
      expanded: document.querySelector('button[data-action="pickModel"]')?.getAttribute('aria-expanded'),
    };
  });
  const picked = () => webview.page.evaluate(() => window.__posted.filter((m) => (m as { method?: string }).method === 'setChatModel').map((m) => (m as { params: unknown }).params));

  it('opens on the conversation\'s model with only the rows in view built, the environment\'s model first', async () => {
    await open();
    const opened = await state();
    assert.equal(opened.open, true);
    assert.equal(opened.size, MODELS.length + 2, 'every model, the environment\'s and Compare models…');
    assert.ok(opened.rows <= 14, `only the rows in view exist (${opened.rows})`);
    assert.equal(opened.selected, MODELS[42]);
    assert.ok(opened.activeIsRendered, 'the combobox points at a row that exists');
    assert.match(opened.focused, /model-menu-filter/);
    assert.equal(opened.expanded, 'true');
    assert.match(await webview.page.locator('.model-menu-title').innerText(), /Production/);
  });

  it('filters by every word as typed, moves with the keys, and picks with Enter', async () => {
    await webview.page.locator('.model-menu-filter').fill('VENDOR-3/ 70b');
    const expected = MODELS.filter((id) => id.startsWith('vendor-3/') && id.endsWith('-70b'));
    const filtered = await state();
    assert.equal(filtered.size, expected.length, 'the environment\'s row goes while a filter is typed');
    assert.equal(filtered.selected, expected[0]);
    await webview.page.keyboard.press('ArrowDown');
    await webview.page.keyboard.press('ArrowDown');
    await webview.page.keyboard.press('ArrowUp');
    assert.equal((await state()).selected, expected[1]);
    await webview.page.keyboard.press('Enter');
    assert.deepEqual(await picked(), [{ model: expected[1] }]);
    const closed = await state();
    assert.equal(closed.open, false);
    assert.equal(closed.expanded, 'false');
    assert.match(closed.focused, /model-button/, 'the focus goes back to the button');
  });

  it('scrolls far down the list building only the rows in view, and picks the environment\'s model as no model of its own', async () => {
    await open();
    await webview.page.keyboard.press('PageDown');
    for (let i = 0; i < 200; i++) await webview.page.keyboard.press('PageDown');
    const bottom = await state();
    assert.equal(bottom.selected, MODELS.at(-1));
    assert.ok(bottom.rows <= 14 && bottom.activeIsRendered);
    for (let i = 0; i < 200; i++) await webview.page.keyboard.press('PageUp');
    assert.match((await state()).selected ?? '', /environment/);
    await webview.page.keyboard.press('Enter');
    assert.deepEqual(await picked(), [{}]);
  });

  it('offers Compare models… below the environment\'s model: choosing it opens the menu again to tick models, picking none', async () => {
    await open();
    // Opened on the chat's model, far down: up to the top, where only the rows in view are built.
    for (let i = 0; i < 6; i++) await webview.page.keyboard.press('PageUp');
    const row = webview.page.locator('.model-menu-row[data-compare="true"]');
    assert.equal(await row.getAttribute('data-index'), '1', 'the second row, under the environment\'s model');
    await row.click();
    await answerRequest(webview.page, 'chatModels', LISTED);
    await webview.page.locator('.model-menu.is-compare:not([hidden])').waitFor({ timeout: 5000 });
    assert.equal(await webview.page.locator('.model-menu-row[data-compare="true"]').count(), 0, 'no such row among the models to tick');
    assert.match(await webview.page.locator('.model-menu-title').innerText(), /^Compare 2 to 4 models/);
    assert.deepEqual(await picked(), [], 'no model picked for the chat');
    await webview.page.keyboard.press('Escape');
  });

  it('says when nothing matches, and Escape closes without picking', async () => {
    await open();
    await webview.page.locator('.model-menu-filter').fill('no such model');
    assert.equal(await webview.page.locator('.model-menu-empty').innerText(), 'No model matches');
    await webview.page.keyboard.press('Escape');
    assert.equal((await state()).open, false);
    assert.deepEqual(await picked(), []);
  });
});
