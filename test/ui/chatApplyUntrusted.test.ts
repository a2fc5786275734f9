import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { waitFor } from '../harness/wait';
import { ORIGINAL, WHOLE_FILE, diffTab, titleAction } from './applySteps';
import { chatSteps } from './chatSteps';
import { useWorkbench } from './fixture';

/** In Restricted Mode Apply is still offered, as VS Code offers edits: with the diff and a warning. */
describe('chat panel: apply in an untrusted workspace', () => {
  const ui = useWorkbench({
    emulator: { tokensPerSecond: 0 },
    workspaceTrust: true,
    // No start-up question: the folder opens untrusted, in Restricted Mode.
    settings: () => ({ 'security.workspace.trust.startupPrompt': 'never', 'files.autoSave': 'off' }),
    workspaceFiles: { 'src/greet.ts': ORIGINAL },
  });
  const { lastAnswer, openChat, send, waitForAnswerEnd, editorText } = chatSteps(ui);

  it('shows the diff with a warning, and Accept still edits only after the user accepts', async () => {
    await ui.page.locator('.statusbar-item', { hasText: 'Restricted Mode' }).waitFor({ timeout: 30_000 });
    await openChat();
    ui.emulator.scriptReply('production', { text: WHOLE_FILE });
    await send('Change greet, please');
    await waitForAnswerEnd();
    await lastAnswer().locator('.code-block button[data-action="applyCode"]').first().click();
    // The warning follows the diff (it names what the diff shows): wait for the diff first, then the
    // warning, each with room for a loaded machine.
    await diffTab(ui).first().waitFor({ timeout: 30_000 });
    await ui.waitForNotification(/This workspace is not trusted\. Read the proposed change to src\/greet\.ts before you accept it/, 30_000);
    await ui.screenshot('01-untrusted-warning');
    assert.equal(fs.readFileSync(path.join(ui.workspace, 'src/greet.ts'), 'utf8'), ORIGINAL);
    await titleAction(ui, 'Accept Proposed Change').click();
    await waitFor('the accepted text in the editor', async () => (await editorText()).includes('return `Hello, ${name}!`;'), { timeoutMs: 10_000, intervalMs: 200 });
  });
});
