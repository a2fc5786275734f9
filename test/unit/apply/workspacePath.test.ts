import assert from 'node:assert/strict';
import * as path from 'node:path';
import { isInsideWorkspace, realTarget, resolveNamedPath, type PathProbe } from '../../../src/core/apply/workspacePath';

const posix = path.posix;
const roots = ['/home/u/ws', '/home/u/lib'];

function candidates(named: string): string[] {
  const resolution = resolveNamedPath(roots, named, posix);
  assert.ok(resolution.ok, `${named} refused: ${resolution.ok ? '' : resolution.reason}`);
  return resolution.candidates;
}

function refusal(named: string): string {
  const resolution = resolveNamedPath(roots, named, posix);
  assert.ok(!resolution.ok, `${named} accepted: ${JSON.stringify(resolution)}`);
  return resolution.reason;
}

/** A file system of real paths: `links` maps a path to what it resolves to, `entries` lists what exists. */
function probe(entries: string[], links: Record<string, string> = {}): PathProbe {
  return {
    realpath: async (p) => {
      for (const [link, target] of Object.entries(links)) {
        if (p === link || p.startsWith(`${link}/`)) {
          const real = target + p.slice(link.length);
          if (!entries.includes(real)) throw new Error('ENOENT');
          return real;
        }
      }
      if (!entries.includes(p)) throw new Error('ENOENT');
      return p;
    },
    exists: async (p) => entries.includes(p) || p in links,
  };
}

describe('apply: paths inside the workspace only', () => {
  it('resolves a relative path against every folder', () => {
    assert.deepEqual(candidates('src/x.ts'), ['/home/u/ws/src/x.ts', '/home/u/lib/src/x.ts']);
    assert.deepEqual(candidates('./src/x.ts'), ['/home/u/ws/src/x.ts', '/home/u/lib/src/x.ts']);
    assert.deepEqual(candidates('/home/u/lib/a.ts'), ['/home/u/lib/a.ts']);
    assert.deepEqual(candidates('../lib/a.ts'), ['/home/u/lib/a.ts'], 'climbing from one folder into another stays inside');
  });

  it('refuses what points out of the workspace, naming the path', () => {
    for (const named of ['/etc/passwd', '../../.ssh/id_rsa', '~/.bashrc', 'file:///etc/passwd', 'C:\\Windows\\x.ini', '/home/u/ws-evil/x.ts']) {
      assert.match(refusal(named), /outside the workspace/, named);
    }
    assert.match(refusal('/etc/passwd'), /"\/etc\/passwd"/);
  });

  it('compares folders segment by segment, and without case on Windows', () => {
    assert.ok(!isInsideWorkspace(['/home/u/ws'], '/home/u/ws-evil/x', posix));
    assert.ok(isInsideWorkspace(['C:\\Work'], 'c:\\work\\x.ts', path.win32));
  });

  it('resolves links in the existing part of a path and keeps the missing rest', async () => {
    const fs = probe(['/home/u/ws', '/home/u/ws/src', '/etc'], { '/home/u/ws/out': '/etc' });
    assert.equal(await realTarget('/home/u/ws/src/new/x.ts', fs, posix), '/home/u/ws/src/new/x.ts');
    const escaped = await realTarget('/home/u/ws/out/passwd', fs, posix);
    assert.equal(escaped, '/etc/passwd');
    assert.ok(!isInsideWorkspace(['/home/u/ws'], escaped ?? '', posix), 'a link out of the workspace is outside');
  });

  it('gives no real path for a dangling link, which a write would follow', async () => {
    const fs = probe(['/home/u/ws'], { '/home/u/ws/x.ts': '/tmp/missing.ts' });
    assert.equal(await realTarget('/home/u/ws/x.ts', fs, posix), undefined);
  });
});
