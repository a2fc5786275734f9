import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from '../../harness/paths';

/**
 * README.md is the Marketplace page and ships in the VSIX. The manifest names no repository URL, so
 * `vsce package` cannot tell where a relative link would point: `npm run package` keeps relative
 * links as they are (`--no-rewrite-relative-links`), which is right only for the screenshots shipped
 * in the VSIX beside the README (VS Code's extension page and a repository view both resolve them
 * there; a publisher passes `--baseImagesUrl`). Every other link goes to an anchor or a full URL.
 */
describe('README.md as the Marketplace page', () => {
  const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
  const links = [...readme.matchAll(/(!?)\[[^\]]*\]\(([^)\s]+)[^)]*\)/g)].map((match) => ({ image: match[1] === '!', target: match[2] }));
  const isRelative = (target: string) => !target.startsWith('#') && !/^(https?|mailto):/.test(target);

  it('links only to its own anchors or to full URLs, so vsce can package it', () => {
    assert.ok(links.length > 0, 'the README has links');
    assert.deepEqual(links.filter((link) => !link.image && isRelative(link.target)).map((link) => link.target), []);
  });

  it('shows only screenshots that exist under media/screenshots/, which the VSIX ships', () => {
    for (const { target } of links.filter((link) => link.image && isRelative(link.target))) {
      assert.match(target, /^media\/screenshots\/[\w.-]+\.png$/, target);
      assert.ok(fs.existsSync(path.join(REPO_ROOT, target)), `${target} exists`);
    }
  });
});
