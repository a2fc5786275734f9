import * as os from 'node:os';
import * as path from 'node:path';

/** The code-server release the harness provisions; it is VS Code 1.139, above engines.vscode. */
export const CODE_SERVER_VERSION = '4.139.1';

/** Compiled files live in out/test/harness/, three levels below the repository root. */
export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

export const OUT_DIR = path.join(REPO_ROOT, 'out');

/** Screenshots and logs of test runs; ignored by git (test-results/). */
export const RESULTS_DIR = path.join(REPO_ROOT, 'test-results');

/**
 * The cache lives outside the checkout so that every clone on one machine shares one provisioned
 * code-server. INFERENCE_VSCODE_TEST_CACHE overrides the folder that holds it.
 */
export function cacheRoot(): string {
  const override = process.env.INFERENCE_VSCODE_TEST_CACHE;
  if (override) return path.resolve(override);
  const xdg = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(xdg, 'inference-client');
}

/** An npm prefix folder: package.json, node_modules/code-server, install.log (ends with "exit <code>"). */
export function codeServerInstallDir(): string {
  return path.join(cacheRoot(), `code-server-${CODE_SERVER_VERSION}`);
}

export function codeServerEntry(installDir = codeServerInstallDir()): string {
  return path.join(installDir, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
}

/** The project's pinned Node 24 (the `node` npm package); code-server refuses other majors. */
export function projectNodeBinDir(): string {
  return path.join(REPO_ROOT, 'node_modules', '.bin');
}

export function projectNode(): string {
  return path.join(REPO_ROOT, 'node_modules', 'node', 'bin', 'node');
}

/** PATH with the project's Node 24 first, as npm scripts have it. */
export function pathWithProjectNode(): string {
  return [projectNodeBinDir(), process.env.PATH ?? ''].join(path.delimiter);
}
