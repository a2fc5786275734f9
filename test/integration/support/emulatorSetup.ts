import * as vscode from 'vscode';
import type { TestApi } from '../../../src/extension';
import type { Services } from '../../../src/host/shared/services';
import { startEmulator, type Emulator, type EmulatorOptions, type EnvironmentName } from '../../emulator';
import { waitFor } from '../../harness/wait';
import { EXTENSION_ID } from '../manifest';

/** The extension under test, activated, with the test API it returns in ExtensionMode.Test. */
export async function extensionApi(): Promise<TestApi> {
  const extension = vscode.extensions.getExtension<TestApi | undefined>(EXTENSION_ID);
  if (!extension) throw new Error(`${EXTENSION_ID} is not loaded`);
  const api = await extension.activate();
  if (!api) throw new Error('the extension returned no test API: is it running in ExtensionMode.Test?');
  return api;
}

export interface EmulatorFixture {
  emulator: Emulator;
  api: TestApi;
}

/**
 * Starts the service emulator inside the extension host and points the extension's environments at it
 * (production and preview, with the emulator's key prefix). Keys are stored per test, never in settings.
 */
export function useConfiguredEmulator(options?: EmulatorOptions): () => EmulatorFixture {
  let fixture: EmulatorFixture | undefined;
  before(async () => {
    const emulator = await startEmulator(options);
    const api = await extensionApi();
    const config = vscode.workspace.getConfiguration();
    await config.update('inference.environments', {
      production: { baseUrl: emulator.environments.production.baseUrl, keyPrefix: emulator.keyPrefix },
      preview: { baseUrl: emulator.environments.preview.baseUrl, keyPrefix: emulator.keyPrefix },
    }, vscode.ConfigurationTarget.Global);
    await config.update('inference.activeEnvironment', 'production', vscode.ConfigurationTarget.Global);
    fixture = { emulator, api };
  });
  beforeEach(async () => {
    // A key or environment change makes VS Code ask the language model provider for the model list in
    // the background; let that finish so that each test counts only its own requests and faults.
    const models = fixture?.api.languageModels;
    if (models) await waitFor('the background model-list refresh', () => models.settled(), { timeoutMs: 5000, intervalMs: 25 });
    fixture?.emulator.reset();
  });
  after(async () => {
    const config = vscode.workspace.getConfiguration();
    await config.update('inference.environments', undefined, vscode.ConfigurationTarget.Global);
    await config.update('inference.activeEnvironment', undefined, vscode.ConfigurationTarget.Global);
    if (fixture) {
      await fixture.api.services.keys.clear('production');
      await fixture.api.services.keys.clear('preview');
      await fixture.emulator.close();
    }
  });
  return () => {
    if (!fixture) throw new Error('the emulator fixture is not ready');
    return fixture;
  };
}

export interface EmulatorSuite {
  fixture: () => EmulatorFixture;
  services: () => Services;
  emulator: () => Emulator;
}

export interface EmulatorSuiteOptions {
  emulator?: EmulatorOptions;
  /** Environments whose emulator key is stored before each test. */
  keys?: readonly EnvironmentName[];
  /** Environments whose cached model lists are dropped before each test (after the keys are stored). */
  freshModelLists?: readonly EnvironmentName[];
}

/**
 * The configured emulator (useConfiguredEmulator) with the accessors every suite wants, and the keys and
 * model caches each test starts from: the setup the account suites used to repeat line for line.
 */
export function useEmulatorSuite({ emulator: emulatorOptions, keys = [], freshModelLists = [] }: EmulatorSuiteOptions = {}): EmulatorSuite {
  const fixture = useConfiguredEmulator(emulatorOptions);
  const services = () => fixture().api.services;
  const emulator = () => fixture().emulator;
  if (keys.length > 0 || freshModelLists.length > 0) {
    beforeEach(async () => {
      for (const env of keys) await services().keys.set(env, emulator().keys[env].full);
      for (const env of freshModelLists) await services().models.invalidate(env);
    });
  }
  return { fixture, services, emulator };
}
