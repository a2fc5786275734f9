import * as vscode from 'vscode';
import { affectsSetting, readSetting, writeSetting, type EnvironmentSettings } from './config';
import { Disposable } from './disposable';

export interface Environment extends EnvironmentSettings {
  name: string;
  keyPrefix: string;
  label: string;
}

function toEnvironment(name: string, settings: EnvironmentSettings | undefined): Environment {
  return {
    name,
    baseUrl: typeof settings?.baseUrl === 'string' ? settings.baseUrl.trim() : '',
    keyPrefix: typeof settings?.keyPrefix === 'string' ? settings.keyPrefix : '',
    label: typeof settings?.label === 'string' && settings.label.trim() ? settings.label.trim() : name,
  };
}

/** The environments the user can switch between, and which one is active. */
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

  all(): Environment[] {
    return Object.entries(readSetting('inference.environments')).map(([name, settings]) => toEnvironment(name, settings));
  }

  get(name: string): Environment | undefined {
    return this.all().find((env) => env.name === name);
  }

  /** The active one; when the setting names an unknown environment, the first configured one. */
  active(): Environment {
    const all = this.all();
    const name = readSetting('inference.activeEnvironment');
    return all.find((env) => env.name === name) ?? all[0] ?? toEnvironment(name, undefined);
  }

  async activate(name: string): Promise<void> {
    if (!this.get(name)) throw new Error(`There is no environment named "${name}" in the "inference.environments" setting.`);
    await writeSetting('inference.activeEnvironment', name);
  }
}
