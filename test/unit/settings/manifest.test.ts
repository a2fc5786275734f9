import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { NUMBER_PARAMS } from '../../../src/core/numberParams';
import { NUMBER_RULES } from '../../../src/core/settings/settingsCheck';

interface SettingSchema {
  scope?: string;
  type?: string | string[];
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

  it('declares each chat number parameter of the table as its setting: same range, whole or not, null by default, restricted', () => {
    const restricted = manifest.capabilities.untrustedWorkspaces.restrictedConfigurations;
    for (const param of NUMBER_PARAMS) {
      const schema = properties[param.setting];
      assert.ok(schema, `${param.setting} (for ${param.wire}) is declared`);
      assert.deepEqual(schema.type, [param.integer ? 'integer' : 'number', 'null'], `type of ${param.setting}`);
      assert.equal(schema.default, null, `default of ${param.setting}: null sends none`);
      assert.deepEqual([schema.minimum, schema.maximum], [param.min, param.max], `range of ${param.setting}`);
      assert.ok(restricted.includes(param.setting), `${param.setting} is ignored in untrusted workspaces`);
      assert.ok(param.step > 0 && param.step <= param.max - param.min && (!param.integer || Number.isInteger(param.step)), `step of ${param.wire}`);
    }
    // A chat setting that is a number or null is a parameter: declaring one without its row is caught here.
    const numericChatSettings = Object.entries(properties)
      .filter(([id, schema]) => id.startsWith('inference.chat.') && Array.isArray(schema.type) && schema.type.includes('null'))
      .map(([id]) => id);
    assert.deepEqual(numericChatSettings.sort(), NUMBER_PARAMS.map((param) => param.setting).sort());
    assert.equal(new Set(NUMBER_PARAMS.map((param) => param.wire)).size, NUMBER_PARAMS.length, 'wire names are unique');
  });
});
