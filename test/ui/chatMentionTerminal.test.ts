import * as assert from 'node:assert/strict';
import { waitFor } from '../harness/wait';
import { chatSteps } from './chatSteps';
import { useWorkbench } from './fixture';

/** Its own file: a workbench with shell integration off (and its own screenshot folder). */
describe('chat panel: # mention of a terminal without shell integration', () => {
  const ui = useWorkbench({ settings: () => ({ 'terminal.integrated.shellIntegration.enabled': false }) });
  const { chat, composer, chatRequests, openChat } = chatSteps(ui);

  it('refuses it with an error chip that says why, and sends nothing', async () => {
    await openChat();
    await ui.runCommand('Terminal: Create New Terminal');
    await ui.page.locator('.terminal-wrapper .xterm').first().waitFor({ timeout: 30_000 });
    await composer().click();
    await composer().pressSequentially('#term', { delay: 20 });
    const selected = chat().locator('.mention-row[aria-selected="true"] .mention-label');
    await waitFor('the terminal row', async () => (await selected.count()) === 1 && (await selected.innerText()) === 'Terminal', { timeoutMs: 15_000, intervalMs: 100 });
    await composer().press('Enter');
    const error = chat().locator('.composer .chips .chip-error');
    await error.waitFor({ timeout: 15_000 });
    assert.match(await error.innerText(), /^(The terminal ".+"|The active terminal) has no shell integration, so its last command cannot be read\. Use a shell/);
    assert.doesNotMatch(await error.innerText(), /""/, 'a terminal without a name yet is not called ""');
    await ui.screenshot('06-terminal-without-shell-integration');
    const before = chatRequests().length;
    await composer().pressSequentially('Why did it fail?');
    await composer().press('Enter');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    assert.equal(chatRequests().length, before, 'nothing is sent while the error chip stays');
  });
});
