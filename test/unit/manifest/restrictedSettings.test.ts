import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

interface Manifest {
  capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } };
  contributes: { configuration: { properties: Record<string, unknown> } };
}

/**
 * In an untrusted workspace VS Code ignores the workspace's value of a restricted setting. Every
 * setting that decides where a request goes, what it carries or where files are written is one.
 */
describe('package.json: settings an untrusted workspace cannot set', () => {
  const manifest = JSON.parse(readFileSync(path.resolve(__dirname, '..', '..', '..', '..', 'package.json'), 'utf8')) as Manifest;
  const restricted = manifest.capabilities.untrustedWorkspaces.restrictedConfigurations;

  it('restricts the environments, the image folder and the system prompt sent with every chat', () => {
    for (const id of ['inference.environments', 'inference.activeEnvironment', 'inference.images.folder', 'inference.chat.systemPrompt']) {
      assert.ok(restricted.includes(id), `${id} is restricted`);
    }
  });

  it('names only settings that exist', () => {
    for (const id of restricted) assert.ok(id in manifest.contributes.configuration.properties, `${id} is a contributed setting`);
  });
});
