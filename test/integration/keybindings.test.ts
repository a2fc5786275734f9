import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activateExtension, manifest } from './manifest';

interface Keybinding { key: string; command: string; when?: string; mac?: string }

/** `ctrl+alt+a` and `alt+ctrl+a` are one key: compare the modifiers as a set, chords part by part. */
function normaliseKey(key: string): string {
  return key.toLowerCase().trim().split(/\s+/).map((part) => {
    const pieces = part.split('+');
    const last = pieces.pop() ?? '';
    return [...pieces.sort(), last].join('+');
  }).join(' ');
}

/** The chords a key starts: a two-part key collides with a default that is its first part, and vice versa. */
function collides(ours: string, theirs: string): boolean {
  const a = normaliseKey(ours).split(' ');
  const b = normaliseKey(theirs).split(' ');
  const shorter = Math.min(a.length, b.length);
  return a.slice(0, shorter).join(' ') === b.slice(0, shorter).join(' ');
}

/** VS Code's own defaults as the workbench lists them (Preferences: Open Default Keyboard Shortcuts (JSON)). */
async function defaultKeybindings(): Promise<Keybinding[]> {
  const document = await vscode.workspace.openTextDocument(vscode.Uri.parse('vscode://defaultsettings/keybindings.json'));
  // The document is JSON with comments: keep only the objects.
  const text = document.getText().replace(/^\s*\/\/.*$/gm, '');
  return (JSON.parse(text) as Keybinding[]).filter((binding) => !binding.command.replace(/^-/, '').startsWith('inference.'));
}

describe('keybindings', () => {
  before(activateExtension);

  it('contributes keys that no default VS Code keybinding uses', async () => {
    const defaults = await defaultKeybindings();
    assert.ok(defaults.length > 300, `the default list was read (${defaults.length} entries)`);
    assert.ok(defaults.some((binding) => collides('ctrl+alt+i', binding.key)), 'the check finds a known default (Ctrl+Alt+I opens VS Code\'s chat)');
    const ours = (manifest.contributes as { keybindings?: Keybinding[] }).keybindings ?? [];
    assert.ok(ours.length > 0);
    const clashes = ours.flatMap((binding) => defaults.filter((d) => collides(binding.key, d.key)).map((d) => `${binding.key} (${binding.command}) vs ${d.key} (${d.command})`));
    assert.deepEqual(clashes, []);
  });
});
