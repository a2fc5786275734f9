import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { UsageHostMessage } from '../../src/core/usage/protocol';
import { UsageLedger } from '../../src/host/shared/usageLedger';
import { UsagePanel } from '../../src/host/usage/usagePanel';
import { waitFor } from '../harness/wait';
import { extensionApi } from './support/emulatorSetup';

/**
 * Show Usage narrowed to a comparison (issue 40 item 4), as the chat will open it: the panel's webview
 * loads, says ready, and the report the host posts is the comparison's. The panel is this file's own,
 * on a ledger of its own (a temporary folder), so the window's real spend is not touched.
 */
describe('Usage view: Show Usage with { comparison } narrows the report to it (real extension host)', () => {
  const FIRST = 'c0a1f7e2-0000-4000-8000-00000000000a';
  const SECOND = 'c0a1f7e2-0000-4000-8000-00000000000b';
  let storage: string;
  let log: vscode.LogOutputChannel;
  let ledger: UsageLedger;
  let panel: UsagePanel | undefined;

  before(async () => {
    storage = fs.mkdtempSync(path.join(os.tmpdir(), 'usage-comparison-'));
    log = vscode.window.createOutputChannel('Usage comparison test', { log: true });
    ledger = new UsageLedger(vscode.Uri.file(storage), log);
    await ledger.loaded;
    const record = (comparison: string | undefined, model: string, credits: number | null) => ({ requestId: `r-${model}-${comparison ?? 'single'}`, model, environment: 'production', kind: 'chat' as const, credits, ...(comparison && { comparison }) });
    ledger.record(record(FIRST, 'chat-a', 0.5));
    ledger.record(record(FIRST, 'chat-b', null));
    ledger.record(record(SECOND, 'chat-a', 0.25));
    ledger.record(record(undefined, 'chat-c', 2));
    await ledger.written();
  });

  after(async () => {
    await panel?.dispose();
    await ledger.dispose();
    log.dispose();
    fs.rmSync(storage, { recursive: true, force: true });
  });

  it('posts the comparison\'s report once the view is ready, and another comparison\'s when shown again with it', async () => {
    const api = await extensionApi();
    const services = { ...api.services, usage: ledger };
    panel = await UsagePanel.show(services, { comparison: FIRST });
    const reports: Extract<UsageHostMessage, { type: 'report' }>['report'][] = [];
    const webview = panel.panel.webview;
    const post = webview.postMessage.bind(webview);
    // What the host sends its webview, seen on the way out.
    webview.postMessage = (message: UsageHostMessage) => {
      if (message.type === 'report') reports.push(message.report);
      return post(message);
    };
    const shown = panel;
    // Asking again posts nothing until the webview said ready, and the same report if it said so before the patch.
    const first = await waitFor('the report, once the webview is ready', () => reports.at(-1) ?? void shown.refresh(false), { timeoutMs: 20_000, intervalMs: 100 });
    assert.equal(first.comparisonFilter, FIRST);
    assert.deepEqual([first.total, first.requests, first.unmeasured], [0.5, 1, 1]);
    assert.deepEqual(first.comparisons.map((c) => [c.id, c.credits, c.models.map((m) => m.model).join(' ')]).sort(), [[FIRST, 0.5, 'chat-a chat-b'], [SECOND, 0.25, 'chat-a']]);

    const count = reports.length;
    assert.equal(await UsagePanel.show(services, { comparison: SECOND }), panel, 'the one panel, revealed');
    const second = await waitFor('the second comparison\'s report', () => reports.slice(count).find((r) => r.comparisonFilter === SECOND), { timeoutMs: 10_000, intervalMs: 50 });
    assert.deepEqual([second.total, second.requests, second.unmeasured], [0.25, 1, 0]);
    await UsagePanel.show(services, {});
    assert.equal(reports.at(-1)?.comparisonFilter, SECOND, 'Show Usage without arguments keeps the filter the view has');
  });
});
