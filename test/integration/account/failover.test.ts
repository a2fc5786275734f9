import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { markdownLiteral } from '../../../src/core/markdownText';
import { describeHosts } from '../../../src/host/account/accountCommands';
import type { PresentedError } from '../../../src/host/shared/errorPresenter';
import type { ExtraListener, ListenerMode } from '../../emulator';
import { SURFACES, cleanWorkspace, type MatrixContext } from '../faults/surfaces';
import { useConfiguredEmulator } from '../support/emulatorSetup';
import { extensionLogText } from '../support/logs';
import { waitFor } from '../../harness/wait';

/**
 * Issue 30: an environment with two host names of one service (two emulator listeners sharing keys,
 * wallet and request log). When the first fails in a way that cannot have been billed, chat, images,
 * the model picker and the balance refresh keep working, and the service's request log shows exactly
 * one POST per user action; when both fail, one error names both hosts with their reasons.
 */
describe('Failover between two host names of one environment', () => {
  const fixture = useConfiguredEmulator();
  const presented: PresentedError[] = [];
  let subscription: vscode.Disposable | undefined;
  let second: ExtraListener;
  const SETTINGS: Record<string, unknown> = { 'inference.rateLimit.maxRetries': 0, 'inference.readBalanceAfterAnswer': false };

  /** A fresh first listener (a new host: its health starts clean), in front of `second`, as the active environment. */
  async function environmentWith(first: ExtraListener): Promise<void> {
    const { emulator, api } = fixture();
    await vscode.workspace.getConfiguration().update('inference.environments', {
      production: { baseUrl: first.baseUrl, baseUrls: [second.baseUrl], keyPrefix: emulator.keyPrefix },
    }, vscode.ConfigurationTarget.Global);
    // Stored without origins: bound to this environment's two hosts by the first request, without asking.
    await api.services.keys.set('production', emulator.keys.production.full);
    emulator.reset();
  }

  const context = (label: string): MatrixContext => ({ api: fixture().api, emulator: fixture().emulator, env: 'production', presented, label });
  const posts = () => fixture().emulator.requests.filter((request) => request.method === 'POST');

  before(async () => {
    const config = vscode.workspace.getConfiguration();
    for (const [id, value] of Object.entries(SETTINGS)) await config.update(id, value, vscode.ConfigurationTarget.Global);
    second = await fixture().emulator.addListener('production');
    subscription = fixture().api.services.errors.onDidPresent((error) => presented.push(error));
  });

  after(async () => {
    subscription?.dispose();
    const config = vscode.workspace.getConfiguration();
    for (const id of Object.keys(SETTINGS)) await config.update(id, undefined, vscode.ConfigurationTarget.Global);
    await fixture().api.services.keys.clear('production');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    cleanWorkspace();
  });

  for (const mode of ['stopped', 'reset', 'edge-503'] as const satisfies readonly ListenerMode[]) {
    it(`keeps every surface working when the first host is ${mode} mid-session, with one POST per action at the service`, async function () {
      this.timeout(120_000);
      const first = await fixture().emulator.addListener('production');
      await environmentWith(first);
      const chat = SURFACES.find((surface) => surface.name === 'chat panel')!;
      assert.equal((await chat.run(context(`${mode} before`))).outcome, 'ok');
      // By the service's log, not by the account's last host: that is the last response of any
      // request, and one the last test left in flight on a busy machine may land after this one.
      const served = fixture().emulator.requests.map((request) => `${request.method} ${request.path} by ${request.listener}`).join('; ');
      assert.deepEqual(posts().map((request) => request.listener), [first.origin], `the first host served the chat while it was up (${served})`);
      assert.deepEqual(await fixture().api.services.keys.origins('production'), [first.origin, second.origin], 'the key is bound to both hosts');

      await first.setMode(mode);
      fixture().emulator.reset();
      const before = presented.length;
      for (const surface of SURFACES) {
        const postsBefore = posts().length;
        const observed = await surface.run(context(`${mode} ${surface.name}`));
        assert.equal(observed.outcome, 'ok', `${surface.name}: ${observed.message ?? ''}`);
        const expected = surface.path === '/models' ? 0 : 1;
        assert.equal(posts().length - postsBefore, expected, `${surface.name}: ${expected} POST at the service`);
      }
      assert.equal(presented.length, before, 'no notification while one host answers');
      assert.ok(fixture().emulator.requests.every((request) => request.listener === second.origin), 'the second host served everything');
      assert.equal(fixture().api.services.account.get('production').lastHost, second.origin);
      assert.ok(fixture().api.statusBar.snapshot().tooltip.includes(`Served by: ${markdownLiteral(second.origin)}`), 'the tooltip names the host that served');
      const hosts = fixture().api.services.api.hostStates('production') ?? [];
      assert.ok(hosts[0].failures >= 1 && hosts[0].lastError, 'the first host is set aside with its reason');
      const menu = describeHosts(fixture().api.services, fixture().api.services.environments.active());
      assert.match(menu[0], new RegExp(`^${first.origin}: (set aside for \\d+ s after (a failure|\\d+ failures in a row)|failed) \\(.+\\)`), 'the account menu shows why the first host is set aside');
      assert.equal(menu[1], `${second.origin}: served the last request`);
      const logged = await waitFor('the failover in the log', () => extensionLogText(fixture().api.services.context).includes(`production: ${first.origin} failed before anything could be billed`) || undefined, { timeoutMs: 10_000, intervalMs: 200 });
      assert.ok(logged);
    });
  }

  it('gives one clear error naming both hosts and their reasons when both are down, wherever the user acted', async function () {
    this.timeout(60_000);
    const first = await fixture().emulator.addListener('production');
    await environmentWith(first);
    await first.setMode('stopped');
    await second.setMode('stopped');
    try {
      // The panel's card, and the notifications of the model picker, the balance refresh and an image.
      for (const surface of SURFACES.filter((each) => each.name !== 'side-bar view')) {
        const observed = await surface.run(context(`both down ${surface.name}`));
        assert.equal(observed.outcome, 'error', surface.name);
        assert.equal(observed.kind, 'network', surface.name);
        // After the panel's request tried both, the others try the one whose backoff ends first and name the other as set aside.
        assert.match(observed.message ?? '', new RegExp(`${first.origin} \\(ECONNREFUSED[^)]*\\), ${second.origin} \\(ECONNREFUSED[^)]*\\)`), `${surface.name}: ${observed.message}`);
      }
      assert.equal(fixture().emulator.requests.length, 0, 'nothing reached the service');
    } finally {
      await second.setMode('serve');
    }
  });
});
