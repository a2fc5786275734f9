import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SuggestionsFeature } from '../../../src/host/suggestions';
import { dayKey } from '../../../src/core/usage/report';
import { waitFor } from '../../harness/wait';
import { useConfiguredEmulator } from '../support/emulatorSetup';

/**
 * Inline suggestions in the real editor, against the emulator: ghost text that the commit command
 * (Tab's) inserts, a request closed by typing on, a secrets file and a reached limit that send nothing.
 * What the user sees (the ghost text drawn, Tab pressed) is the UI tier's.
 */
describe('Inline suggestions (real extension host, emulator back end)', () => {
  const fixture = useConfiguredEmulator({ tokensPerSecond: 0 });
  const configuration = () => vscode.workspace.getConfiguration();
  const shell = () => fixture().api.suggestions;
  const feature = () => shell().feature.loaded as SuggestionsFeature | undefined;
  const chatRequests = () => fixture().emulator.requests.filter((r) => r.path.endsWith('/chat/completions'));
  const SETTINGS = ['inference.suggestions.enabled', 'inference.suggestions.debounceMs', 'inference.spendingLimits', 'inference.suggestions.dailyBudgetCredits'];
  const countsToday = () => fixture().api.services.suggestionCounts.totals([dayKey(Date.now())], 'production');
  let folder: string;

  async function openAt(relative: string, text: string, line: number, character: number): Promise<vscode.TextEditor> {
    const file = path.join(folder, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(file));
    editor.selection = new vscode.Selection(line, character, line, character);
    return editor;
  }

  /** Asks as Alt+\ does, and waits until the provider has answered the question. */
  async function trigger(counter: 'shown' | 'skipped' | 'requested', before: number): Promise<void> {
    await vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
    await waitFor(`the suggestion to be ${counter}`, () => (feature()?.tally[counter] ?? 0) > before, { timeoutMs: 15_000, intervalMs: 20 });
  }

  before(async () => {
    const root = vscode.workspace.workspaceFolders?.[0];
    if (!root) throw new Error('this suite needs the window with a workspace folder');
    folder = path.join(root.uri.fsPath, 'suggestions-test');
    const { api, emulator } = fixture();
    await api.services.keys.set('production', emulator.keys.production.full);
    // As picking it would: the list's request also tells the balance, which the first suggestion's spend starts from.
    await api.services.models.list('chat', 'production', { refresh: true });
    await api.services.models.select('suggestion', emulator.environments.production.chatModels[1], 'production');
    await configuration().update('inference.suggestions.debounceMs', 50, vscode.ConfigurationTarget.Global);
    await configuration().update('inference.suggestions.enabled', true, vscode.ConfigurationTarget.Global);
    await waitFor('the status item to say suggestions are on', () => shell().state().kind === 'on', { timeoutMs: 5000, intervalMs: 20 });
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fixture().emulator.resumeHeld();
    await feature()?.suggester.settled();
  });

  after(async () => {
    for (const id of SETTINGS) await configuration().update(id, undefined, vscode.ConfigurationTarget.Global);
    await fixture().api.services.models.select('suggestion', undefined, 'production');
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('shows a suggestion that the commit command inserts, metered as a suggestion of the chosen model', async () => {
    const { emulator, api } = fixture();
    emulator.scriptReply('production', { text: '```ts\nreturn a + b;\n```' });
    const editor = await openAt('add.ts', 'export function add(a: number, b: number): number {\n  \n}\n', 1, 2);
    const shownBefore = feature()?.tally.shown ?? 0;
    const countsBefore = countsToday();
    await trigger('shown', shownBefore);
    // Shown once the editor has the provider's item: the commit is Tab's command.
    await waitFor('the ghost text to be inserted', async () => {
      await vscode.commands.executeCommand('editor.action.inlineSuggest.commit');
      return editor.document.lineAt(1).text === '  return a + b;';
    }, { timeoutMs: 10_000, intervalMs: 100 });
    await waitFor('the acceptance to be counted', () => feature()?.tally.accepted === 1, { timeoutMs: 5000, intervalMs: 20 });
    const counts = countsToday();
    assert.deepEqual([counts.requested - countsBefore.requested, counts.shown - countsBefore.shown, counts.accepted - countsBefore.accepted], [1, 1, 1], 'the usage view\'s counts: requested, shown, accepted');
    const [request] = chatRequests();
    assert.equal(chatRequests().length, 1);
    assert.equal(request.model, emulator.environments.production.chatModels[1]);
    assert.equal(request.stream, true);
    assert.ok(request.chat?.messages.some((m) => m.content.includes('export function add')), 'the text around the cursor was sent');
    await feature()?.suggester.settled();
    const entry = api.services.usage.entries().find((e) => e.requestId === request.id);
    assert.equal(entry?.kind, 'suggestion');
    assert.equal(entry?.credits, request.creditsCharged, 'the spend measured is what the emulator charged');
    await waitFor('today\'s suggestion spend in the status item', () => /Suggestions today: /.test(shell().snapshot().tooltip), { timeoutMs: 5000, intervalMs: 20 });
  });

  it('completes a Python function from the emulator\'s own fenced answer, in the file\'s indentation', async () => {
    const { emulator } = fixture();
    // Fenced, as chat models often answer in spite of the prompt (reset() restores the plain style).
    emulator.setSuggestionStyle('production', 'fenced');
    const editor = await openAt('area.py', 'def add(a, b):\n    \n', 1, 4);
    const shownBefore = feature()?.tally.shown ?? 0;
    await trigger('shown', shownBefore);
    await waitFor('the ghost text to be inserted', async () => {
      await vscode.commands.executeCommand('editor.action.inlineSuggest.commit');
      return editor.document.lineAt(1).text !== '    ';
    }, { timeoutMs: 10_000, intervalMs: 100 });
    assert.equal(editor.document.getText(), 'def add(a, b):\n    return a + b\n');
    assert.deepEqual(chatRequests().map((r) => r.scripted ?? false), [false], 'one request, answered by the emulator\'s own completion');
  });

  it('typing on while the answer streams closes its connection; the request is billed and counted as cancelled', async () => {
    const { emulator, api } = fixture();
    emulator.scriptReply('production', { text: 'return a * b;\n', chunkChars: 3, holdAfterPieces: 1 });
    const editor = await openAt('multiply.ts', 'export function multiply(a: number, b: number): number {\n  \n}\n', 1, 2);
    const cancelledBefore = feature()?.tally.cancelled ?? 0;
    // Not awaited: the command waits for the provider's answer, which the held stream keeps back.
    const triggered = vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
    await waitFor('the stream to be held after its first piece', () => emulator.held() === 1, { timeoutMs: 15_000, intervalMs: 20 });
    const [held] = chatRequests();
    await editor.edit((edit) => edit.insert(new vscode.Position(1, 2), 'c'));
    const closed = await waitFor('the client to close the connection', () => emulator.requests.find((r) => r.id === held.id && r.clientClosedAt !== undefined), { timeoutMs: 10_000, intervalMs: 20 });
    assert.ok(closed.finishedAt === undefined || closed.clientClosedAt! <= closed.finishedAt);
    await waitFor('the cancellation to be counted', () => (feature()?.tally.cancelled ?? 0) > cancelledBefore, { timeoutMs: 5000, intervalMs: 20 });
    await triggered;
    await feature()?.suggester.settled();
    assert.equal(api.services.usage.entries().find((e) => e.requestId === held.id)?.kind, 'suggestion', 'a request the service took is billed, shown or not');
  });

  it('sends nothing of a file matching an excluded glob (.env)', async () => {
    const skippedBefore = feature()?.tally.skipped ?? 0;
    await openAt('.env', 'API_TOKEN=', 0, 10);
    await trigger('skipped', skippedBefore);
    assert.equal(chatRequests().length, 0);
  });

  it('sends nothing once a spending limit is reached, and says so in the status item until it resets', async () => {
    await configuration().update('inference.spendingLimits', { production: { daily: 0 } }, vscode.ConfigurationTarget.Global);
    try {
      await openAt('limited.ts', 'const total = \n', 0, 14);
      await vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
      await waitFor('suggestions to pause', () => shell().state().kind === 'limit', { timeoutMs: 15_000, intervalMs: 20 });
      assert.equal(chatRequests().length, 0);
      assert.match(shell().snapshot().text, /Suggestions paused/);
      assert.match(shell().snapshot().tooltip, /daily spending limit/i);
    } finally {
      await configuration().update('inference.spendingLimits', undefined, vscode.ConfigurationTarget.Global);
      // Resume Now, as the status item's menu does.
      shell().resume();
    }
  });

  it('snoozed, then turned off: nothing is asked of the provider\'s suggester and nothing sent, then on again after Resume', async () => {
    const { api } = fixture();
    await vscode.commands.executeCommand('inference.snoozeSuggestions', 15);
    assert.equal(shell().state().kind, 'snoozed');
    assert.match(shell().snapshot().text, /1[45] min/);
    await openAt('snoozed.ts', 'const total = \n', 0, 14);
    await vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
    await vscode.commands.executeCommand('inference.toggleSuggestions');
    await waitFor('suggestions to be off', () => shell().state().kind === 'off', { timeoutMs: 5000, intervalMs: 20 });
    assert.equal(configuration().inspect('inference.suggestions.enabled')?.globalValue, false, 'a user setting: every window follows');
    assert.equal(chatRequests().length, 0);
    await vscode.commands.executeCommand('inference.toggleSuggestions');
    await waitFor('suggestions to be on again', () => configuration().get('inference.suggestions.enabled') === true, { timeoutMs: 5000, intervalMs: 20 });
    assert.equal(shell().state().kind, 'snoozed', 'turning them on again keeps the snooze');
    await api.services.context.globalState.update('inference.suggestions.snoozedUntil', undefined);
    shell().resume();
    assert.equal(shell().state().kind, 'on');
  });

  it('sends nothing once the suggestions\' own daily budget is spent, whatever the environment\'s limits', async () => {
    await configuration().update('inference.suggestions.dailyBudgetCredits', 0, vscode.ConfigurationTarget.Global);
    try {
      await openAt('budget.ts', 'const total = \n', 0, 14);
      await vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
      await waitFor('suggestions to pause', () => shell().state().kind === 'limit', { timeoutMs: 15_000, intervalMs: 20 });
      assert.equal(chatRequests().length, 0);
      assert.match(shell().snapshot().tooltip, /daily suggestions budget is reached/);
    } finally {
      await configuration().update('inference.suggestions.dailyBudgetCredits', undefined, vscode.ConfigurationTarget.Global);
      shell().resume();
    }
  });
});
