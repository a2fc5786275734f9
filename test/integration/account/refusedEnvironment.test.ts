import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { ApiError } from '../../../src/core/api/errors';
import { pickModel, switchTo } from '../../../src/host/account/accountCommands';
import { importKeysFromEnvironment, setApiKey } from '../../../src/host/account/apiKeyCommands';
import { environmentItems } from '../../../src/host/account/chooseEnvironment';
import { waitFor } from '../../harness/wait';
import { useEmulatorSuite } from '../support/emulatorSetup';
import { extensionLogText } from '../support/logs';

/**
 * Issue 27, item 9: an environment whose base URL is refused (plain http to a host that is not this
 * machine) sends nothing and says why at start-up; every place the user acts on it says the same
 * sentence again, with Open Settings, instead of pointing at a key or a model.
 */
describe('A refused environment states its problem wherever the user acts', () => {
  const { services, emulator } = useEmulatorSuite({ keys: ['production'] });
  let configured: unknown;
  /** The start-up warning's sentence for "lan". */
  let problem: string;
  /** What was stated again since the test began. */
  let toldBefore: number;
  const told = () => services().settings.told.slice(toldBefore);

  before(async () => {
    const config = vscode.workspace.getConfiguration();
    configured = config.inspect('inference.environments')?.globalValue;
    await config.update('inference.environments', {
      ...(configured as Record<string, unknown>),
      lan: { baseUrl: 'http://lan.example/api/v1', keyPrefix: emulator().keyPrefix },
    }, vscode.ConfigurationTarget.Global);
    problem = services().environments.get('lan')?.problem?.message ?? '';
    assert.match(problem, /"lan".*plain http to another machine/);
  });

  beforeEach(() => {
    toldBefore = services().settings.told.length;
  });

  afterEach(async () => {
    await services().environments.activate('production');
    await services().keys.clear('lan');
  });

  after(async () => {
    await vscode.workspace.getConfiguration().update('inference.environments', configured, vscode.ConfigurationTarget.Global);
  });

  it('warns once at start-up (the sentence every other place repeats)', async () => {
    await waitFor('the start-up warning', () => services().settings.notices.includes(problem) || undefined, { timeoutMs: 3000, intervalMs: 20 });
  });

  it('says it in the environment list, instead of the address', async () => {
    const lan = (await environmentItems(services())).find((item) => item.env?.name === 'lan');
    assert.equal(lan?.detail, `$(warning) ${problem}`);
    assert.match(lan?.description ?? '', /setting problem/);
  });

  it('says it on switching to it, instead of asking for a key', async () => {
    // Asking for a key would wait for an answer to its notification: this returns at once.
    await switchTo(services(), 'lan');
    assert.equal(services().environments.active().name, 'lan');
    assert.deepEqual(told(), [problem]);
  });

  it('says it on Set API Key, asks nothing and sends nothing', async () => {
    assert.equal(await setApiKey(services(), 'lan', emulator().keys.production.full), false);
    assert.deepEqual(told(), [problem]);
    assert.equal(await services().keys.has('lan'), false);
    assert.equal(emulator().requests.length, 0);
  });

  it('says it on Pick Chat Model, before a picker opens', async () => {
    await services().environments.activate('lan');
    await pickModel(services());
    assert.deepEqual(told(), [problem]);
  });

  it('says it for a refused request shown as a notification, not as a status-bar reminder', async () => {
    await services().errors.present(new ApiError('notConfigured', problem), { source: 'refused environment test', env: 'lan' });
    assert.deepEqual(told(), [problem]);
  });

  it('logs why INFERENCE_API_KEY_LAN was not imported', async () => {
    assert.deepEqual(await importKeysFromEnvironment(services(), { INFERENCE_API_KEY_LAN: emulator().keys.production.full }), []);
    assert.equal(await services().keys.has('lan'), false);
    await waitFor('the log line', () => extensionLogText(services().context).includes(`INFERENCE_API_KEY_LAN was not imported: ${problem}`) || undefined, { timeoutMs: 5000, intervalMs: 100 });
  });
});
