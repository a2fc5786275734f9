import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { processGroupMembers } from '../harness/processes';
import { waitFor } from '../harness/wait';
import { chatSteps } from './chatSteps';
import { useWorkbench } from './fixture';

/** 300 distinct words: any prefix of the answer is recognisable, and plain text renders as itself. */
const LONG_REPLY = Array.from({ length: 300 }, (_, i) => `word${String(i + 1).padStart(3, '0')}`).join(' ');
const normalise = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim();

/**
 * Issue 12, item 3, as a user lives it: the extension host process dies in the middle of a stream
 * (SIGKILL, not Reload Window). Two windows streaming at once: chatTwoWindows.test.ts.
 */
describe('chat history: a killed extension host', () => {
  const ui = useWorkbench({ emulator: { tokensPerSecond: 20 } });
  const { chat, lastAnswer, openChat, send } = chatSteps(ui);
  const historyDir = () => path.join(ui.server.userDataDir, 'User', 'globalStorage', 'inference-client.inference-client', 'chat-history');
  const shown = async () => normalise(await lastAnswer().locator('.markdown').textContent());
  /** The text of the answer being streamed as its journal on disk has it (`{"t": …}` lines after the first). */
  const journaled = () => normalise(fs.readdirSync(historyDir()).filter((f) => f.endsWith('.stream'))
    .flatMap((f) => fs.readFileSync(path.join(historyDir(), f), 'utf8').split('\n').slice(1))
    .map((line) => { try { return (JSON.parse(line) as { t?: string }).t ?? ''; } catch { return ''; } }).join(''));

  it('reopens the conversation with the text received up to the last write, marked interrupted', async function () {
    this.timeout(180_000);
    await openChat();
    ui.emulator.scriptReply('production', { text: LONG_REPLY });
    const request = await send('Tell me a long story');
    await waitFor('some streamed text', async () => (await shown()).length > 60, { timeoutMs: 30_000, intervalMs: 100 });
    // Whatever the machine's load, the kill comes once text on screen has reached the disk (no sleep).
    const shownBefore = await shown();
    await waitFor('the shown text to be journaled on disk', () => journaled().length >= shownBefore.length, { timeoutMs: 30_000, intervalMs: 50 });
    const hosts = processGroupMembers(ui.server.process.pid).filter((p) => /--type=extensionHost/.test(p.command));
    assert.equal(hosts.length, 1, `one extension host in code-server's process group: ${JSON.stringify(hosts)}`);
    process.kill(hosts[0].pid, 'SIGKILL');
    const shownAtKill = await shown();
    await waitFor('the emulator to see the connection drop', () => request.clientClosedAt !== undefined, { timeoutMs: 15_000, intervalMs: 100 });
    await ui.screenshot('01-extension-host-killed');
    assert.ok(shownAtKill.length < normalise(LONG_REPLY).length, 'killed mid-stream');

    await ui.reloadWindow();
    // The panel died with its extension host (VS Code closes it): the user reopens it from the history.
    await ui.runCommand('Inference: Chat History');
    await ui.pickQuickPickItem(/^\s*Tell me a long story/);
    await chat().locator('.composer-input').waitFor({ state: 'visible', timeout: 60_000 });
    await lastAnswer().locator('.message-status', { hasText: 'Interrupted' }).waitFor({ timeout: 30_000 });
    const recovered = await shown();
    await ui.screenshot('02-reopened-interrupted');
    console.log(`    [ui] conversations recovered after the kill: 1 of 1 (shown, then journaled, before the kill: ${shownBefore.length} chars; at the kill: ${shownAtKill.length}; recovered: ${recovered.length} of ${normalise(LONG_REPLY).length})`);
    assert.ok(normalise(LONG_REPLY).startsWith(recovered), 'the recovered text is what was received, in order');
    assert.ok(recovered.length >= shownBefore.length, 'everything journaled before the kill is back');
    assert.ok(recovered.length < normalise(LONG_REPLY).length, 'nothing after the kill was invented');
    assert.equal(await chat().locator('.message.role-user .user-text').last().innerText(), 'Tell me a long story');
    const files = fs.readdirSync(historyDir());
    assert.deepEqual(files.filter((f) => f.endsWith('.stream')), [], 'the dead window\'s journal was folded into the log');
  });
});
