import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ChatResponses } from '../../src/core/chat/protocol/chatRequests';
import { waitFor } from '../harness/wait';
import { openNewChatPanel } from './support/chatPanels';
import { useConfiguredEmulator } from './support/emulatorSetup';

/**
 * A `#` mention of a terminal that cannot give its last command (an extension's pseudoterminal has
 * no shell integration), as the host answers the webview's request. A terminal has no name until its
 * shell reports a title: CI once saw the refusal call it `The terminal ""`.
 */
describe('chat # mention of a terminal without shell integration, named or not yet named (real extension host)', () => {
  const fixture = useConfiguredEmulator();
  const chat = () => fixture().api.chat;
  let id: string;
  const terminals: vscode.Terminal[] = [];

  before(async () => {
    id = await openNewChatPanel(chat());
  });

  after(async () => {
    for (const terminal of terminals) terminal.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  async function mentionTerminalNamed(name: string): Promise<string> {
    const written = new vscode.EventEmitter<string>();
    const terminal = vscode.window.createTerminal({ name, pty: { onDidWrite: written.event, open: () => written.fire('$ '), close: () => written.dispose() } });
    terminals.push(terminal);
    terminal.show();
    await waitFor(`the terminal "${name}" to be active`, () => vscode.window.activeTerminal === terminal, { timeoutMs: 10_000, intervalMs: 20 });
    const answer = await chat().request(id, 'mention', { kind: 'terminal' }) as ChatResponses['mention'];
    return answer.refused?.message ?? assert.fail(`the mention was not refused: ${JSON.stringify(answer)}`);
  }

  it('names a named terminal in the refusal', async () => {
    assert.match(await mentionTerminalNamed('build'), /^The terminal "build" has no shell integration, so its last command cannot be read\. /);
  });

  it('calls a terminal without a name the active terminal, never ""', async () => {
    const message = await mentionTerminalNamed('');
    assert.doesNotMatch(message, /""/);
    assert.match(message, /^(The active terminal|The terminal "[^"]+") has no shell integration/);
  });
});
