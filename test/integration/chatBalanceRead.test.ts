import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ConversationMessage } from '../../src/core/chat/conversation';
import { waitFor } from '../harness/wait';
import { openNewChatPanel } from './support/chatPanels';
import { useConfiguredEmulator } from './support/emulatorSetup';

const READ_BALANCE = 'inference.readBalanceAfterAnswer';
/** The name it had, deprecated: still read while the new one is not set. */
const READ_BALANCE_BEFORE = 'inference.chat.refreshBalanceAfterAnswer';

/**
 * With inference.readBalanceAfterAnswer off, a streamed answer costs exactly one request of the key's
 * per-minute budget, and claims no spend it did not measure (the panel shows a spend only from
 * `creditsSpent`; the composer's UI tests cover the default, where the settled spend is shown). It is
 * billed all the same: spending limits count `inference.unmeasuredRequestCredits` for it.
 */
describe('Chat without the balance read after an answer (real extension host, emulator back end)', () => {
  const fixture = useConfiguredEmulator({ tokensPerSecond: 200 });
  const chat = () => fixture().api.chat;
  const configuration = () => vscode.workspace.getConfiguration();
  const chatRequests = () => fixture().emulator.requests.filter((r) => r.path.endsWith('/chat/completions'));
  const ended = (id: string, count: number) => waitFor(`answer ${count} to end`, async () => {
    const messages = (await chat().conversation(id))?.messages ?? [];
    const last: ConversationMessage | undefined = messages.at(-1);
    return messages.length === count * 2 && last?.role === 'assistant' && last.status !== 'streaming' ? last : undefined;
  }, { timeoutMs: 30_000, intervalMs: 20 });

  before(async () => {
    const { api, emulator } = fixture();
    await api.services.keys.set('production', emulator.keys.production.full);
    await api.services.models.select('chat', emulator.environments.production.chatModels[0], 'production');
  });

  after(async () => {
    for (const id of [READ_BALANCE, READ_BALANCE_BEFORE, 'inference.spendingLimits', 'inference.unmeasuredRequestCredits']) {
      await configuration().update(id, undefined, vscode.ConfigurationTarget.Global);
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  for (const setting of [READ_BALANCE, READ_BALANCE_BEFORE]) {
    it(`makes no request but the answer, and states no spend (${setting} off)`, async () => {
      await configuration().update(READ_BALANCE, undefined, vscode.ConfigurationTarget.Global);
      await configuration().update(setting, false, vscode.ConfigurationTarget.Global);
      const id = await openNewChatPanel(chat());
      const sentAt = Date.now();
      await chat().request(id, 'send', { text: 'Hello without a balance check' });
      const answer = await ended(id, 1);
      assert.equal(answer.status, 'done');
      // The spend would arrive within a few hundred milliseconds of the answer's end: give it time.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const after = fixture().emulator.requests.filter((r) => r.startedAt >= sentAt);
      assert.deepEqual(after.map((r) => r.path), ['/api/v1/chat/completions']);
      const saved = (await chat().conversation(id))?.messages.at(-1);
      assert.equal(saved?.meta?.creditsSpent, undefined, 'no spend is claimed');
      assert.equal(saved?.meta?.spendNotMeasured, 'noReading');
    });
  }

  it('counts an unmeasured answer as the allowance: with a limit below it, the next send is refused and nothing is sent', async () => {
    const { api } = fixture();
    await configuration().update(READ_BALANCE, false, vscode.ConfigurationTarget.Global);
    await configuration().update('inference.unmeasuredRequestCredits', 100, vscode.ConfigurationTarget.Global);
    // Whatever this window counted today so far, plus half an allowance: one more unmeasured answer passes it.
    const [today] = await api.services.billing.spend('production', { day: Number.MAX_SAFE_INTEGER, warningFraction: 1 });
    await configuration().update('inference.spendingLimits', { production: { daily: today.counted + 50 } }, vscode.ConfigurationTarget.Global);
    const id = await openNewChatPanel(chat());
    await chat().request(id, 'send', { text: 'An answer whose cost is not measured' });
    assert.equal((await ended(id, 1)).status, 'done');
    const requestId = chatRequests().at(-1)?.id;
    await waitFor('the answer in the ledger without a cost', () => api.services.usage.entries().find((e) => e.requestId === requestId && e.credits === null), { timeoutMs: 10_000, intervalMs: 20 });
    const sent = chatRequests().length;
    await chat().request(id, 'send', { text: 'One more' });
    const refused = await ended(id, 2);
    assert.equal(refused.status, 'error');
    assert.match(refused.error?.message ?? '', /daily spending limit of "production" is reached/);
    assert.equal(chatRequests().length, sent, 'nothing was sent');
  });
});
