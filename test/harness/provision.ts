import { spawn, spawnSync, type SpawnSyncOptions } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CODE_SERVER_VERSION, codeServerEntry, codeServerInstallDir, pathWithProjectNode, projectNode } from './paths';
import { delay, seconds } from './wait';

/** A provisioning failure whose message is one line that says what to install. */
export class ProvisionError extends Error {}

const INSTALL_TIMEOUT_MS = 20 * 60_000;
/** An install log untouched this long belongs to an installer that died. */
const STALE_INSTALL_MS = 10 * 60_000;

const NATIVE_BUILD_DEPS = 'build-essential python3 pkg-config libkrb5-dev libsecret-1-dev libx11-dev libxkbfile-dev';

/**
 * The quick start promises a fresh Debian machine needs nothing but Node and npm: run as root (as CI
 * does), the missing Debian packages are installed with apt-get. Anyone else gets one line saying
 * what to install. INFERENCE_NO_APT=1 turns the automatic install off.
 */
function installDebianPackages(packages: string[], why: string): boolean {
  const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
  if (process.getuid?.() !== 0 || !hasApt || process.env.INFERENCE_NO_APT === '1') return false;
  console.log(`[provision] ${why}: installing Debian packages ${packages.join(' ')} with apt-get (running as root)`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const options: SpawnSyncOptions = { stdio: ['ignore', 'inherit', 'inherit'], env, timeout: 15 * 60_000 };
  if (spawnSync('apt-get', ['update', '-q'], options).status !== 0) return false;
  return spawnSync('apt-get', ['install', '-y', '-q', '--no-install-recommends', ...packages], options).status === 0;
}

const CHROMIUM_CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

/** Chromium from CHROMIUM_PATH / INFERENCE_CHROMIUM_PATH, else Debian's (installed when running as root). */
export function findChromium(): string {
  const fromEnv = process.env.INFERENCE_CHROMIUM_PATH || process.env.CHROMIUM_PATH;
  if (fromEnv) {
    if (fs.existsSync(fromEnv)) return fromEnv;
    throw new ProvisionError(`Chromium not found at INFERENCE_CHROMIUM_PATH=${fromEnv}; point it at a Chromium binary.`);
  }
  const found = () => CHROMIUM_CANDIDATES.find((candidate) => fs.existsSync(candidate));
  const existing = found() ?? (installDebianPackages(['chromium'], 'Chromium drives the real-VS Code tests') ? found() : undefined);
  if (existing) return existing;
  throw new ProvisionError(
    'Chromium not found: install it with `apt-get install -y chromium`, or set INFERENCE_CHROMIUM_PATH to a Chromium binary.',
  );
}

function lastLine(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').pop();
  } catch {
    return undefined;
  }
}

type InstallState = 'complete' | 'failed' | 'in-progress' | 'absent';

function installState(dir: string): InstallState {
  const log = path.join(dir, 'install.log');
  const entryExists = fs.existsSync(codeServerEntry(dir));
  if (!fs.existsSync(log)) return entryExists ? 'complete' : 'absent';
  const last = lastLine(log);
  if (last === 'exit 0') return entryExists ? 'complete' : 'failed';
  if (last?.startsWith('exit ')) return 'failed';
  const age = Date.now() - fs.statSync(log).mtimeMs;
  return age < STALE_INSTALL_MS ? 'in-progress' : 'failed';
}

function missingBuildDeps(): string[] {
  const env = { ...process.env, PATH: pathWithProjectNode() };
  const missing: string[] = [];
  for (const command of ['make', 'g++', 'python3', 'pkg-config']) {
    if (spawnSync('sh', ['-c', `command -v ${command}`], { env }).status !== 0) missing.push(command);
  }
  const modules: Record<string, string> = {
    'krb5-gssapi': 'libkrb5-dev',
    'libsecret-1': 'libsecret-1-dev',
    x11: 'libx11-dev',
    xkbfile: 'libxkbfile-dev',
  };
  if (!missing.includes('pkg-config')) {
    for (const [module, pkg] of Object.entries(modules)) {
      if (spawnSync('pkg-config', ['--exists', module], { env }).status !== 0) missing.push(pkg);
    }
  }
  return missing;
}

async function waitForOtherInstaller(dir: string): Promise<void> {
  console.log(`[provision] another install of code-server is running in ${dir}; waiting for it…`);
  const deadline = Date.now() + INSTALL_TIMEOUT_MS;
  while (installState(dir) === 'in-progress') {
    if (Date.now() > deadline) throw new ProvisionError(`Timed out waiting for the code-server install in ${dir}.`);
    await delay(2000);
  }
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
  return { ...env, PATH: pathWithProjectNode() };
}

async function install(dir: string): Promise<void> {
  let missing = missingBuildDeps();
  if (missing.length > 0 && installDebianPackages(NATIVE_BUILD_DEPS.split(' '), 'code-server builds native modules')) {
    missing = missingBuildDeps();
  }
  if (missing.length > 0) {
    throw new ProvisionError(
      `code-server needs native build tools (missing: ${missing.join(', ')}): apt-get install -y ${NATIVE_BUILD_DEPS}`,
    );
  }
  fs.mkdirSync(dir, { recursive: true });
  const manifest = path.join(dir, 'package.json');
  if (!fs.existsSync(manifest)) fs.writeFileSync(manifest, JSON.stringify({ name: 'cs-cache', private: true }) + '\n');
  const logFile = path.join(dir, 'install.log');
  const log = fs.openSync(logFile, 'w');
  const started = Date.now();
  console.log(`[provision] installing code-server ${CODE_SERVER_VERSION} into ${dir} (first run only, ~5 min; log: ${logFile})`);
  // npm runs with the project's Node 24 first on PATH: code-server's postinstall refuses other majors.
  const child = spawn('npm', ['install', `code-server@${CODE_SERVER_VERSION}`, '--no-audit', '--no-fund'], {
    cwd: dir,
    env: installEnvironment(),
    stdio: ['ignore', log, log],
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), INSTALL_TIMEOUT_MS);
  const code = await new Promise<number>((resolve) => {
    child.on('error', () => resolve(127));
    child.on('exit', (exitCode) => resolve(exitCode ?? 1));
  });
  clearTimeout(timer);
  fs.writeSync(log, `\nexit ${code}\n`);
  fs.closeSync(log);
  if (code !== 0 || !fs.existsSync(codeServerEntry(dir))) {
    throw new ProvisionError(
      `code-server install failed (exit ${code}, log: ${logFile}); it needs npm, network access to the npm registry and: apt-get install -y ${NATIVE_BUILD_DEPS}`,
    );
  }
  console.log(`[provision] code-server installed in ${seconds(started)}`);
}

/**
 * Returns the path of code-server's entry.js, installing code-server into the cache on first use.
 * Like @vscode/test-electron's download, later runs find it in the cache and start at once.
 */
export function ensureCodeServer(): Promise<string> {
  // One attempt per process: test files that each start code-server must not each retry an install.
  provisioning ??= provision();
  return provisioning;
}

let provisioning: Promise<string> | undefined;

async function provision(): Promise<string> {
  if (!fs.existsSync(projectNode())) {
    throw new ProvisionError('The pinned Node 24 is missing from node_modules: run `npm ci` first.');
  }
  const dir = codeServerInstallDir();
  let state = installState(dir);
  if (state === 'in-progress') {
    await waitForOtherInstaller(dir);
    state = installState(dir);
  }
  if (state !== 'complete') await install(dir);
  return codeServerEntry(dir);
}

/** `node out/test/harness/provision.js` provisions ahead of time and prints what it found. */
if (require.main === module) {
  ensureCodeServer()
    .then((entry) => {
      console.log(`code-server: ${entry}`);
      console.log(`chromium:    ${findChromium()}`);
    })
    .catch((error: unknown) => {
      console.error(error instanceof ProvisionError ? error.message : error);
      process.exit(1);
    });
}
