import * as assert from 'node:assert/strict';
import { waitFor } from '../harness/wait';
import { useWorkbench } from './fixture';

const TYPESCRIPT = 'src/math.ts';
const PYTHON = 'tools/area.py';

/**
 * Inline suggestions as a user meets them: turned on, a model picked, ghost text drawn in the editor
 * after a pause in typing, Tab accepting it, and the status item saying what suggestions cost today.
 */
describe('Inline suggestions in the editor', () => {
  const ui = useWorkbench({
    settings: () => ({ 'inference.suggestions.enabled': true, 'inference.suggestions.debounceMs': 150, 'files.autoSave': 'off' }),
    workspaceFiles: {
      [TYPESCRIPT]: 'export function add(a: number, b: number): number {\n',
      [PYTHON]: 'def add(a, b):\n',
    },
  });
  const editorText = () => ui.page.locator('.editor-instance .view-lines').first().innerText();
  const ghostParts = () => ui.page.locator('.editor-instance .ghost-text-decoration, .editor-instance .ghost-text');
  const ghostText = () => ghostParts().first();
  /** VS Code draws ghost text in pieces (a token's span each, a block's further lines apart): all of them, in order. */
  const ghostTextShown = async () => (await ghostParts().allInnerTexts()).join(' ');
  const suggestionRequests = () => ui.emulator.requests.filter((r) => r.path.endsWith('/chat/completions'));

  /** Goes to the end of the file and types as a user does, key by key. */
  async function typeAtEnd(text: string): Promise<void> {
    await ui.page.locator('.editor-instance .view-lines').first().click();
    await ui.page.keyboard.press('Control+End');
    await ui.page.keyboard.type(text, { delay: 20 });
  }

  it('asks for a model, then draws ghost text after a pause, and Tab inserts it', async () => {
    await ui.pickFromCommand('Inference: Pick Model for Inline Suggestions', ui.emulator.environments.production.chatModels[1]);
    await ui.statusBarItem(/Suggestions|on|\d/).first().waitFor({ state: 'visible', timeout: 15_000 });
    await ui.openFile(TYPESCRIPT);
    await typeAtEnd('  ');
    await ghostText().waitFor({ state: 'visible', timeout: 20_000 });
    assert.match(await ghostTextShown(), /return\s+a\s+\+\s+b;/);
    await ui.screenshot('01-ghost-text-typescript');
    const sent = suggestionRequests().length;
    await ui.page.keyboard.press('Tab');
    await waitFor('the suggestion in the file', async () => /return\s+a\s+\+\s+b;/.test(await editorText()));
    assert.equal(suggestionRequests().length, sent, 'accepting sends nothing');
    assert.equal(await ghostText().count(), 0, 'no ghost text left once accepted');
  });

  it('completes a Python function too; the status item says what suggestions cost today', async () => {
    await ui.openFile(PYTHON);
    await typeAtEnd('    ');
    await ghostText().waitFor({ state: 'visible', timeout: 20_000 });
    assert.match(await ghostTextShown(), /return\s+a\s+\+\s+b/);
    const item = ui.statusBarItem(/\d today/).first();
    await item.waitFor({ state: 'visible', timeout: 15_000 });
    await item.hover();
    await ui.page.locator('.monaco-hover, .workbench-hover', { hasText: /Suggestions today: \d/ }).first().waitFor({ state: 'visible', timeout: 10_000 });
    assert.equal(await ghostText().isVisible(), true, 'the ghost text stays while the pointer is on the status bar');
    await ui.screenshot('02-ghost-text-python-and-spend-today');
    await ui.page.keyboard.press('Tab');
    await waitFor('the Python suggestion in the file', async () => /return\s+a\s+\+\s+b/.test(await editorText()));
  });

  it('the usage view shows suggestions as their own kind, with requested, shown and accepted', async () => {
    await ui.runCommand('Inference: Show Usage');
    const section = ui.chatFrame(0).locator('section.suggestions');
    await section.waitFor({ state: 'visible', timeout: 20_000 });
    const text = await section.innerText();
    assert.match(text, /Inline suggestions over the last \d+ days/);
    assert.match(text, /Accepted\s+2\b/, text);
    assert.doesNotMatch(text, /Credits per accepted suggestion\s+—/, 'two accepted: a figure per accepted suggestion');
    await section.scrollIntoViewIfNeeded();
    await ui.screenshot('03-usage-view-suggestions');
  });
});
