import assert from 'node:assert/strict';
import { isPathInside, parseImageFolderSetting, workspaceRefusal } from '../../../src/core/images/containment';

function segments(value: string): string[] {
  const parsed = parseImageFolderSetting(value);
  assert.ok(parsed.ok, `expected ${JSON.stringify(value)} to be accepted: ${parsed.ok ? '' : parsed.problem}`);
  return parsed.segments;
}

function problem(value: string): string {
  const parsed = parseImageFolderSetting(value);
  assert.ok(!parsed.ok, `expected ${JSON.stringify(value)} to be refused, got ${JSON.stringify(parsed)}`);
  return parsed.problem;
}

describe('parseImageFolderSetting', () => {
  it('accepts relative folders with either separator', () => {
    assert.deepEqual(segments('images'), ['images']);
    assert.deepEqual(segments('assets/generated'), ['assets', 'generated']);
    assert.deepEqual(segments('assets\\generated\\'), ['assets', 'generated']);
    assert.deepEqual(segments('./out/./img'), ['out', 'img']);
  });

  it('treats empty and "." as the workspace folder itself', () => {
    assert.deepEqual(segments(''), []);
    assert.deepEqual(segments('  . '), []);
  });

  it('allows ".." that stays inside, and refuses ".." that climbs out', () => {
    assert.deepEqual(segments('a/b/../c'), ['a', 'c']);
    assert.match(problem('..'), /climbs out/);
    assert.match(problem('../outside'), /climbs out/);
    assert.match(problem('images/../../outside'), /climbs out/);
    assert.match(problem('a\\..\\..\\x'), /climbs out/);
  });

  it('refuses absolute paths, drives, UNC paths, home folders and URIs with a message naming the setting', () => {
    for (const value of ['/tmp/images', '\\\\server\\share', '\\images', 'C:\\images', 'c:images', '~/images', 'file:///tmp/x']) {
      const text = problem(value);
      assert.match(text, /inference\.images\.folder/);
      assert.match(text, /inside the workspace/);
    }
  });

  it('refuses names Windows cannot hold', () => {
    assert.match(problem('im:ages'), /not allowed/);
    assert.match(problem('images/bad\u0001name'), /not allowed/);
    assert.match(problem('images./x'), /dot or space/);
  });
});

describe('isPathInside', () => {
  it('is true for the root and anything below it', () => {
    assert.equal(isPathInside('/home/u/ws', '/home/u/ws'), true);
    assert.equal(isPathInside('/home/u/ws', '/home/u/ws/images/a.png'), true);
    assert.equal(isPathInside('/home/u/ws/', '/home/u/ws/images'), true);
  });

  it('is false for siblings sharing a prefix, parents and parent references', () => {
    assert.equal(isPathInside('/home/u/ws', '/home/u/ws-evil/a.png'), false);
    assert.equal(isPathInside('/home/u/ws', '/home/u'), false);
    assert.equal(isPathInside('/home/u/ws', '/home/u/ws/../secret'), false);
    assert.equal(isPathInside('/home/u/ws', '/etc/passwd'), false);
  });

  it('folds case only when asked (Windows and macOS volumes)', () => {
    assert.equal(isPathInside('C:\\Work\\WS', 'c:\\work\\ws\\images\\a.png', true), true);
    assert.equal(isPathInside('/Home/U/WS', '/home/u/ws/a.png'), false);
  });
});

describe('workspaceRefusal', () => {
  it('refuses untrusted and read-only workspaces, saying nothing was saved', () => {
    assert.match(workspaceRefusal({ trusted: false, writable: true }) ?? '', /not trusted.*Nothing was generated or saved/s);
    assert.match(workspaceRefusal({ trusted: true, writable: false }) ?? '', /read-only.*Nothing was generated or saved/s);
    assert.equal(workspaceRefusal({ trusted: true, writable: true }), undefined);
    assert.equal(workspaceRefusal({ trusted: true, writable: undefined }), undefined, 'an unknown scheme is not assumed read-only');
  });
});
