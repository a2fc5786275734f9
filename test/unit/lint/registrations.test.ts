import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from '../../harness/paths';

/**
 * Every feature's `register*` function returns one shape, `Registered` (host/shared/disposable.ts): a
 * disposable with what the test API needs as its properties, so activate() treats them all alike.
 */
describe('lint: one shape for what register* functions return', () => {
  it('every exported register* function in src/host declares Registered as its return type', () => {
    const found: string[] = [];
    const offenders: string[] = [];
    for (const entry of fs.readdirSync(path.join(REPO_ROOT, 'src', 'host'), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
      const file = path.join(entry.parentPath, entry.name);
      for (const match of fs.readFileSync(file, 'utf8').matchAll(/^export function (register\w*)\([^)]*\):\s*(.+) \{$/gm)) {
        found.push(match[1]);
        if (!/^Registered\b/.test(match[2])) offenders.push(`${path.relative(REPO_ROOT, file)}: ${match[1]} returns ${match[2]}`);
      }
    }
    assert.ok(found.length >= 8, `found only ${found.join(', ')}`);
    assert.deepEqual(offenders, []);
  });
});
