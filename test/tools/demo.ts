import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startEmulator } from '../emulator';
import { codeServerArgs, startCodeServer } from '../harness/codeServer';
import { apiKeyEnvironment, emulatorSettings } from '../harness/extensionSetup';
import { pathWithProjectNode, projectNode, REPO_ROOT } from '../harness/paths';
import { registerCleanup, stopAll, stoppingOnSignal } from '../harness/processes';
import { ensureCodeServer, provision, ProvisionError } from '../harness/provision';
import { writeScratchWorkspace } from '../harness/supportExtension';
import { seconds } from '../harness/wait';

/**
 * `npm run demo`, the product's quick start: packages the extension, installs the VSIX into a
 * private code-server, starts the service emulator, points the extension at it (base URLs in the
 * user settings; the demo key only in code-server's environment), opens a scratch workspace and
 * prints the URL. Ctrl+C stops everything it started.
 *
 * INFERENCE_DEMO_PORT picks the port (default: a free one); INFERENCE_DEMO_HOST the address to bind
 * (default 127.0.0.1); INFERENCE_DEMO_SKIP_PACKAGE=1 installs the existing dist/inference-client.vsix.
 */
const VSIX = path.join(REPO_ROOT, 'dist', 'inference-client.vsix');

function step(message: string): void {
  console.log(`[demo] ${message}`);
}

function run(what: string, command: string, args: string[], cwd = REPO_ROOT): void {
  const result = spawnSync(command, args, {
    cwd,
    env: { ...process.env, PATH: pathWithProjectNode() },
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
    timeout: 5 * 60_000,
  });
  if (result.status !== 0) {
    throw new Error(`${what} failed (exit ${result.status ?? result.signal}):\n${result.stdout}\n${result.stderr}`);
  }
}

async function main(): Promise<void> {
  const started = Date.now();
  // First, so that a machine that cannot run the demo says so before anything is built.
  await provision({ codeServer: true });
  if (process.env.INFERENCE_DEMO_SKIP_PACKAGE !== '1') {
    step('building and packaging the extension (npm run package)…');
    run('npm run package', 'npm', ['run', 'package']);
  }
  if (!fs.existsSync(VSIX)) throw new Error(`${VSIX} is missing: run npm run package`);

  const entry = await ensureCodeServer();
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inference-demo-'));
  registerCleanup({
    name: 'demo state',
    stop: async () => fs.rmSync(stateDir, { recursive: true, force: true, maxRetries: 3 }),
    stopNow: () => fs.rmSync(stateDir, { recursive: true, force: true, maxRetries: 3 }),
  });
  const extensionsDir = path.join(stateDir, 'extensions');
  fs.mkdirSync(extensionsDir, { recursive: true });
  step(`installing ${path.relative(REPO_ROOT, VSIX)} into a private code-server…`);
  run('installing the VSIX', projectNode(), [...codeServerArgs(entry, stateDir, extensionsDir), '--install-extension', VSIX]);

  const emulator = await startEmulator();
  registerCleanup({ name: 'emulator', stop: () => emulator.close(), stopNow: () => undefined });
  const port = Number(process.env.INFERENCE_DEMO_PORT ?? 0);
  const server = await startCodeServer({
    stateDir,
    extensionsDir,
    port,
    settings: emulatorSettings(emulator),
    // The demo key reaches the extension only through code-server's environment, never a file.
    env: apiKeyEnvironment({ production: emulator.keys.production.full, preview: emulator.keys.preview.full }),
    smokeTestDriver: false,
    ...(process.env.INFERENCE_DEMO_HOST ? { host: process.env.INFERENCE_DEMO_HOST } : {}),
  });
  const workspace = writeScratchWorkspace(stateDir, 'demo-workspace');
  writeDemoFiles(workspace);
  const url = `${server.origin}/?folder=${encodeURIComponent(workspace)}`;

  console.log('');
  console.log(`  Emulator:   production ${emulator.environments.production.baseUrl}`);
  console.log(`              preview    ${emulator.environments.preview.baseUrl}`);
  console.log(`  Workspace:  ${workspace}`);
  console.log('  Try:        the chat (Inference: Open Chat), and inline suggestions in src/math.ts or');
  console.log('              tools/sums.py (the suggestions item in the status bar: Turn On, pick a model)');
  console.log(`  Ready in ${seconds(started)}. Open this URL in a browser:`);
  console.log('');
  console.log(`  URL: ${url}`);
  console.log('');
  console.log('  Press Ctrl+C to stop code-server and the emulator.');

  process.once('SIGINT', () => step('stopping code-server and the emulator…'));
  const exited = await server.process.exited;
  if (stoppingOnSignal()) return;
  step(`code-server exited unexpectedly (${exited}); stopping the emulator`);
  await stopAll();
  process.exitCode = 1;
}

/** Files to try the chat's Apply and inline suggestions on; a demo's own edits are kept across starts. */
function writeDemoFiles(workspace: string): void {
  const files: Record<string, string> = {
    'src/math.ts': 'export function add(a: number, b: number): number {\n  \n}\n',
    'tools/sums.py': 'def add(a, b):\n    \n',
  };
  for (const [relative, text] of Object.entries(files)) {
    const file = path.join(workspace, relative);
    if (fs.existsSync(file)) continue;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  }
}

main().catch(async (error: unknown) => {
  console.error(`[demo] ${error instanceof ProvisionError ? error.message : error instanceof Error ? error.message : String(error)}`);
  await stopAll();
  process.exitCode = 1;
});
