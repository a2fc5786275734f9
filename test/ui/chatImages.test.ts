import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FrameLocator, Locator } from 'playwright-core';
import { renderPng } from '../emulator/png';
import { GIF_1X1 } from '../shared/chatImages';
import { waitFor } from '../harness/wait';
import { chatSteps } from './chatSteps';
import { useWorkbench } from './fixture';
import { contextMenu } from './workbench';

const PASTED = renderPng(256, 192, 'a pasted screenshot', 7);
const GENERATED = renderPng(128, 128, 'an image the extension generated', 3);

/**
 * Pastes `bytes` as a file into the composer. Playwright cannot put an image on the system clipboard
 * of code-server's page, so the test dispatches the paste event a real paste makes: a ClipboardEvent
 * whose DataTransfer holds the file, on the composer's text area, inside the webview's frame.
 */
async function pasteImage(chat: FrameLocator, bytes: Buffer, name: string): Promise<void> {
  await chat.locator('.composer-input').evaluate((input, { base64, fileName }) => {
    const binary = atob(base64);
    const data = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    const transfer = new DataTransfer();
    transfer.items.add(new File([data], fileName, { type: 'image/png' }));
    input.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }));
  }, { base64: bytes.toString('base64'), fileName: name });
}

/** Drops `bytes` as a file on the composer, as a drag from the desktop ends (dispatched, like the paste above). */
async function dropImage(chat: FrameLocator, bytes: Buffer, name: string): Promise<void> {
  await chat.locator('.composer').evaluate((composer, { base64, fileName }) => {
    const data = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const transfer = new DataTransfer();
    transfer.items.add(new File([data], fileName, { type: 'image/gif' }));
    composer.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
  }, { base64: bytes.toString('base64'), fileName: name });
}

/** Whether an image chip's thumbnail has loaded (its blob: URL decoded into pixels). */
const thumbnailShown = (chip: Locator) => chip.locator('img.thumbnail').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0 && img.src.startsWith('blob:')).catch(() => false);

/** Images in the chat in real VS Code: pasted, sent as image parts, restored after a reload, refused by a model, sent from the Explorer. */
describe('chat panel: images in', () => {
  const ui = useWorkbench({ emulator: { tokensPerSecond: 40, modelsWithoutImages: ['emu-chat-small'] }, workspaceFiles: { 'README.md': '# images\n' } });
  const { chat, composer, messages, chatRequests, openChat, send, waitForAnswerEnd } = chatSteps(ui);
  const chips = () => chat().locator('.composer .chips .chip');
  const lastUserMessage = () => chatRequests().at(-1)?.chat?.messages.findLast((m) => m.role === 'user');

  it('a pasted image becomes a chip with its thumbnail and size, and reaches the emulator as an image part', async () => {
    await openChat('emu-chat-large');
    await pasteImage(chat(), PASTED, 'screenshot.png');
    const chip = chips().filter({ hasText: 'screenshot.png' });
    await chip.waitFor({ timeout: 10_000 });
    await waitFor('the thumbnail', () => thumbnailShown(chip), { timeoutMs: 10_000, intervalMs: 100 });
    assert.match(await chip.innerText(), /screenshot\.png\s+\d+(\.\d)? KiB/);
    await ui.screenshot('01-pasted-image-chip');

    ui.emulator.scriptReply('production', { text: 'A gradient with discs.' });
    await send('What is in this picture?');
    assert.deepEqual(lastUserMessage(), { role: 'user', content: 'What is in this picture?', images: [{ mime: 'image/png', bytes: PASTED.length }] });
    await waitForAnswerEnd();
    assert.equal(await chips().count(), 0, 'the chip left with the message');
    const sent = messages('user').last().locator('.attachments .chip');
    await waitFor('the sent message\'s thumbnail', () => thumbnailShown(sent), { timeoutMs: 10_000, intervalMs: 100 });
    await ui.screenshot('02-sent-with-image');
  });

  it('survives a window reload: the thumbnail is read back from the history, and the next question sends the image again', async () => {
    await ui.reloadWindow();
    await composer().waitFor({ state: 'visible', timeout: 60_000 });
    const sent = messages('user').first().locator('.attachments .chip');
    await sent.waitFor({ timeout: 30_000 });
    await waitFor('the restored thumbnail', () => thumbnailShown(sent), { timeoutMs: 15_000, intervalMs: 100 });
    await ui.screenshot('03-after-reload');
    ui.emulator.scriptReply('production', { text: 'Still the same picture.' });
    await send('And its colours?');
    const first = chatRequests().at(-1)?.chat?.messages.find((m) => m.role === 'user');
    assert.deepEqual(first?.images, [{ mime: 'image/png', bytes: PASTED.length }], 'the image, from its file beside the history');
    await waitForAnswerEnd();
  });

  it('a model that refuses images shows the service\'s error naming it, and the question and image stay in the composer', async () => {
    await chat().locator('button[data-action="newConversation"]').click();
    await waitFor('a new conversation', async () => (await messages('user').count()) === 0, { timeoutMs: 10_000, intervalMs: 100 });
    // The conversation's own model, from the composer's model menu.
    await chat().locator('button[data-action="pickModel"]').click();
    await chat().locator('.model-menu-filter').fill('chat-small');
    await chat().locator('.model-menu-row[aria-selected="true"]', { hasText: 'emu-chat-small' }).waitFor({ timeout: 30_000 });
    await ui.screenshot('03b-model-menu');
    await chat().locator('.model-menu-filter').press('Enter');
    await chat().locator('button[data-action="pickModel"]', { hasText: 'emu-chat-small' }).waitFor({ timeout: 10_000 });
    await pasteImage(chat(), PASTED, 'diagram.png');
    await chips().filter({ hasText: 'diagram.png' }).waitFor({ timeout: 10_000 });
    await composer().fill('Describe the diagram');
    await composer().press('Enter');
    await ui.waitForNotification(/emu-chat-small refused the message with its images: .*Model "emu-chat-small" does not accept image input/, 20_000);
    assert.equal(chatRequests().at(-1)?.errorCode, 'images_not_supported');
    assert.equal(await composer().inputValue(), 'Describe the diagram');
    assert.equal(await chips().filter({ hasText: 'diagram.png' }).count(), 1);
    assert.equal(await messages('user').count(), 0, 'the refused turn is not in the conversation');
    await ui.screenshot('04-refused-kept-in-composer');
  });

  it('Send Image to Chat on an image file in the Explorer attaches it to the chat', async () => {
    fs.mkdirSync(path.join(ui.workspace, 'images'), { recursive: true });
    fs.writeFileSync(path.join(ui.workspace, 'images', 'generated.png'), GENERATED);
    await ui.runCommand('View: Show Explorer');
    const folder = ui.page.locator('.explorer-folders-view .monaco-list-row', { hasText: /^\s*images\s*$/ }).first();
    await folder.waitFor({ timeout: 15_000 });
    await folder.click();
    const file = ui.page.locator('.explorer-folders-view .monaco-list-row', { hasText: /^\s*generated\.png\s*$/ }).first();
    await file.waitFor({ timeout: 15_000 });
    await contextMenu(ui.page, file, ['Send Image to Chat']);
    const chip = chips().filter({ hasText: 'generated.png' });
    await chip.waitFor({ timeout: 15_000 });
    await waitFor('its thumbnail', () => thumbnailShown(chip), { timeoutMs: 10_000, intervalMs: 100 });
    await ui.screenshot('05-send-image-to-chat');
  });

  it('an image dropped on the composer becomes a chip too, told by its bytes (a GIF named .png)', async () => {
    await dropImage(chat(), GIF_1X1, 'dropped.png');
    const chip = chips().filter({ hasText: 'dropped.png' });
    await chip.waitFor({ timeout: 10_000 });
    assert.match((await chip.getAttribute('title')) ?? '', /image\/gif/);
    await waitFor('its thumbnail', () => thumbnailShown(chip), { timeoutMs: 10_000, intervalMs: 100 });
  });
});
