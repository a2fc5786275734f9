import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from '../../harness/paths';

/**
 * README.md is the Marketplace page and ships in the VSIX. The manifest names no repository URL, so
 * `vsce package` (and with it `npm run demo`) refuses a README with a relative link or image: it
 * cannot tell where the file would be. Links go to an anchor of the page or to a full URL.
 */
describe('README.md as the Marketplace page', () => {
  it('links only to its own anchors or to full URLs, so vsce can package it', () => {
    const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
    const targets = [...readme.matchAll(/!?\[[^\]]*\]\(([^)\s]+)[^)]*\)/g)].map((match) => match[1]);
    assert.ok(targets.length > 0, 'the README has links');
    const relative = targets.filter((target) => !target.startsWith('#') && !/^(https?|mailto):/.test(target));
    assert.deepEqual(relative, []);
  });
});
