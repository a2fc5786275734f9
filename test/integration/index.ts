import * as fs from 'node:fs';
import * as path from 'node:path';
import { GREP_ENV, WINDOW_ENV, WINDOW_TAGS, type IntegrationWindow } from './tags';

/** Files whose tests end the extension (they call deactivate()): they run after every other file. */
const AT_EXIT = '.atExit.test.js';

/** Every compiled `*.test.js` below this folder, so that new suites need no registration; `AT_EXIT` files last. */
function findTestFiles(dir: string): string[] {
  const files = fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.test.js'))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
  return [...files.filter((file) => !file.endsWith(AT_EXIT)), ...files.filter((file) => file.endsWith(AT_EXIT))];
}

/**
 * The extension-tests entry point (`extensionTestsPath`): runs inside the real extension host, with
 * the real `vscode` API. Resolving reports success to the launcher; rejecting reports failure.
 */
export async function run(): Promise<void> {
  // Mocha 12 is ESM-only; a dynamic import loads it from this CommonJS module.
  const { default: Mocha } = await import('mocha');
  const mocha = new Mocha({ ui: 'bdd', reporter: 'spec', color: false, timeout: 30_000 });
  // One pattern: the window's share of the tests (by the tag), narrowed by an optional grep.
  const escape = (tag: string) => tag.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const window = (process.env[WINDOW_ENV] ?? 'workspace') as IntegrationWindow;
  const windowRule = window === 'workspace'
    ? Object.values(WINDOW_TAGS).map((tag) => `(?!.*${escape(tag)})`).join('')
    : `(?=.*${escape(WINDOW_TAGS[window])})`;
  const grep = process.env[GREP_ENV];
  mocha.grep(new RegExp(`^${windowRule}${grep ? `(?=.*(?:${grep}))` : ''}`));
  for (const file of findTestFiles(__dirname)) mocha.addFile(file);
  const failures = await new Promise<number>((resolve) => mocha.run(resolve));
  if (failures > 0) throw new Error(`${failures} integration test(s) failed`);
}
