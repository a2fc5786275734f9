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

  constructor() {
    super();
    this.register(vscode.workspace.onDidChangeConfiguration((event) => {
      if (affectsSetting(event, 'inference.environments', 'inference.activeEnvironment')) this.#onDidChange.fire();
    }));
  }

  all(configuration = vscode.workspace.getConfiguration()): Environment[] {
    return checkEnvironments(readRawSetting('inference.environments', configuration)).environments;
  }

  get(name: string): Environment | undefined {
    return this.all().find((env) => env.name === name);
  }

  /**
   * The active one; the first when the setting is empty. When it names an environment that does not
   * exist (or none exists), a stand-in whose `problem` says so: never silently another environment.
   */
  active(): Environment {
    const configuration = vscode.workspace.getConfiguration();
    const all = this.all(configuration);
    const raw = readRawSetting('inference.activeEnvironment', configuration);
    const name = typeof raw === 'string' ? raw : '';
    if (!name && all[0]) return all[0];
    const found = all.find((env) => env.name === name);
    if (found) return found;
    const problem = all.length === 0 && !name ? noEnvironmentProblem() : checkActiveEnvironment(raw, all.map((env) => env.name)) ?? noEnvironmentProblem();
    return { name, label: name || 'no environment', baseUrl: '', keyPrefix: '', problem };
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
