import * as assert from 'node:assert/strict';
import { useWorkbench } from './fixture';

/** The fixture itself, driven through the extension's account UI: palette, quick pick, input box, notifications. */
describe('workbench with the extension under development', () => {
  const ui = useWorkbench();

  it('shows the extension in the status bar', async () => {
    await ui.statusBarItem(/credits|balance unknown/).first().waitFor({ state: 'visible', timeout: 30_000 });
    await ui.screenshot('01-workbench');
  });

  it('runs a command from the palette and lists its quick pick', async () => {
    await ui.runCommand('Inference: Account Menu');
    const items = await ui.quickPickItems();
    assert.ok(items.some((item) => /Switch Environment/.test(item)), `account menu items: ${items.join(' | ')}`);
    await ui.screenshot('02-account-menu');
    await ui.closeQuickInput();
  });

  it('types an API key into the input box and reads the notification', async () => {
    await ui.runCommand('Inference: Set API Key');
    await ui.typeInInput(ui.emulator.keys.production.full);
    await ui.waitForNotification(/API key saved/);
    await ui.screenshot('03-key-saved-notification');
  });

  it('reads the content of a webview through its nested frames', async () => {
    // The built-in Markdown preview is a webview like the chat: same outer and inner iframes.
    await ui.openFile('README.md');
    await ui.runCommand('Markdown: Open Preview to the Side');
    await ui.chatFrame().locator('h1', { hasText: 'Scratch workspace' }).waitFor({ state: 'visible', timeout: 30_000 });
    await ui.screenshot('04-webview');
  });

  it('reloads the window and comes back with the extension', async () => {
    await ui.reloadWindow();
    await ui.statusBarItem(/credits|balance unknown/).first().waitFor({ state: 'visible', timeout: 30_000 });
    await ui.screenshot('05-after-reload');
  });
});
