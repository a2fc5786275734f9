import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TestApi } from '../../src/extension';
import { readStatusSnapshots } from '../../src/host/shared/statusSnapshot';
import { waitFor } from '../harness/wait';
import { activateExtension, EXTENSION_ID } from './manifest';
import { NO_WORKSPACE } from './tags';

describe('activation', () => {
  it('activates in a window with a workspace folder', async () => {
    assert.equal(vscode.workspace.workspaceFolders?.length, 1, 'this window should have one folder open');
    const extension = await activateExtension();
    assert.ok(extension.isActive, `${EXTENSION_ID} should be active`);
  });

  it(`activates in a window without a workspace ${NO_WORKSPACE}`, async () => {
    assert.equal(vscode.workspace.workspaceFolders, undefined, 'this window should have no folder open');
    const extension = await activateExtension();
    assert.ok(extension.isActive, `${EXTENSION_ID} should be active`);
  });

  it('loads none of the chat, the local endpoint, the usage view or image generation until first used', async () => {
    const api = (await activateExtension()).exports as TestApi;
    assert.deepEqual(api.featuresLoadedByActivation, [], 'features activate() loaded');
    // Other files may have used features since; a command's first run loads its feature, once.
    const before = api.featuresLoaded();
    await vscode.commands.executeCommand('inference.showUsage');
    await vscode.commands.executeCommand('inference.showUsage');
    const after = api.featuresLoaded();
    assert.equal(after.filter((name) => name === 'usage').length, 1, `usage loaded once: ${after.join(', ')}`);
    assert.deepEqual(after.slice(0, before.length), before);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('keeps what the status bar shows for the next window, whose shell draws it before the extension loads', async () => {
    const api = (await activateExtension()).exports as TestApi;
    api.statusBar.update();
    const shown = api.statusBar.snapshot();
    // Saved a moment after the change (changes come in pairs), in this extension's global state.
    const saved = await waitFor('the status items\' snapshot', () => {
      const items = readStatusSnapshots(api.services.context.globalState);
      return items.find((item) => item.id === 'inference.balance')?.text === shown.balance ? items : false;
    }, { timeoutMs: 10_000, intervalMs: 100 });
    assert.deepEqual(saved.find((item) => item.id === 'inference.model')?.text, shown.model);
    const balance = saved.find((item) => item.id === 'inference.balance')!;
    assert.equal(balance.command, 'inference.showAccountMenu');
    assert.equal(balance.tooltip, undefined, 'a Markdown tooltip is not kept (the next window shows the item\'s name until the extension loads)');
    assert.equal(balance.warning, shown.warning);
    assert.ok(saved.some((item) => item.id === 'inference.suggestions'), 'the suggestions item too');
  });
});
