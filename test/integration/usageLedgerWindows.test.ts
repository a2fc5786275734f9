import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { UsageLedger } from '../../src/host/shared/usageLedger';
import { waitFor } from '../harness/wait';
import { useConfiguredEmulator } from './support/emulatorSetup';

/**
 * Two windows share one usage ledger file (issue 37: a second window's status bar kept its old
 * figures and limit state after the first reached a limit). Two ledgers on one storage folder stand
 * for the two windows' extension hosts.
 */
describe('Usage ledger: a window follows what another window records (real extension host)', () => {
  let storage: string;
  let log: vscode.LogOutputChannel;
  const ledgers: UsageLedger[] = [];
  const open = (): UsageLedger => {
    const ledger = new UsageLedger(vscode.Uri.file(storage), log);
    ledgers.push(ledger);
    return ledger;
  };
  const record = (credits: number) => ({ requestId: `r-${credits}`, model: 'm', environment: 'production', kind: 'chat' as const, credits });

  before(() => {
    storage = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-windows-'));
    log = vscode.window.createOutputChannel('Ledger windows test', { log: true });
  });
  after(async () => {
    for (const ledger of ledgers) await ledger.dispose();
    log.dispose();
    fs.rmSync(storage, { recursive: true, force: true });
  });

  it('shows the spend another window recorded within seconds, without a request of its own', async () => {
    const first = open();
    const second = open();
    await Promise.all([first.loaded, second.loaded]);
    first.record(record(0.5));
    await first.written();
    await waitFor('the second window to read the first one\'s record', () => second.entries().length === 1 || undefined, { timeoutMs: 10_000, intervalMs: 50 });
    assert.equal(second.spendToday('production').credits, 0.5);
  });

  it('does not read the file again for its own records', async () => {
    const [first] = ledgers;
    let changes = 0;
    const counting = first.onDidChange(() => changes++);
    try {
      first.record(record(0.25));
      await first.written();
      assert.equal(changes, 1, 'the record itself');
      // Past a look at the file's size: its own append is not news.
      await new Promise((resolve) => setTimeout(resolve, 2500));
      assert.equal(changes, 1);
    } finally {
      counting.dispose();
    }
  });

  describe('the extension\'s own ledger, written by another window', () => {
    const fixture = useConfiguredEmulator();

    it('shows a day\'s limit that the other window\'s spend reached in this window\'s status bar within 5 s', async function () {
      this.timeout(30_000);
      const { api } = fixture();
      const { services } = api;
      // Whatever this window spent today counts: the limit is a little above it, and another window
      // crosses it. Spent, as the status bar counts it: without what requests in flight reserve.
      await services.environments.activate('production');
      const unlimited = { day: Number.MAX_SAFE_INTEGER, warningFraction: 1 };
      const [today] = await services.billing.spend('production', unlimited, 0);
      const [withReserved] = await services.billing.spend('production', unlimited);
      console.log(`        spent today before: ${today.counted} credits; reserved by requests in flight: ${withReserved.counted - today.counted}`);
      await vscode.workspace.getConfiguration().update('inference.spendingLimits', { production: { daily: today.counted + 0.01 } }, vscode.ConfigurationTarget.Global);
      const other = new UsageLedger(services.context.globalStorageUri, log);
      ledgers.push(other);
      try {
        await other.loaded;
        assert.ok(!api.statusBar.snapshot().tooltip.includes('limit of production reached'), 'not reached so far');
        other.record({ requestId: 'other-window', model: 'm', environment: 'production', kind: 'chat', credits: 0.02 });
        await other.written();
        const recorded = Date.now();
        await waitFor('this window\'s status bar to say the limit is reached', () => {
          const bar = api.statusBar.snapshot();
          return (bar.warning && bar.tooltip.includes('Daily spending limit of production reached')) || undefined;
        }, { timeoutMs: 5000, intervalMs: 50 }).catch((error: unknown) => {
          throw new Error(`${error instanceof Error ? error.message : String(error)}; the status bar: ${JSON.stringify(api.statusBar.snapshot())}`);
        });
        console.log(`        another window's spend reached this window's status bar in ${Date.now() - recorded} ms`);
      } finally {
        await vscode.workspace.getConfiguration().update('inference.spendingLimits', undefined, vscode.ConfigurationTarget.Global);
      }
    });
  });
});
