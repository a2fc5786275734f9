import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activateExtension, manifest } from './manifest';

describe('commands', () => {
  before(activateExtension);

  it('registers every command that package.json contributes', async () => {
    const registered = new Set(await vscode.commands.getCommands(true));
    const contributed = (manifest.contributes.commands ?? []).map((entry) => entry.command);
    const missing = contributed.filter((command) => !registered.has(command));
    assert.deepEqual(missing, [], `contributed but not registered: ${missing.join(', ')}`);
  });

  it('contributes only commands in the inference.* namespace', () => {
    const foreign = (manifest.contributes.commands ?? [])
      .map((entry) => entry.command)
      .filter((command) => !command.startsWith('inference.'));
    assert.deepEqual(foreign, []);
  });
});
