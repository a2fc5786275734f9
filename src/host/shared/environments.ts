import vscode = require('vscode');
import { checkActiveEnvironment, checkEnvironments, type CheckedEnvironment, type SettingProblem } from '../../core/settings/settingsCheck';
import { affectsSetting, readRawSetting, writeSetting, type EnvironmentSettings } from './config';
import { Disposable } from './disposable';

/** One of the user's environments, checked: `problem` is set when its settings cannot be used. */
export type Environment = CheckedEnvironment;

const noEnvironmentProblem = (): SettingProblem => ({
  setting: 'inference.environments',
  blocks: 'all',
  message: vscode.l10n.t('No environment is configured yet: run "Inference: Add Environment" to add the service\'s address. Nothing is sent until then.'),
});

/**
 * The environments the user can switch between, and which one is active. Both settings are read from
 * the user's own settings only (see USER_LEVEL_SETTINGS): a workspace never decides where a key goes.
 */
export class Environments extends Disposable {
  readonly #onDidChange = this.register(new vscode.EventEmitter<void>());
  /** Fires when the active environment or any environment's settings change. */
  readonly onDidChange = this.#onDidChange.event;

  /**
   * Both settings, read and checked once until they change: the status bar, the walkthrough, the
   * model list and every request ask for the active environment, and a read is an `inspect` of the
   * whole configuration. This listener is the first of the extension's, so that no listener of the
   * same change reads the old value.
   */
  #checked: { all: readonly Environment[]; active: Environment } | undefined;

  constructor() {
    super();
    this.register(vscode.workspace.onDidChangeConfiguration((event) => {
      if (!affectsSetting(event, 'inference.environments', 'inference.activeEnvironment')) return;
      this.#checked = undefined;
      this.#onDidChange.fire();
    }));
  }

  all(): Environment[] {
    return [...this.#read().all];
  }

  get(name: string): Environment | undefined {
    return this.#read().all.find((env) => env.name === name);
  }

  /**
   * The active one; the first when the setting is empty. When it names an environment that does not
   * exist (or none exists), a stand-in whose `problem` says so: never silently another environment.
   */
  active(): Environment {
    return this.#read().active;
  }

  #read(): { all: readonly Environment[]; active: Environment } {
    if (this.#checked) return this.#checked;
    const configuration = vscode.workspace.getConfiguration();
    const all = checkEnvironments(readRawSetting('inference.environments', configuration)).environments;
    const raw = readRawSetting('inference.activeEnvironment', configuration);
    this.#checked = { all, active: activeOf(all, raw) };
    return this.#checked;
  }

  async activate(name: string): Promise<void> {
    if (!this.get(name)) throw new Error(vscode.l10n.t('There is no environment named "{0}" in the "inference.environments" setting.', name));
    await writeSetting('inference.activeEnvironment', name);
  }

  /** Adds (or replaces) one environment in the user's settings, keeping the others as they are. */
  async add(name: string, settings: EnvironmentSettings): Promise<void> {
    const current = readRawSetting('inference.environments');
    const others = typeof current === 'object' && current !== null && !Array.isArray(current) ? current as Record<string, EnvironmentSettings> : {};
    await writeSetting('inference.environments', { ...others, [name]: settings });
  }
}

function activeOf(all: readonly Environment[], raw: unknown): Environment {
  const name = typeof raw === 'string' ? raw : '';
  if (!name && all[0]) return all[0];
  const found = all.find((env) => env.name === name);
  if (found) return found;
  const problem = all.length === 0 && !name ? noEnvironmentProblem() : checkActiveEnvironment(raw, all.map((env) => env.name)) ?? noEnvironmentProblem();
  return { name, label: name || 'no environment', baseUrl: '', keyPrefix: '', problem };
}
