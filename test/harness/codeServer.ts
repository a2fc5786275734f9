import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { registerCleanup, spawnGroup, type GroupProcess } from './processes';
import { ensureCodeServer } from './provision';
import { pathWithProjectNode, projectNode } from './paths';
import { waitFor } from './wait';

/** Settings every run starts from: no welcome page, no built-in AI features competing with ours. */
export const BASE_SETTINGS: Readonly<Record<string, unknown>> = {
  'workbench.startupEditor': 'none',
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'chat.disableAIFeatures': true,
  'workbench.tips.enabled': false,
  'extensions.autoCheckUpdates': false,
  // In the form this VS Code migrates to: given `false`, it rewrites settings.json at start-up and
  // leaves the file open in front of the demo's user.
  'extensions.autoUpdate': 'off',
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'security.workspace.trust.enabled': false,
};

export interface CodeServerOptions {
  /** Settings merged over BASE_SETTINGS into the fresh user-data dir. */
  settings?: Record<string, unknown>;
  /** Extra environment for code-server; its extension hosts inherit it (API keys reach the extension so). */
  env?: Record<string, string>;
  /** Reuse this extensions dir (e.g. one a VSIX was installed into); a fresh one otherwise. */
  extensionsDir?: string;
  /** Listen on this port; 0 (default) picks a free one. */
  port?: number;
  /** Address to bind; 127.0.0.1 by default. */
  host?: string;
  /** Where to keep user data, extensions and logs; a fresh temp dir by default (removed on stop). */
  stateDir?: string;
  /** Smoke-test driver: needed for the `payload` query (extension development) and window.driver. */
  smokeTestDriver?: boolean;
  /** true: workspace trust as users have it (a folder may open in Restricted Mode); off by default. */
  workspaceTrust?: boolean;
  /** Where code-server's output goes; inside the state dir by default. */
  logFile?: string;
  /** Prefix for log lines copied from code-server's output; silent unless set. */
  echoPrefix?: string;
}

export interface CodeServer {
  readonly origin: string;
  readonly port: number;
  readonly stateDir: string;
  readonly userDataDir: string;
  readonly extensionsDir: string;
  readonly logFile: string;
  readonly process: GroupProcess;
  /** `vscode-remote://` URI the workbench uses for a path on this server's disk. */
  remoteUri(absolutePath: string): string;
  stop(): Promise<void>;
}

export function writeUserSettings(userDataDir: string, settings: Record<string, unknown>): void {
  const dir = path.join(userDataDir, 'User');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'settings.json'), JSON.stringify({ ...BASE_SETTINGS, ...settings }, null, 2));
}

/**
 * Adds `settings` to the user settings while `run` lasts (a window opened meanwhile starts with them),
 * then puts the file back as it was.
 */
export async function withUserSettings<T>(userDataDir: string, settings: Readonly<Record<string, unknown>> | undefined, run: () => Promise<T>): Promise<T> {
  if (!settings) return run();
  const file = path.join(userDataDir, 'User', 'settings.json');
  const before = fs.readFileSync(file, 'utf8');
  fs.writeFileSync(file, JSON.stringify({ ...(JSON.parse(before) as Record<string, unknown>), ...settings }, null, 2));
  try {
    return await run();
  } finally {
    fs.writeFileSync(file, before);
  }
}

export function codeServerArgs(entry: string, stateDir: string, extensionsDir: string): string[] {
  const configFile = path.join(stateDir, 'config.yaml');
  fs.writeFileSync(configFile, 'auth: none\n');
  return [
    entry,
    '--config', configFile,
    '--auth', 'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--user-data-dir', path.join(stateDir, 'user-data'),
    '--extensions-dir', extensionsDir,
  ];
}

/** Starts a private code-server and resolves once it answers /healthz. */
export async function startCodeServer(options: CodeServerOptions = {}): Promise<CodeServer> {
  const entry = await ensureCodeServer();
  const ownsStateDir = options.stateDir === undefined;
  const stateDir = options.stateDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'inference-code-server-'));
  fs.mkdirSync(stateDir, { recursive: true });
  const removeStateDir = (): void => {
    if (ownsStateDir && !process.env.INFERENCE_TEST_KEEP) fs.rmSync(stateDir, { recursive: true, force: true, maxRetries: 3 });
  };
  // Registered before the process, so that a run that dies stops code-server first, then removes this.
  const unregisterStateDir = registerCleanup({ name: 'code-server state', stop: async () => removeStateDir(), stopNow: removeStateDir });
  const userDataDir = path.join(stateDir, 'user-data');
  const extensionsDir = options.extensionsDir ?? path.join(stateDir, 'extensions');
  fs.mkdirSync(extensionsDir, { recursive: true });
  writeUserSettings(userDataDir, options.settings ?? {});

  const args = [
    ...codeServerArgs(entry, stateDir, extensionsDir).filter((arg) => !(options.workspaceTrust && arg === '--disable-workspace-trust')),
    '--bind-addr', `${options.host ?? '127.0.0.1'}:${options.port ?? 0}`,
    ...(options.smokeTestDriver === false ? [] : ['--vscode-option', 'enable-smoke-test-driver']),
  ];
  const logFile = options.logFile ?? path.join(stateDir, 'code-server.log');
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const log = fs.createWriteStream(logFile);
  const child = spawnGroup('code-server', projectNode(), args, {
    env: { ...process.env, PATH: pathWithProjectNode(), ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });

  let output = '';
  const onData = (chunk: Buffer): void => {
    const text = chunk.toString();
    output += text;
    log.write(text);
    if (options.echoPrefix) {
      for (const line of text.split('\n').filter(Boolean)) console.log(`${options.echoPrefix} ${line}`);
    }
  };
  child.child.stdout?.on('data', onData);
  child.child.stderr?.on('data', onData);

  const stop = async (): Promise<void> => {
    await child.stop();
    log.end();
    unregisterStateDir();
    removeStateDir();
  };

  try {
    const died = child.exited.then((code) => {
      throw new Error(`code-server exited (${code}) before it was ready; log: ${logFile}\n${output.slice(-2000)}`);
    });
    const listening = waitFor('code-server to listen', () => /HTTP server listening on (http:\/\/[\d.]+:\d+)/.exec(output)?.[1], {
      timeoutMs: 60_000,
      intervalMs: 100,
    });
    // Whichever loses the race below settles later; only the race cares.
    died.catch(() => undefined);
    listening.catch(() => undefined);
    const origin = await Promise.race([listening, died]);
    await waitFor('code-server /healthz', async () => (await fetch(`${origin}/healthz`)).ok, { timeoutMs: 30_000 });
    const port = Number(new URL(origin).port);
    return {
      origin,
      port,
      stateDir,
      userDataDir,
      extensionsDir,
      logFile,
      process: child,
      remoteUri: (absolutePath) => `vscode-remote://127.0.0.1:${port}${absolutePath}`,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

export interface WorkbenchOptions {
  /** Folder to open; an empty window when absent. */
  folder?: string;
  /** Extensions loaded from source, as with `--extensionDevelopmentPath`. */
  extensionDevelopmentPaths?: string[];
  /** A module exporting `run(): Promise<void>`, as with `--extensionTestsPath`. */
  extensionTestsPath?: string;
  /** Environment variables for the window's extension host. */
  extensionEnvironment?: Record<string, string>;
}

/** The workbench URL; development and test options travel in the smoke-test driver's `payload` query. */
export function workbenchUrl(server: Pick<CodeServer, 'origin' | 'remoteUri'>, options: WorkbenchOptions = {}): string {
  const url = new URL(server.origin + '/');
  if (options.folder) url.searchParams.set('folder', options.folder);
  else url.searchParams.set('ew', 'true');
  const payload: [string, string][] = [];
  for (const devPath of options.extensionDevelopmentPaths ?? []) {
    payload.push(['extensionDevelopmentPath', server.remoteUri(devPath)]);
  }
  if (options.extensionTestsPath) payload.push(['extensionTestsPath', server.remoteUri(options.extensionTestsPath)]);
  if (options.extensionEnvironment) payload.push(['extensionEnvironment', JSON.stringify(options.extensionEnvironment)]);
  if (payload.length > 0) {
    payload.push(['skipWelcome', 'true']);
    url.searchParams.set('payload', JSON.stringify(payload));
  }
  return url.toString();
}
