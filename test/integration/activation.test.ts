import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
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
});
