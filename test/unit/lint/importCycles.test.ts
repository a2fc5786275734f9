import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import { REPO_ROOT } from '../../harness/paths';

const SRC = path.join(REPO_ROOT, 'src');

/** src's relative imports (`import type` and re-exports too), file → files, as paths relative to src. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const entry of fs.readdirSync(SRC, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.d.ts')) continue;
    const file = path.join(entry.parentPath, entry.name);
    const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, false);
    const targets = importedFiles.map((imported) => imported.fileName).filter((name) => name.startsWith('.')).map((name) => {
      const base = path.resolve(path.dirname(file), name);
      const found = [`${base}.ts`, path.join(base, 'index.ts')].find((candidate) => fs.existsSync(candidate));
      assert.ok(found, `${path.relative(SRC, file)} imports ${name}, which is no .ts file`);
      return path.relative(SRC, found).split(path.sep).join('/');
    });
    graph.set(path.relative(SRC, file).split(path.sep).join('/'), targets);
  }
  return graph;
}

/**
 * Cycles as `a → b → … → a`: each import that leads back to a file still on the depth-first search's
 * path. Not every cycle of a tangle is listed, but a graph has a cycle exactly when this finds one.
 */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const found: string[] = [];
  const done = new Set<string>();
  const stack: string[] = [];
  const visit = (file: string): void => {
    const onStack = stack.indexOf(file);
    if (onStack >= 0) {
      found.push([...stack.slice(onStack), file].join(' → '));
      return;
    }
    if (done.has(file)) return;
    stack.push(file);
    for (const target of graph.get(file) ?? []) visit(target);
    stack.pop();
    done.add(file);
  };
  for (const file of [...graph.keys()].sort()) visit(file);
  return found;
}

describe('lint: import graph', () => {
  it('has no cycle in src, type-only imports included', () => {
    const graph = importGraph();
    assert.ok(graph.size > 100, `${graph.size} files read`);
    assert.ok((graph.get('core/api/client.ts') ?? []).length > 3, 'imports are found');
    assert.deepEqual(cycles(graph), []);
  });

  it('finds a cycle when there is one', () => {
    const graph = new Map([['a.ts', ['b.ts']], ['b.ts', ['c.ts']], ['c.ts', ['a.ts', 'd.ts']], ['d.ts', []]]);
    assert.deepEqual(cycles(graph), ['a.ts → b.ts → c.ts → a.ts']);
  });
});
