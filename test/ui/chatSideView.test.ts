import * as assert from 'node:assert/strict';
import type { FrameLocator } from 'playwright-core';
import { waitFor } from '../harness/wait';
import { useWorkbench } from './fixture';
import { webviewContent } from './workbench';

/** Issue 29 item 1 as a user sees it: the chat in the side bar, in real VS Code against the emulator. */
describe('chat side-bar view', () => {
  const ui = useWorkbench({
    // Slow enough that an answer is visibly streaming for a few seconds, so Stop can hit it.
    emulator: { tokensPerSecond: 25 },
  });
  const chatRequests = () => ui.emulator.requests.filter((r) => r.path.endsWith('/chat/completions'));
  const outerFrames = () => ui.page.locator('iframe.webview.ready');

  /**
   * The webview whose frame lies over the side bar. The workbench keeps every webview's iframe in one
   * overlay laid over its placeholder, so the side bar's is found by where it is, not where it sits in the DOM.
   */
  async function sideBarWebview(): Promise<number | undefined> {
    const bar = await ui.page.locator('.part.sidebar').boundingBox();
    if (!bar) return undefined;
    const count = await outerFrames().count();
    for (let index = 0; index < count; index++) {
      const box = await outerFrames().nth(index).boundingBox();
      if (box && box.width > 0 && box.x >= bar.x - 1 && box.x + box.width <= bar.x + bar.width + 1) return index;
    }
    return undefined;
  }

  async function viewFrame(): Promise<FrameLocator> {
    const index = await waitFor('the chat view in the side bar', () => sideBarWebview(), { timeoutMs: 30_000, intervalMs: 200 });
    return webviewContent(outerFrames().nth(index));
  }

  /** The one editor-tab webview (the chat panel), when the side bar shows no webview or another one. */
  async function panelFrame(): Promise<FrameLocator> {
    const index = await waitFor('the chat panel', async () => {
      const inBar = await sideBarWebview();
      const count = await outerFrames().count();
      for (let i = 0; i < count; i++) if (i !== inBar) return i;
      return undefined;
    }, { timeoutMs: 30_000, intervalMs: 200 });
    return webviewContent(outerFrames().nth(index));
  }

  async function send(frame: FrameLocator, text: string): Promise<void> {
    const before = chatRequests().length;
    const composer = frame.locator('.composer-input');
    await composer.click();
    await composer.fill(text);
    await composer.press('Enter');
    await waitFor('the chat request to reach the emulator', () => chatRequests()[before], { timeoutMs: 15_000, intervalMs: 50 });
  }

  const answers = (frame: FrameLocator) => frame.locator('.message.role-assistant');
  const chatTabs = () => ui.page.locator('.tabs-container .tab', { hasText: /Hello from the side bar/ });

  it('opens in its own activity-bar container and streams an answer from the emulator', async () => {
    await ui.pickFromCommand('Inference: Pick Chat Model', 'emu-chat-large', 30_000);
    await ui.page.locator('.activitybar .action-item a[aria-label^="Inference"]').first().click();
    const view = await viewFrame();
    await view.locator('.composer-input').waitFor({ state: 'visible', timeout: 30_000 });
    // At the side bar's default width the model button names the model whole; Send shows its icon.
    const modelName = view.locator('.model-button span:not(.codicon)');
    await waitFor('the model button to name the model', async () => (await modelName.innerText()) === 'emu-chat-large', { timeoutMs: 15_000, intervalMs: 200 });
    assert.equal(await modelName.evaluate((span) => span.scrollWidth <= span.clientWidth), true, 'the model name is not cut');
    assert.equal(await view.locator('button[data-action="send"]').getAttribute('title'), 'Send (Enter)');
    await send(view, 'Hello from the side bar');
    const lengths: number[] = [];
    await waitFor('the answer to grow while streaming', async () => {
      const text = (await answers(view).last().locator('.markdown').textContent().catch(() => '')) ?? '';
      if (text.length && text.length !== lengths.at(-1)) lengths.push(text.length);
      return lengths.length >= 3;
    }, { timeoutMs: 30_000, intervalMs: 100 });
    await ui.screenshot('01-side-bar-streaming');
    assert.equal(await modelName.evaluate((span) => span.scrollWidth <= span.clientWidth), true, 'the model name is not cut beside Stop either');
    await view.locator('.message-status', { hasText: 'Answering' }).waitFor({ state: 'detached', timeout: 60_000 });
    assert.match(await answers(view).last().locator('.markdown').innerText(), /Hello from the side bar/);
    assert.match(await answers(view).last().locator('.meta-model').innerText(), /emu-chat-large/);
    // Its header names the conversation after its first question, as a panel's does.
    await waitFor('the conversation to be named after the question', async () => /Hello from the side bar/.test(await view.locator('.conversation-title').innerText()), { timeoutMs: 10_000, intervalMs: 200 });
    assert.equal(await chatTabs().count(), 0, 'no editor tab was opened');
  });

  it('stops an answer mid-stream with Escape and keeps its partial text', async () => {
    const view = await viewFrame();
    ui.emulator.scriptReply('production', { text: Array.from({ length: 1000 }, (_, i) => `word${i}`).join(' ') });
    await send(view, 'Please write something long');
    await waitFor('the second answer to stream', async () => (await answers(view).count()) === 2
      && ((await answers(view).last().locator('.markdown').textContent()) ?? '').length > 20, { timeoutMs: 30_000, intervalMs: 100 });
    await view.locator('.composer-input').press('Escape');
    await answers(view).last().locator('.message-status', { hasText: 'Stopped' }).waitFor({ timeout: 15_000 });
    await ui.screenshot('02-side-bar-stopped');
  });

  it('shows the same conversation after a window reload', async () => {
    await ui.reloadWindow();
    const view = await viewFrame();
    await waitFor('the restored conversation', async () => (await answers(view).count()) === 2, { timeoutMs: 30_000, intervalMs: 200 });
    assert.match(await answers(view).first().locator('.markdown').innerText(), /Hello from the side bar/);
    assert.equal(await answers(view).last().locator('.message-status', { hasText: 'Stopped' }).count(), 1);
    await ui.screenshot('03-side-bar-restored');
  });

  it('moves the conversation to an editor tab mid-answer and back, never showing it in both', async () => {
    // Held after its first words until the conversation has moved, however slow the machine: it is
    // still streaming when it moves, and finishes in the tab. Being held, it needs no pacing.
    const scripted = Array.from({ length: 150 }, (_, i) => `moved${i}`).join(' ');
    ui.emulator.setPacing('production', { tokensPerSecond: 0 });
    ui.emulator.scriptReply('production', { text: scripted, holdAfterPieces: 20 });
    const streaming = await viewFrame();
    await send(streaming, 'Keep answering while this moves');
    await waitFor('the third answer to stream', async () => (await answers(streaming).count()) === 3
      && ((await answers(streaming).last().locator('.markdown').textContent()) ?? '').length > 20, { timeoutMs: 30_000, intervalMs: 100 });
    // The view's title bar (the container's, while the view is its only one) has the button.
    await ui.page.locator('.part.sidebar .composite.title .action-label[aria-label="Open Chat in Editor"]').click();
    await chatTabs().first().waitFor({ timeout: 30_000 });
    assert.equal(ui.emulator.held(), 1, 'the answer was still streaming when it moved');
    ui.emulator.resumeHeld();
    const panel = await panelFrame();
    await waitFor('the moved conversation in the tab', async () => (await answers(panel).count()) === 3, { timeoutMs: 30_000, intervalMs: 200 });
    await answers(panel).last().locator('.message-status', { hasText: 'Answering' }).waitFor({ state: 'detached', timeout: 60_000 });
    // The status goes with the end's patch; the last text shows in the next frame, later on a busy machine.
    const finished = () => answers(panel).last().locator('.markdown').innerText().then((text) => text.trim());
    await waitFor('the answer to finish in the tab, whole', async () => (await finished()) === scripted, { timeoutMs: 10_000, intervalMs: 200 }).catch(() => undefined);
    assert.equal(await finished(), scripted, 'the answer finished in the tab, whole');
    assert.equal(chatRequests().filter((r) => JSON.stringify(r.chat?.messages ?? []).includes('Keep answering while this moves')).length, 1, 'moving sent nothing again');
    const view = await viewFrame();
    await waitFor('the view to start a new conversation', async () => (await view.locator('.message').count()) === 0, { timeoutMs: 15_000, intervalMs: 200 });
    await ui.screenshot('04-moved-to-editor');

    await ui.runCommand('Inference: Move Chat to Side Bar');
    await chatTabs().first().waitFor({ state: 'detached', timeout: 30_000 });
    const back = await viewFrame();
    await waitFor('the conversation back in the view', async () => (await answers(back).count()) === 3, { timeoutMs: 30_000, intervalMs: 200 });
    await ui.screenshot('05-moved-back');

    // Chat History on the conversation the view shows reveals the view; no tab opens a second writer.
    await ui.runCommand('Inference: Chat History');
    await ui.pickQuickPickItem(/Hello from the side bar/);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    assert.equal(await chatTabs().count(), 0, 'the history opened no tab for a conversation the view shows');
  });
});
