import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { delay, waitFor } from '../harness/wait';
import { chatSteps } from './chatSteps';
import { useWorkbench } from './fixture';
import { contextMenu, webviewContent } from './workbench';

const SAMPLE = ['export function add(a: number, b: number): number {', '  return a + b;', '}', '', 'export const answer = add(40, 2);', ''].join('\n');


/** The walkthrough, the editor's Inference actions and the Explorer's Generate Image Here, as a new user meets them. */
describe('getting started: walkthrough and editor actions', () => {
  const ui = useWorkbench({ emulator: { tokensPerSecond: 200 }, workspaceFiles: { 'src/sample.ts': SAMPLE, 'art/README.md': 'Pictures go here.\n' } });
  const { chat, composer, chatRequests, lastUserContent, waitForAnswerEnd, selectLines2To3 } = chatSteps(ui);
  const chips = () => chat().locator('.composer .chips .chip');
  const step = (title: string) => ui.page.locator('button.getting-started-step', { hasText: title }).first();
  // The workbench marks a done step's button aria-checked (and its checkbox icon "complete").
  const isComplete = async (title: string) => (await step(title).getAttribute('aria-checked')) === 'true';
  // The selected step's media: the workbench renders markdown and svg media in a webview beside the steps.
  const media = () => webviewContent(ui.page.locator('.getting-started-media iframe.webview.ready').first());
  // A markdown webview registers its service worker first: seconds on a fresh profile, more under load.
  const waitForMarkdownMedia = (heading: string) => media().locator('h1', { hasText: heading }).waitFor({ state: 'visible', timeout: 30_000 });

  it('opens the walkthrough from the account menu; steps tick themselves when the setup is really done', async () => {
    await ui.runCommand('Inference: Account Menu');
    await ui.pickQuickPickItem(/Get Started/);
    await step('Add an environment').waitFor({ timeout: 30_000 });
    const titles = ['Add an environment', 'Set your API key', 'Pick a chat model', 'Open the chat', 'Generate an image'];
    for (const title of titles) await step(title).waitFor({ timeout: 5000 });
    // The workbench's environment and key were set up before the walkthrough opened: already done.
    await waitFor('the environment and key steps to show as done', async () => (await isComplete('Add an environment')) && (await isComplete('Set your API key')), { timeoutMs: 10_000, intervalMs: 200 });
    assert.equal(await isComplete('Pick a chat model'), false);
    // The first step not done is selected, and its markdown shows beside the steps.
    await waitForMarkdownMedia('Chat models');
    await ui.screenshot('01-walkthrough');
    await step('Pick a chat model').click();
    await ui.page.locator('button.getting-started-step.expanded', { hasText: 'Pick a chat model' }).waitFor({ timeout: 5000 });
    // Selecting a step moves the focus to it after its animation; a picker opened before that would
    // lose the focus and close, as it would for a user who clicks that fast.
    await delay(1000);
    await ui.page.locator('.getting-started-step.expanded').locator('.monaco-button, a', { hasText: 'Pick Chat Model' }).first().click();
    await ui.pickQuickPickItem('emu-chat-large');
    await waitFor('the model step to tick', () => isComplete('Pick a chat model'), { timeoutMs: 10_000, intervalMs: 200 });
    assert.equal(await isComplete('Open the chat'), false);
    await waitForMarkdownMedia('Chat models');
    await ui.screenshot('02-walkthrough-model-picked');
  });

  it("the chat step's picture shows with its colours (the workbench's CSP for svg media allows no style element)", async () => {
    await step('Open the chat').click();
    await ui.page.locator('button.getting-started-step.expanded', { hasText: 'Open the chat' }).waitFor({ timeout: 5000 });
    const picture = media().locator('svg[role="img"]');
    await picture.waitFor({ state: 'visible', timeout: 30_000 });
    const box = await picture.boundingBox();
    assert.ok(box && box.width > 100 && box.height > 100, `the picture has a size (${JSON.stringify(box)})`);
    // Unstyled, every shape and letter is black: the text would vanish into its background.
    const fills = await picture.evaluate((svg) => ({
      background: getComputedStyle(svg.querySelector('rect') as Element).fill,
      text: getComputedStyle(svg.querySelector('text') as Element).fill,
      // The picture is scaled to the media column: its letters' size on screen, in CSS pixels.
      textPx: parseFloat(getComputedStyle(svg.querySelector('text') as Element).fontSize) * (svg.getBoundingClientRect().width / (svg as SVGSVGElement).viewBox.baseVal.width),
    }));
    assert.notEqual(fills.text, fills.background, `the picture's text stands out from its background (${JSON.stringify(fills)})`);
    // At 640 user units wide it was scaled to ~0.55 and its 12-unit text showed at ~7 px.
    assert.ok(fills.textPx >= 10, `the picture's text is readable where the walkthrough shows it (${fills.textPx.toFixed(1)} px)`);
    await ui.screenshot('02b-walkthrough-chat-picture');
  });

  it('Explain Selection from the editor context menu attaches the selection and fills the composer without sending', async () => {
    await ui.runCommand('View: Close All Editors');
    await ui.runCommand('Inference: Pick Chat Model');
    await ui.pickQuickPickItem('emu-chat-large');
    const before = chatRequests().length;
    await selectLines2To3('src/sample.ts');
    // Right-click on the selected text: a click outside the selection would move the cursor and drop it.
    await contextMenu(ui.page, ui.page.locator('.editor-instance .monaco-editor .selected-text').first(), ['Inference', 'Explain Selection']);
    await composer().waitFor({ state: 'visible', timeout: 30_000 });
    await chips().filter({ hasText: 'sample.ts:2-3' }).waitFor({ timeout: 10_000 });
    await waitFor('the starter in the composer', async () => /Explain what the attached code does/.test(await composer().inputValue()), { timeoutMs: 10_000, intervalMs: 100 });
    assert.equal(await composer().evaluate((el) => el.ownerDocument.activeElement === el), true, 'the composer has the focus');
    assert.equal(await ui.page.locator('.editor-group-container').count(), 2, 'the chat opened beside the editor');
    assert.equal(chatRequests().length, before, 'nothing was sent');
    await ui.screenshot('03-explain-selection');
  });

  it('keybindings: Ctrl+Alt+E adds a selection and keeps the editor focused; Ctrl+Alt+A asks about it; Send sends both', async () => {
    await ui.page.locator('.editor-instance .monaco-editor .view-lines').first().click();
    await ui.page.keyboard.press('Control+End');
    await ui.page.keyboard.press('ArrowUp');
    await ui.page.keyboard.press('Shift+End');
    await ui.page.keyboard.press('Control+Alt+E');
    await chips().filter({ hasText: 'sample.ts:5' }).waitFor({ timeout: 10_000 });
    assert.ok(await ui.page.locator('.editor-instance .monaco-editor.focused').count() > 0, 'the editor kept the focus');
    await ui.page.keyboard.press('Control+Alt+A');
    // Focus is in the chat's webview (the workbench's active element is its frame) and there in the composer.
    const webviewFocused = () => ui.page.evaluate(() => document.activeElement?.tagName === 'IFRAME' && document.activeElement.classList.contains('webview'));
    await waitFor('the composer to take the focus', async () => (await webviewFocused()) && (await composer().evaluate((el) => el.ownerDocument.activeElement === el)), { timeoutMs: 10_000, intervalMs: 100 });
    assert.deepEqual((await chips().locator('.chip-label').allInnerTexts()).map((t) => t.trim()), ['sample.ts:2-3', 'sample.ts:5'], 'the same selection is not attached twice');
    await ui.screenshot('04-keybindings-two-chips');
    ui.emulator.scriptReply('production', { text: 'It adds two numbers.' });
    await composer().press('Enter');
    await waitFor('the request', () => chatRequests().length > 0 && /Explain what the attached code does/.test(lastUserContent() ?? ''), { timeoutMs: 15_000, intervalMs: 100 });
    const sent = lastUserContent() ?? '';
    assert.match(sent, /lines 2-3:\n```typescript\n {2}return a \+ b;\n\}\n```/);
    assert.match(sent, /line 5:\n```typescript\nexport const answer = add\(40, 2\);\n```/);
    await waitForAnswerEnd();
  });

  it('Generate Image Here on an Explorer folder saves into that folder', async () => {
    await ui.runCommand('View: Show Explorer');
    const folder = ui.page.locator('.explorer-folders-view .monaco-list-row', { hasText: /^\s*art\s*$/ }).first();
    await folder.waitFor({ timeout: 15_000 });
    await contextMenu(ui.page, folder, ['Generate Image Here']);
    await ui.page.locator('.quick-input-widget .quick-input-title', { hasText: /prompt/ }).waitFor({ timeout: 15_000 });
    await ui.screenshot('05-generate-image-here');
    await ui.typeInInput('A red boat');
    await ui.pickQuickPickItem('auto');
    await ui.pickQuickPickItem('512x512');
    await ui.typeInInput('3');
    await ui.typeInInput('');
    await ui.page.locator('.tabs-container .tab', { hasText: 'a-red-boat.png' }).waitFor({ timeout: 30_000 });
    assert.ok(fs.existsSync(path.join(ui.workspace, 'art', 'a-red-boat.png')));
    assert.ok(fs.existsSync(path.join(ui.workspace, 'art', 'a-red-boat.png.json')));
    assert.equal(fs.existsSync(path.join(ui.workspace, 'images', 'a-red-boat.png')), false, 'not in the images setting folder');
  });
});
