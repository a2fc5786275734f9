import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { EXTENSION_ID, manifest } from './manifest';
import { extensionApi } from './support/emulatorSetup';

/** What the extension's main module hands VS Code besides activate(). */
interface ExtensionModule {
  deactivate(): Promise<void> | undefined;
}

/** Longer than the chat's own disposal takes: a deactivate() that did not wait for the ledger has resolved by then. */
const PENDING_MS = 2000;

/**
 * Ends the extension (its file is run after every other of the window, index.ts): VS Code does not
 * wait for subscriptions, only for deactivate(), and a spend recorded just before the window closes
 * must still reach the usage ledger.
 */
describe('Exit', () => {
  it('deactivate() resolves only after the usage ledger appended what was recorded before it', async function () {
    if (process.platform === 'win32') this.skip(); // The ledger's stand-in below is a FIFO.
    this.timeout(30_000);
    const { services } = await extensionApi();
    // Start-up's work on the file first: its compaction check reads the file, which would take the FIFO's writer.
    await services.usage.loaded;
    await services.usage.written();
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is loaded`);
    // The module VS Code loaded (require's cache holds it): the deactivate() VS Code calls on exit.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const main = require(path.join(extension.extensionPath, manifest.main)) as ExtensionModule;
    const ledger = path.join(services.context.globalStorageUri.fsPath, 'usage', 'ledger.jsonl');
    const aside = `${ledger}.aside`;
    fs.mkdirSync(path.dirname(ledger), { recursive: true });
    const existed = fs.existsSync(ledger);
    if (existed) fs.renameSync(ledger, aside);
    // A FIFO in the ledger's place: the append's open() waits for a reader, so it stays pending until the test reads.
    execFileSync('mkfifo', [ledger]);
    try {
      services.usage.record({ requestId: 'recorded-at-exit', model: 'exit-model', environment: 'production', kind: 'chat', credits: 1 });
      let resolved = false;
      const deactivated = Promise.resolve(main.deactivate()).then(() => {
        resolved = true;
      });
      await new Promise((resolve) => setTimeout(resolve, PENDING_MS));
      assert.equal(resolved, false, 'deactivate() resolved while an append to the usage ledger was pending');
      const appended = await fs.promises.readFile(ledger, 'utf8');
      await deactivated;
      assert.match(appended, /"requestId":"recorded-at-exit"/);
    } finally {
      fs.rmSync(ledger, { force: true });
      if (existed) fs.renameSync(aside, ledger);
    }
  });
});
