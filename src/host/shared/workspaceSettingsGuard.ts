import vscode = require('vscode');
// The ESM build: the package's main entry is a UMD wrapper whose dynamic requires a bundler cannot follow.
import { parse, type ParseError } from 'jsonc-parser/lib/esm/main.js';
import { USER_LEVEL_SETTINGS } from './config';
import { Disposable } from './disposable';

/** Where a workspace tried to set a user-level setting. */
export interface IgnoredSetting {
  setting: string;
  /** The file, relative to the workspace when possible. */
  source: string;
}

const NOTIFIED_KEY = 'inference.ignoredWorkspaceSettingsNotified';

function has(settings: unknown, id: string): boolean {
  if (typeof settings !== 'object' || settings === null) return false;
  const record = settings as Record<string, unknown>;
  if (record[id] !== undefined) return true;
  // settings.json also accepts nested objects ({"inference": {"environments": …}}).
  const [section, ...rest] = id.split('.');
  return rest.length > 0 && has(record[section], rest.join('.'));
}

async function readJsonc(uri: vscode.Uri): Promise<unknown> {
  try {
    const errors: ParseError[] = [];
    return parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)), errors, { allowTrailingComma: true });
  } catch {
    return undefined; // No such file, or unreadable: nothing was set there.
  }
}

/**
 * Settings that decide where a key is sent are user-level: VS Code ignores workspace and folder values
 * of them, and the extension reads only the user's. A repository that sets them anyway is likely
 * hostile or stale; the user is told once per workspace which setting was ignored and why, and the
 * log says so on every start.
 */
export class WorkspaceSettingsGuard extends Disposable {
  /** What the user was told in this session (diagnostics and tests). */
  readonly notices: string[] = [];
  #checking: Promise<IgnoredSetting[]> | undefined;

  readonly #log: vscode.LogOutputChannel;
  readonly #workspaceState: vscode.Memento;

  constructor(log: vscode.LogOutputChannel, workspaceState: vscode.Memento) {
    super();
    this.#log = log;
    this.#workspaceState = workspaceState;
    const recheck = () => void this.check();
    const watcher = this.register(vscode.workspace.createFileSystemWatcher('**/.vscode/settings.json'));
    this.register(watcher.onDidChange(recheck));
    this.register(watcher.onDidCreate(recheck));
    this.register(vscode.workspace.onDidChangeWorkspaceFolders(recheck));
    this.register(vscode.workspace.onDidChangeConfiguration((event) => {
      if (USER_LEVEL_SETTINGS.some((id) => event.affectsConfiguration(id))) recheck();
    }));
  }

  /** Finds workspace values of user-level settings, logs them, and tells the user about new ones. */
  check(): Promise<IgnoredSetting[]> {
    const run = (this.#checking ?? Promise.resolve([])).then(() => this.#check());
    this.#checking = run.catch(() => []);
    return run;
  }

  async #check(): Promise<IgnoredSetting[]> {
    const ignored = await this.find();
    for (const { setting, source } of ignored) {
      this.#log.warn(`Ignored "${setting}" from ${source}: where the API key is sent comes only from your user settings.`);
    }
    const notified = new Set(this.#workspaceState.get<string[]>(NOTIFIED_KEY, []));
    const fresh = ignored.filter(({ setting }) => !notified.has(setting));
    if (fresh.length === 0) return ignored;
    for (const { setting } of fresh) notified.add(setting);
    await this.#workspaceState.update(NOTIFIED_KEY, [...notified]);
    const settings = [...new Set(fresh.map(({ setting }) => `"${setting}"`))].join(vscode.l10n.t(' and '));
    const sources = [...new Set(fresh.map(({ source }) => source))].join(', ');
    const message = vscode.l10n.t('This workspace sets {0} ({1}). It was ignored: Inference Client reads environments only from your user settings and never sends an API key to an address a workspace names.', settings, sources);
    this.notices.push(message);
    const openLogs = vscode.l10n.t('Open Logs');
    void vscode.window.showWarningMessage(message, openLogs).then((choice) => {
      if (choice === openLogs) this.#log.show(true);
    });
    return ignored;
  }

  /** Workspace-file, folder-settings and VS Code's own workspace values of the user-level settings. */
  async find(): Promise<IgnoredSetting[]> {
    const found: IgnoredSetting[] = [];
    const workspaceFile = vscode.workspace.workspaceFile;
    if (workspaceFile && workspaceFile.scheme !== 'untitled') {
      const settings = (await readJsonc(workspaceFile) as { settings?: unknown } | undefined)?.settings;
      for (const setting of USER_LEVEL_SETTINGS) if (has(settings, setting)) found.push({ setting, source: vscode.workspace.asRelativePath(workspaceFile) });
    }
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const file = vscode.Uri.joinPath(folder.uri, '.vscode', 'settings.json');
      const settings = await readJsonc(file);
      for (const setting of USER_LEVEL_SETTINGS) if (has(settings, setting)) found.push({ setting, source: vscode.workspace.asRelativePath(file) });
    }
    const configuration = vscode.workspace.getConfiguration();
    for (const setting of USER_LEVEL_SETTINGS) {
      const inspected = configuration.inspect(setting);
      const inWorkspace = inspected?.workspaceValue !== undefined || inspected?.workspaceFolderValue !== undefined;
      if (inWorkspace && !found.some((entry) => entry.setting === setting)) found.push({ setting, source: 'workspace settings' });
    }
    return found;
  }
}
