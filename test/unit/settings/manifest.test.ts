import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { NUMBER_RULES } from '../../../src/core/settings/settingsCheck';

interface SettingSchema {
  scope?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
}

const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', '..', '..', 'package.json'), 'utf8')) as {
  capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } };
  contributes: { configuration: { properties: Record<string, SettingSchema> } };
};
const properties = manifest.contributes.configuration.properties;

describe('package.json settings and their trust boundaries', () => {
  it('makes the settings that decide where a key goes user-level, with no phantom environments', () => {
    for (const id of ['inference.environments', 'inference.activeEnvironment']) {
      assert.equal(properties[id].scope, 'application', `${id} must be ignored in workspace and folder settings`);
    }
    assert.deepEqual(properties['inference.environments'].default, {});
    assert.equal(properties['inference.activeEnvironment'].default, '');
  });

  it('ignores in untrusted workspaces every setting a workspace could use against the user', () => {
    const restricted = new Set(manifest.capabilities.untrustedWorkspaces.restrictedConfigurations);
    // Only changes when the status bar turns to a warning.
    const harmless = new Set(['inference.balanceWarningThreshold']);
    // Application- and machine-scoped settings are read from user settings only: no workspace can set them.
    const userOnly = (id: string) => properties[id].scope === 'application' || properties[id].scope === 'machine';
    const open = Object.keys(properties).filter((id) => !restricted.has(id) && !harmless.has(id) && !userOnly(id));
    assert.deepEqual(open, [], 'each setting is restricted, or listed here as harmless with a reason');
    assert.ok(restricted.has('inference.chat.systemPrompt'));
  });

  it('declares the same bounds the settings check enforces', () => {
    for (const [id, rule] of Object.entries(NUMBER_RULES)) {
      assert.equal(properties[id].minimum, rule.min, `minimum of ${id}`);
      assert.equal(properties[id].maximum, rule.max, `maximum of ${id}`);
    }
  });
});
