import vscode = require('vscode');
import type { Releasable } from './disposable';
import { LAZY_COMMANDS } from './lazyCommands';

/** A feature that loads on first use, named by its row of commands in lazyCommands.ts. */
export type LazyFeatureName = keyof typeof LAZY_COMMANDS;

/** The features whose code has loaded in this extension host, in load order: what activation loaded is read from here. */
const loadedFeatures: string[] = [];

export function featuresLoaded(): readonly string[] {
  return [...loadedFeatures];
}

/**
 * A feature whose code loads on first use, so that activation pays only for what the window shows
 * at once. Its commands are registered at activation as stand-ins: the first run of any of them
 * loads the feature, which registers its real commands in the same task as the stand-ins go (so no
 * command is ever missing), and the run goes on to the real command with the same arguments.
 *
 * `load` is a dynamic import: the bundle keeps the module's code, but its top level (and that of what
 * only it imports) runs on first use. Disposing waits for a load in progress, then disposes the
 * feature, whose disposal may save.
 */
export class LazyFeature<Feature extends Releasable> implements Releasable {
  readonly #name: LazyFeatureName;
  readonly #load: () => Promise<() => Feature>;
  #standIns: vscode.Disposable[] = [];
  #loading: Promise<Feature> | undefined;
  #feature: Feature | undefined;
  #disposed = false;

  constructor(name: LazyFeatureName, load: () => Promise<() => Feature>) {
    this.#name = name;
    this.#load = load;
    this.#registerStandIns();
  }

  #registerStandIns(): void {
    this.#standIns = LAZY_COMMANDS[this.#name].map((command) => vscode.commands.registerCommand(command, async (...args: unknown[]) => {
      await this.get();
      return vscode.commands.executeCommand(command, ...args);
    }));
  }

  /** The feature once loaded; undefined before its first use. */
  get loaded(): Feature | undefined {
    return this.#feature;
  }

  /** The feature, loaded on the first call. */
  get(): Promise<Feature> {
    if (this.#loading) return this.#loading;
    const loading = this.#load().then((create) => {
      if (this.#disposed) throw new Error(`The ${this.#name} feature was disposed while it loaded`);
      // One task: the stand-ins go and the feature's own registrations come, with nothing between.
      for (const standIn of this.#standIns.splice(0)) standIn.dispose();
      try {
        this.#feature = create();
      } catch (error) {
        // The next run tries again, and the commands stay there to be run.
        this.#registerStandIns();
        throw error;
      }
      loadedFeatures.push(this.#name);
      return this.#feature;
    });
    this.#loading = loading;
    loading.catch(() => {
      if (this.#loading === loading) this.#loading = undefined;
    });
    return loading;
  }

  async dispose(): Promise<void> {
    this.#disposed = true;
    for (const standIn of this.#standIns.splice(0)) standIn.dispose();
    const feature = await this.#loading?.catch(() => undefined);
    await feature?.dispose();
  }
}
