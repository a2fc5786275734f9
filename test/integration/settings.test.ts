import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { SETTING_DEFAULTS } from '../../src/host/shared/config';
import { manifest } from './manifest';

describe('settings defaults', () => {
  const declared = manifest.contributes.configuration?.properties ?? {};
  const inCode = SETTING_DEFAULTS as Readonly<Record<string, unknown>>;

  it('declares in package.json exactly the settings the code has defaults for', () => {
    assert.deepEqual(Object.keys(declared).sort(), Object.keys(inCode).sort());
  });

  it('has the same default in package.json as in code', () => {
    for (const [id, schema] of Object.entries(declared)) {
      assert.deepEqual(schema.default, inCode[id], `default of ${id}`);
    }
  });

  it('has the code defaults in the running VS Code configuration', () => {
    const configuration = vscode.workspace.getConfiguration();
    for (const [id, value] of Object.entries(inCode)) {
      const inspected = configuration.inspect(id);
      assert.ok(inspected, `VS Code does not know the setting ${id}`);
      assert.deepEqual(inspected.defaultValue, value, `VS Code's default of ${id}`);
    }
  });
});
