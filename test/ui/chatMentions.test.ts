import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { waitFor } from '../harness/wait';
import { chatSteps } from './chatSteps';
import { useWorkbench } from './fixture';

const COMMITTED = ['export function add(a: number, b: number): number {', '  return a + b;', '}', ''].join('\n');
const CHANGED = COMMITTED.replace('return a + b;', 'return a + b + 0;');
const PNG_HEADER = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);

/**
 * A git repository with a committed file changed since, an untracked file, a .gitignore'd file, a
 * binary file and a link to a file outside the workspace: what `#` mentions must take or refuse.
 */
function prepareRepository(folder: string): void {
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.invalid', ...args], { cwd: folder, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('add', '.');
  git('commit', '-q', '-m', 'initial');
  fs.writeFileSync(path.join(folder, 'src/sample.ts'), CHANGED);
  fs.mkdirSync(path.join(folder, 'notes'));
  fs.writeFileSync(path.join(folder, 'notes/todo.md'), '- review\n');
  fs.writeFileSync(path.join(folder, 'ignored.log'), 'noise\n');
  fs.writeFileSync(path.join(folder, 'assets/logo.png'), PNG_HEADER);
  const outside = path.join(folder, '..', 'outside-secret.txt');
  fs.writeFileSync(outside, 'not for the model\n');
  fs.symlinkSync(outside, path.join(folder, 'linked.txt'));
}

/** `#` mentions in real VS Code: the picker, the chips with their sizes, the text the emulator received, the refusals. */
describe('chat panel: # mentions', () => {
  const ui = useWorkbench({
    emulator: { tokensPerSecond: 200 },
    // A small cap, so that one file of the workspace is over it.
    settings: () => ({ 'inference.chat.maxContextCharacters': 1000 }),
    workspaceFiles: {
      'src/sample.ts': COMMITTED, 'config/broken.json': '{ "a": 1 "b": 2 }\n', '.gitignore': 'ignored.log\n', 'assets/.keep': '', 'logs/big.txt': 'x'.repeat(5000),
    },
    prepareWorkspace: prepareRepository,
  });
  const { chat, composer, messages, chatRequests, lastUserContent, openChat, waitForAnswerEnd } = chatSteps(ui);
  const picker = () => chat().locator('.mention-picker');
  const rows = () => picker().locator('.mention-row');
  const chips = () => chat().locator('.composer .chips .chip');
  const selectedRow = () => picker().locator('.mention-row[aria-selected="true"] .mention-label');

  /** Types `#query`, waits for the picker to rank `expected` first, and picks it with Enter. */
  async function mention(query: string, expected: string): Promise<void> {
    await composer().pressSequentially(`#${query}`, { delay: 20 });
    await waitFor(`"${expected}" first in the picker`, async () => (await selectedRow().count()) === 1 && (await selectedRow().innerText()) === expected, { timeoutMs: 15_000, intervalMs: 100 });
    await composer().press('Enter');
    await picker().waitFor({ state: 'hidden', timeout: 5000 });
  }

  it('lists files (less .gitignore), the selection, problems, terminal and changes when # is typed', async () => {
    await ui.openFile('config/broken.json');
    // The JSON language server's diagnostics: the workspace's problems.
    await ui.page.locator('.monaco-editor .squiggly-error').first().waitFor({ timeout: 30_000 });
    // The Git extension has found the repository when the status bar shows its branch.
    await ui.page.locator('.statusbar-item', { hasText: 'main' }).first().waitFor({ timeout: 30_000 });
    await openChat();
    await composer().click();
    await composer().pressSequentially('#');
    await waitFor('the picker rows', async () => (await rows().count()) > 5, { timeoutMs: 15_000, intervalMs: 100 });
    const labels = (await rows().locator('.mention-label').allInnerTexts()).map((t) => t.trim());
    for (const expected of ['Selection', 'Problems in the active file', 'Problems in the workspace', 'Terminal', 'Changes', 'src/sample.ts', 'config/broken.json', 'notes/todo.md']) {
      assert.ok(labels.includes(expected), `${expected} in ${JSON.stringify(labels)}`);
    }
    assert.ok(!labels.includes('ignored.log'), '.gitignore leaves ignored.log out');
    await ui.screenshot('01-mention-picker');
    await composer().pressSequentially('sampl', { delay: 20 });
    await waitFor('the file ranked first', async () => (await selectedRow().innerText()) === 'src/sample.ts', { timeoutMs: 10_000, intervalMs: 100 });
    assert.equal(await selectedRow().locator('mark').count() > 0, true, 'the matched characters are highlighted');
    await ui.screenshot('02-mention-picker-filtered');
    await composer().press('Escape');
    await picker().waitFor({ state: 'hidden', timeout: 5000 });
    await composer().fill('');
  });

  it('turns a file, the workspace problems and the changes into chips with sizes, and sends their text', async () => {
    await composer().click();
    await mention('sampl', 'src/sample.ts');
    assert.equal(await composer().inputValue(), '', 'the #query left the text: the chip stands for it');
    await mention('probw', 'Problems in the workspace');
    await mention('chang', 'Changes');
    await waitFor('three chips', async () => (await chips().count()) === 3, { timeoutMs: 15_000, intervalMs: 100 });
    const sizes = await chips().locator('.chip-size').allInnerTexts();
    assert.equal(sizes.length, 3);
    assert.equal(sizes[0], `${CHANGED.length} chars`, 'the file chip shows its size');
    await ui.screenshot('03-mention-chips');

    ui.emulator.scriptReply('production', { text: 'Reviewed.' });
    const before = chatRequests().length;
    await composer().pressSequentially('Review these');
    await composer().press('Enter');
    await waitFor('the request', () => chatRequests().length > before, { timeoutMs: 15_000, intervalMs: 50 });
    const sent = lastUserContent() ?? '';
    assert.ok(sent.includes(`File src/sample.ts:\n\`\`\`ts\n${CHANGED}\n\`\`\``), sent);
    assert.match(sent, /Problems \(diagnostics\) in the workspace:\n```\nconfig\/broken\.json:1:\d+ error/);
    assert.match(sent, /Working tree changes \(git diff\) in workspace:\n```diff\n# Unstaged changes\ndiff --git a\/src\/sample\.ts b\/src\/sample\.ts/);
    assert.ok(sent.includes('-  return a + b;\n+  return a + b + 0;'), 'the diff text');
    assert.match(sent, /# Untracked files\n(?:.+\n)*notes\/todo\.md/, 'untracked files are named');
    assert.ok(!sent.includes('ignored.log') && !sent.includes('not for the model'));
    assert.ok(sent.endsWith('\n\nReview these'));
    await waitForAnswerEnd();
    assert.equal(await chips().count(), 0, 'sent chips leave the composer');
    const sentChips = messages('user').last().locator('.attachments .chip');
    assert.equal(await sentChips.count(), 3, 'the sent message lists what was sent');
    assert.equal(await sentChips.locator('.chip-size').count(), 3, 'with the size of each');
    const context = messages('assistant').last().locator('.meta-context');
    assert.match(await context.innerText(), /^context: \d+ chars$/, "the answer's details: the context's total size");
    const listed = (await context.getAttribute('title')) ?? '';
    for (const line of [`sample.ts (${CHANGED.length} chars)`, 'Problems in the workspace (1)', 'Changes (']) assert.ok(listed.includes(line), `${line} in ${listed}`);
  });

  it('refuses a binary file, a link out of the workspace and a file over the cap with error chips, and sends nothing while they stay', async () => {
    await composer().click();
    await mention('logo', 'assets/logo.png');
    await mention('linked', 'linked.txt');
    await mention('big', 'logs/big.txt');
    const errors = chat().locator('.composer .chips .chip-error');
    await waitFor('three error chips', async () => (await errors.count()) === 3, { timeoutMs: 15_000, intervalMs: 100 });
    assert.match(await errors.nth(0).innerText(), /assets\/logo\.png is a binary file/);
    assert.match(await errors.nth(1).innerText(), /linked\.txt resolves to a path outside the workspace/);
    assert.match(await errors.nth(2).innerText(), /logs\/big\.txt is 4\.9 KiB, over the context cap of 1K chars \(setting inference\.chat\.maxContextCharacters\)/);
    await composer().pressSequentially('Send anyway?');
    await ui.screenshot('04-mention-error-chips');
    const before = chatRequests().length;
    await composer().press('Enter');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.equal(chatRequests().length, before, 'nothing is sent while an error chip stays');
    assert.equal(await composer().inputValue(), 'Send anyway?', 'the text is kept');
    for (let i = 0; i < 3; i++) await errors.nth(0).locator('button').click();
    await waitFor('no error chips', async () => (await errors.count()) === 0, { timeoutMs: 5000, intervalMs: 100 });
  });

  it("attaches the terminal's last command and its output, read through shell integration", async () => {
    await ui.runCommand('Terminal: Create New Terminal');
    const terminal = ui.page.locator('.terminal-wrapper .xterm');
    await terminal.first().waitFor({ timeout: 30_000 });
    // Shell integration marks the prompt in the terminal's gutter once the shell has reported it
    // (xterm draws its text on a canvas, but the decorations are DOM): a command typed now is seen.
    const decoration = (state: 'incomplete' | 'success') => ui.page.locator(`.terminal-wrapper .terminal-command-decoration.codicon-terminal-decoration-${state}`);
    await decoration('incomplete').first().waitFor({ timeout: 30_000 });
    await terminal.first().click();
    // A command that ends at once may write before VS Code reports its start, which read() then misses; real commands take longer.
    await ui.page.keyboard.type('sleep 1; echo mention-$((40+2))');
    await ui.page.keyboard.press('Enter');
    // The command's decoration turns to success when shell integration reports its end, which reaches
    // the extension host before the mention below does.
    await decoration('success').first().waitFor({ timeout: 30_000 });
    await composer().fill('');
    await composer().click();
    await mention('term', 'Terminal');
    const chip = chips().filter({ hasText: 'last command' });
    await chip.waitFor({ timeout: 15_000 });
    await ui.screenshot('05-terminal-chip');
    ui.emulator.scriptReply('production', { text: 'It printed 42.' });
    await composer().pressSequentially('What did it print?');
    const before = chatRequests().length;
    await composer().press('Enter');
    await waitFor('the request', () => chatRequests().length > before, { timeoutMs: 15_000, intervalMs: 50 });
    assert.match(lastUserContent() ?? '', /Terminal .*\(last command: sleep 1; echo mention-\$\(\(40\+2\)\)\):\n```\n\$ sleep 1; echo mention-\$\(\(40\+2\)\)\nmention-42\n\(exit code 0\)\n```/);
    await waitForAnswerEnd();
  });
});
