import { spawn, spawnSync, type SpawnSyncOptions } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CODE_SERVER_VERSION, cacheRoot, codeServerEntry, codeServerInstallDir, pathWithProjectNode, projectNode } from './paths';
import { HolderFailedError, LockTimeoutError, withLock } from './provisionLock';
import { seconds } from './wait';

/**
 * Provisioning for the tiers that run real VS Code: Debian's Chromium, the native build packages
 * code-server compiles against, and code-server itself in a cache shared by every checkout. One
 * step, under one cross-process lock, so that two tiers, or a demo and a test run started
 * together, never run apt-get or npm install at once. `npm test` and `npm run demo` call it first;
 * every other path (one UI file, the bench, the soak) calls it lazily and finds it done.
 */

/** A provisioning failure whose message is one line that says what to install. */
export class ProvisionError extends Error {}

export interface ProvisionNeeds {
  chromium?: boolean;
  codeServer?: boolean;
}

const INSTALL_TIMEOUT_MS = 20 * 60_000;
/** Waiting for another process's provisioning: its installs plus a margin. */
const LOCK_TIMEOUT_MS = INSTALL_TIMEOUT_MS + 5 * 60_000;

/**
 * The full browser, whose frames the render benchmarks measure, and its headless shell, which drives
 * the tests' workbench windows (findHeadlessChromium).
 */
const CHROMIUM_PACKAGES = ['chromium', 'chromium-headless-shell'];
/** What code-server's native modules (kerberos, spdlog, node-pty, …) compile against. */
const BUILD_PACKAGES = ['build-essential', 'python3', 'pkg-config', 'libkrb5-dev', 'libsecret-1-dev', 'libx11-dev', 'libxkbfile-dev'];

/**
 * Install scripts code-server needs, declared in the cache's package.json as npm's allowScripts:
 * its own postinstall (which installs VS Code's modules, whose package.json declares their own) and
 * argon2's native build. The install runs with strict-allow-scripts, so a script not listed here
 * fails the install by name instead of leaving a code-server that cannot start.
 */
const CODE_SERVER_ALLOW_SCRIPTS = { 'code-server': true, argon2: true };

const CHROMIUM_CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];
const HEADLESS_SHELL_CANDIDATES = ['/usr/bin/chromium-headless-shell'];

const log = (message: string): void => console.log(`[provision] ${message}`);

function commandExists(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v "${command}"`], { stdio: 'ignore', env: { ...process.env, PATH: pathWithProjectNode() } }).status === 0;
}

/** Chromium from INFERENCE_CHROMIUM_PATH / CHROMIUM_PATH, else Debian's; never installs. */
export function findChromium(): string {
  const fromEnv = process.env.INFERENCE_CHROMIUM_PATH || process.env.CHROMIUM_PATH;
  if (fromEnv) {
    if (fs.existsSync(fromEnv)) return fromEnv;
    throw new ProvisionError(`Chromium not found at INFERENCE_CHROMIUM_PATH=${fromEnv}; point it at a Chromium binary.`);
  }
  const found = CHROMIUM_CANDIDATES.find((candidate) => fs.existsSync(candidate));
  if (found) return found;
  throw new ProvisionError('Chromium not found: install it with `apt-get install -y chromium`, or set INFERENCE_CHROMIUM_PATH to a Chromium binary.');
}

/**
 * The browser for workbench windows no one watches: Chromium's headless shell when it is installed,
 * else findChromium(). The shell has no browser UI to run beside the page: a UI tier alone costs
 * about a tenth less CPU in it than in the full browser's headless mode, and `npm test`'s browser
 * tiers side by side about a sixth less (test/README.md); the page is the same Blink and V8.
 */
export function findHeadlessChromium(): string {
  if (process.env.INFERENCE_CHROMIUM_PATH || process.env.CHROMIUM_PATH) return findChromium();
  return HEADLESS_SHELL_CANDIDATES.find((candidate) => fs.existsSync(candidate)) ?? findChromium();
}

function chromiumFound(): boolean {
  try {
    findChromium();
    return true;
  } catch {
    return false;
  }
}

/** Debian packages not installed, by dpkg's own record; undefined on a machine without dpkg. */
function notInstalledByDpkg(packages: string[]): string[] | undefined {
  if (!commandExists('dpkg-query')) return undefined;
  return packages.filter((pkg) => {
    const status = spawnSync('dpkg-query', ['-W', '-f=${db:Status-Status}', pkg], { encoding: 'utf8' });
    return status.status !== 0 || status.stdout.trim() !== 'installed';
  });
}

/** Without dpkg, the build tools are looked for by what they provide. */
function missingBuildTools(): string[] {
  const modules: Record<string, string> = { 'krb5-gssapi': 'libkrb5-dev', 'libsecret-1': 'libsecret-1-dev', x11: 'libx11-dev', xkbfile: 'libxkbfile-dev' };
  const missing = ['make', 'g++', 'python3', 'pkg-config'].filter((command) => !commandExists(command));
  if (missing.includes('pkg-config')) return [...missing, ...Object.values(modules)];
  return [...missing, ...Object.entries(modules).filter(([module]) => spawnSync('pkg-config', ['--exists', module]).status !== 0).map(([, pkg]) => pkg)];
}

function missingPackages(needs: ProvisionNeeds): string[] {
  const wanted = [
    ...(needs.chromium && !process.env.INFERENCE_CHROMIUM_PATH && !process.env.CHROMIUM_PATH ? CHROMIUM_PACKAGES : []),
    ...(needs.codeServer && !codeServerInstalled() ? BUILD_PACKAGES : []),
  ];
  if (wanted.length === 0) return [];
  const byDpkg = notInstalledByDpkg(wanted);
  if (byDpkg) return byDpkg;
  return [...(wanted.includes('chromium') && !chromiumFound() ? ['chromium'] : []), ...(wanted.includes('build-essential') ? missingBuildTools() : [])];
}

/**
 * The quick start promises a fresh Debian machine needs nothing but Node and npm: run as root (as
 * CI does), the missing Debian packages are installed with apt-get, in one call. Anyone else gets
 * one line saying what to install. INFERENCE_NO_APT=1 turns the automatic install off.
 */
function installDebianPackages(packages: string[]): void {
  const instruction = `install them with: apt-get install -y ${packages.join(' ')}`;
  if (process.env.INFERENCE_NO_APT === '1') throw new ProvisionError(`Missing Debian packages (INFERENCE_NO_APT=1): ${instruction}`);
  if (!commandExists('apt-get')) throw new ProvisionError(`Missing packages: ${packages.join(' ')} (no apt-get here; install their equivalents).`);
  if (process.getuid?.() !== 0) throw new ProvisionError(`Missing Debian packages; as root, ${instruction}`);
  log(`installing Debian packages with apt-get (running as root): ${packages.join(' ')}`);
  const started = Date.now();
  const options: SpawnSyncOptions = {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    timeout: 15 * 60_000,
  };
  // Another program's apt-get (unattended upgrades) may hold dpkg's own lock: wait for it, bounded.
  const waitForDpkg = ['-o', 'DPkg::Lock::Timeout=300'];
  const update = spawnSync('apt-get', [...waitForDpkg, 'update', '-q'], options);
  const install = update.status === 0 ? spawnSync('apt-get', [...waitForDpkg, 'install', '-y', '-q', '--no-install-recommends', ...packages], options) : update;
  const stillMissing = notInstalledByDpkg(packages) ?? [];
  if (install.status !== 0 || stillMissing.length > 0) {
    throw new ProvisionError(`apt-get could not install ${(stillMissing.length ? stillMissing : packages).join(' ')} (exit ${install.status ?? install.signal}); ${instruction}`);
  }
  log(`Debian packages installed in ${seconds(started)}`);
}

function lastLine(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').pop();
  } catch {
    return undefined;
  }
}

/** Installed and complete: the install log ends with a successful exit and the entry exists. */
function codeServerInstalled(dir = codeServerInstallDir()): boolean {
  return fs.existsSync(codeServerEntry(dir)) && lastLine(path.join(dir, 'install.log')) === 'exit 0';
}

/**
 * The environment for `npm install`, without the npm_* variables of an enclosing `npm test`: npm reads
 * them as its own config, and code-server's postinstall checks the Node major in
 * npm_config_user_agent, which would name the Node that runs the outer npm, not Node 24.
 */
function installEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.startsWith('npm_')) env[name] = value;
  }
  return { ...env, PATH: pathWithProjectNode(), npm_config_strict_allow_scripts: 'true' };
}

async function installCodeServer(dir: string): Promise<void> {
  fs.mkdirSync(dir, { recursive: true });
  const manifest = { name: 'inference-client-code-server-cache', private: true, allowScripts: CODE_SERVER_ALLOW_SCRIPTS };
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
  const logFile = path.join(dir, 'install.log');
  const output = fs.openSync(logFile, 'w');
  const started = Date.now();
  log(`installing code-server ${CODE_SERVER_VERSION} into ${dir} (first run only, 2–5 min; log: ${logFile})`);
  // npm runs with the project's Node 24 first on PATH: code-server's postinstall refuses other majors.
  const child = spawn('npm', ['install', `code-server@${CODE_SERVER_VERSION}`, '--no-audit', '--no-fund'], {
    cwd: dir,
    env: installEnvironment(),
    stdio: ['ignore', output, output],
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), INSTALL_TIMEOUT_MS);
  const code = await new Promise<number>((resolve) => {
    child.on('error', () => resolve(127));
    child.on('exit', (exitCode) => resolve(exitCode ?? 1));
  });
  clearTimeout(timer);
  fs.writeSync(output, `\nexit ${code}\n`);
  fs.closeSync(output);
  if (code !== 0 || !fs.existsSync(codeServerEntry(dir))) {
    throw new ProvisionError(
      `code-server install failed (exit ${code}, log: ${logFile}); it needs the npm registry and: apt-get install -y ${BUILD_PACKAGES.join(' ')}`,
    );
  }
  log(`code-server installed in ${seconds(started)}`);
}

function whatIsProvisioned(needs: ProvisionNeeds): string {
  return `provisioning ${[needs.chromium && 'Chromium', needs.codeServer && 'code-server'].filter(Boolean).join(' and ')}`;
}

async function provisionNow(needs: ProvisionNeeds): Promise<void> {
  if (needs.codeServer && !fs.existsSync(projectNode())) {
    throw new ProvisionError('The pinned Node 24 is missing from node_modules: run `npm ci` first.');
  }
  const nothingMissing = (): boolean => missingPackages(needs).length === 0 && (!needs.codeServer || codeServerInstalled());
  if (nothingMissing()) return;
  try {
    await withLock(path.join(cacheRoot(), 'provision.lock'), { what: whatIsProvisioned(needs), timeoutMs: LOCK_TIMEOUT_MS, onWait: log }, async () => {
      // What the holder before us installed is not installed again.
      const packages = missingPackages(needs);
      if (packages.length > 0) installDebianPackages(packages);
      if (needs.codeServer && !codeServerInstalled()) await installCodeServer(codeServerInstallDir());
    });
  } catch (error) {
    if (error instanceof HolderFailedError || error instanceof LockTimeoutError) throw new ProvisionError(error.message);
    throw error;
  }
}

const attempts = new Map<string, Promise<void>>();

/**
 * Installs what `needs` names and is missing. One attempt per process and set of needs: test files
 * that each start code-server or Chromium must not each retry a failed install.
 */
export function provision(needs: ProvisionNeeds): Promise<void> {
  const key = `${needs.chromium ? 'chromium' : ''}+${needs.codeServer ? 'code-server' : ''}`;
  let attempt = attempts.get(key);
  if (!attempt) {
    attempt = provisionNow(needs);
    attempts.set(key, attempt);
  }
  return attempt;
}

/** Returns the path of code-server's entry.js, installing code-server into the cache on first use. */
export async function ensureCodeServer(): Promise<string> {
  await provision({ codeServer: true });
  return codeServerEntry();
}

/** How the command line's failure line begins; `npm test` prints the rest once. */
export const PROVISION_FAILED = '[provision] FAILED: ';

/** Everything the real-VS-Code tiers need. */
export const EVERYTHING: ProvisionNeeds = { chromium: true, codeServer: true };

/**
 * `node out/test/harness/provision.js [chromium] [code-server]` provisions ahead of time (everything
 * when nothing is named); `npm test` runs it first.
 */
if (require.main === module) {
  const named = process.argv.slice(2);
  provision(named.length === 0 ? EVERYTHING : { chromium: named.includes('chromium'), codeServer: named.includes('code-server') })
    .then(() => log(`ready: code-server ${codeServerEntry()}`))
    .catch((error: unknown) => {
      console.error(`${PROVISION_FAILED}${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    });
}
