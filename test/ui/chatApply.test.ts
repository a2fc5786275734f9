import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { waitFor } from '../harness/wait';
import { chatSteps } from './chatSteps';
import { useWorkbench } from './fixture';
import { ORIGINAL, WHOLE_FILE, diffTab as diffTabOf, titleAction as titleActionOf } from './applySteps';

const FRAGMENT = ['Replace those lines with:', '', '```ts', '  return `Hi, ${name}.`;', '}', '```'].join('\n');

/** Issue 29 item 4: Apply on a code block opens a diff; Accept edits (one undo step), Reject changes nothing. */
describe('chat panel: apply a code block as a reviewed diff', () => {
  const ui = useWorkbench({
    emulator: { tokensPerSecond: 0 },
    // VS Code for the Web saves after a delay by default; desktop does not. Off, as on the desktop, so that
    // the test sees what Accept itself does: it edits the document and leaves saving to the user.
    settings: () => ({ 'files.autoSave': 'off' }),
    workspaceFiles: { 'src/greet.ts': ORIGINAL },
  });
  const { chat, lastAnswer, openChat, send, waitForAnswerEnd, editorText, selectLines2To3, focusActiveEditor } = chatSteps(ui);
  const onDisk = () => fs.readFileSync(path.join(ui.workspace, 'src/greet.ts'), 'utf8');
  const diffTab = () => diffTabOf(ui);
  const titleAction = (name: string) => titleActionOf(ui, name);
  const proposedSide = () => ui.page.locator('.monaco-diff-editor .editor.modified .view-lines').first();

  async function answerAndApply(answer: string): Promise<void> {
    if ((await chat().locator('.composer-input').count()) === 0) await ui.runCommand('Inference: Open Chat');
    ui.emulator.scriptReply('production', { text: answer });
    await send('Change greet, please');
    await waitForAnswerEnd();
    await lastAnswer().locator('.code-block button[data-action="applyCode"]').first().click();
  }

  async function waitForDiff(expected: string): Promise<void> {
    await diffTab().first().waitFor({ timeout: 20_000 });
    await waitFor('the proposal in the diff', async () => (await proposedSide().innerText()).replace(/\u00a0/g, ' ').includes(expected), { timeoutMs: 15_000, intervalMs: 200 });
    await titleAction('Accept Proposed Change').waitFor({ timeout: 10_000 });
    await titleAction('Reject Proposed Change').waitFor({ timeout: 10_000 });
  }

  it('opens the diff for the file the block names, and Accept changes it in one undoable edit', async () => {
    await openChat();
    await answerAndApply(WHOLE_FILE);
    await waitForDiff('return `Hello, ${name}!`;');
    assert.match(await diffTab().first().innerText(), /src\/greet\.ts ↔ Proposed \(replaces the whole file\)/);
    assert.equal(onDisk(), ORIGINAL, 'nothing changes before Accept');
    await ui.screenshot('01-diff-with-accept-reject');

    await titleAction('Accept Proposed Change').click();
    await diffTab().first().waitFor({ state: 'detached', timeout: 10_000 });
    await waitFor('the accepted text in the editor', async () => (await editorText()).includes('return `Hello, ${name}!`;'), { timeoutMs: 10_000, intervalMs: 200 });
    await ui.page.locator('.tabs-container .tab.dirty[data-resource-name="greet.ts"]').waitFor({ timeout: 10_000 });
    assert.equal(onDisk(), ORIGINAL, 'the edit is in the editor, not saved');
    await ui.screenshot('02-accepted');

    await focusActiveEditor();
    await ui.page.keyboard.press('Control+Z');
    await waitFor('one undo to restore the file', async () => (await editorText()).includes("return 'Hello ' + name;"), { timeoutMs: 10_000, intervalMs: 200 });
    await ui.page.locator('.tabs-container .tab.dirty[data-resource-name="greet.ts"]').waitFor({ state: 'detached', timeout: 10_000 });
    assert.equal(onDisk(), ORIGINAL);
  });

  it('Reject closes the diff and leaves the file as it was', async () => {
    await answerAndApply(WHOLE_FILE);
    await waitForDiff('return `Hello, ${name}!`;');
    await titleAction('Reject Proposed Change').click();
    await diffTab().first().waitFor({ state: 'detached', timeout: 10_000 });
    await ui.page.locator('.part.statusbar', { hasText: 'Proposed change rejected' }).waitFor({ timeout: 10_000 });
    assert.equal(onDisk(), ORIGINAL);
    assert.equal(await ui.page.locator('.tabs-container .tab.dirty').count(), 0, 'no editor was touched');
  });

  it('proposes again, instead of overwriting, when the file changed before Accept', async () => {
    await answerAndApply(WHOLE_FILE);
    await waitForDiff('return `Hello, ${name}!`;');
    const elsewhere = ORIGINAL.replace("'Hello '", "'Hey '");
    fs.writeFileSync(path.join(ui.workspace, 'src/greet.ts'), elsewhere);
    const originalSide = ui.page.locator('.monaco-diff-editor .editor.original .view-lines').first();
    await waitFor('the diff to show the file as changed on disk', async () => (await originalSide.innerText()).includes('Hey'), { timeoutMs: 15_000, intervalMs: 200 });
    await titleAction('Accept Proposed Change').click();
    await ui.waitForNotification(/greet\.ts changed after the change was proposed, so nothing was applied/);
    await waitForDiff('return `Hello, ${name}!`;');
    assert.equal(onDisk(), elsewhere, 'the change made meanwhile is kept');
    await ui.screenshot('03-proposed-again');
    await titleAction('Reject Proposed Change').click();
    await diffTab().first().waitFor({ state: 'detached', timeout: 10_000 });
    fs.writeFileSync(path.join(ui.workspace, 'src/greet.ts'), ORIGINAL);
    await ui.clearNotifications();
  });

  it('asks where a fragment goes and previews it replacing the editor\'s selection', async () => {
    // Quick Open returns at once when the file has a tab already: show that tab first.
    await ui.page.locator('.tabs-container .tab[data-resource-name="greet.ts"]').first().click();
    await selectLines2To3('src/greet.ts');
    await answerAndApply(FRAGMENT);
    const choices = await ui.quickPickItems();
    assert.deepEqual(choices, ['Replace the selection', 'Insert at the cursor', 'Replace the whole file']);
    await ui.screenshot('04-fragment-choice');
    await ui.pickQuickPickItem('Replace the selection');
    await waitForDiff('return `Hi, ${name}.`;');
    assert.match(await diffTab().first().innerText(), /Proposed \(replaces the selection\)/);
    await ui.screenshot('05-fragment-diff');
    await titleAction('Accept Proposed Change').click();
    await waitFor('the fragment in place', async () => (await editorText()) === ['export function greet(name: string): string {', '  return `Hi, ${name}.`;', '}', ''].join('\n'), { timeoutMs: 10_000, intervalMs: 200 });
  });

  it('proposes against an editor\'s unsaved text and edits that editor', async () => {
    assert.equal(onDisk(), ORIGINAL, 'the fragment is unsaved');
    await answerAndApply(WHOLE_FILE);
    await waitForDiff('return `Hello, ${name}!`;');
    const originalSide = ui.page.locator('.monaco-diff-editor .editor.original .view-lines').first();
    assert.match((await originalSide.innerText()).replace(/\u00a0/g, ' '), /return `Hi, \$\{name\}\.`;/, 'the diff starts from the unsaved text');
    await ui.screenshot('06-unsaved-base');
    await titleAction('Accept Proposed Change').click();
    await waitFor('the accepted text in the editor', async () => (await editorText()).includes('return `Hello, ${name}!`;'), { timeoutMs: 10_000, intervalMs: 200 });
    assert.equal(onDisk(), ORIGINAL);
  });

  it('proposes a named file that does not exist as a new file, created only on Accept', async () => {
    const created = path.join(ui.workspace, 'src/farewell.ts');
    await answerAndApply(['```ts', '// src/farewell.ts', 'export const farewell = (name: string) => `Bye, ${name}`;', '```'].join('\n'));
    await waitForDiff('export const farewell');
    assert.match(await diffTab().first().innerText(), /src\/farewell\.ts ↔ Proposed \(new file\)/);
    assert.ok(!fs.existsSync(created), 'nothing is written before Accept');
    await ui.screenshot('07-new-file');
    await titleAction('Accept Proposed Change').click();
    await waitFor('the new file', () => fs.existsSync(created), { timeoutMs: 10_000, intervalMs: 200 });
    assert.equal(fs.readFileSync(created, 'utf8'), 'export const farewell = (name: string) => `Bye, ${name}`;\n', 'the naming comment is a label, not code');
    // "Undo takes the change back", as the status bar says: for a new file, the file goes.
    await ui.page.locator('.tabs-container .tab.active[data-resource-name="farewell.ts"]').waitFor({ timeout: 10_000 });
    await focusActiveEditor();
    await ui.page.keyboard.press('Control+Z');
    await waitFor('one undo to remove the new file', () => !fs.existsSync(created), { timeoutMs: 10_000, intervalMs: 200 });
    await ui.screenshot('08-new-file-undone');
  });

  it('refuses a block that names a file outside the workspace, and opens nothing', async () => {
    await answerAndApply(['```sh ../../outside.sh', 'echo hi', '```'].join('\n'));
    await ui.waitForNotification(/"\.\.\/\.\.\/outside\.sh", which is outside the workspace/);
    assert.equal(await diffTab().count(), 0);
    await ui.screenshot('08-outside-refused');
  });

  it('refuses a path inside the workspace that a symbolic link takes out of it', async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'apply-outside-'));
    fs.symlinkSync(outside, path.join(ui.workspace, 'linked'));
    await ui.clearNotifications();
    await answerAndApply(['```sh linked/run.sh', 'echo hi', '```'].join('\n'));
    await ui.waitForNotification(/"linked\/run\.sh" is outside the workspace \(or links out of it\)/);
    assert.equal(await diffTab().count(), 0);
    assert.deepEqual(fs.readdirSync(outside), [], 'nothing was written through the link');
    fs.rmSync(outside, { recursive: true, force: true });
  });
});
