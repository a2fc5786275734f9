import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Conversation } from '../../../src/core/chat/conversation';
import { formatCredits, SPEND_DIGITS } from '../../../src/core/credits';
import { generateImage } from '../../../src/host/images';
import { waitFor } from '../../harness/wait';
import { rawRequest } from '../../unit/emulator/helpers';
import { useImageFixture } from '../images/support';
import { causeKind, collect, isLanguageModelError, model } from '../languageModels/support';
import { useConfiguredEmulator } from '../support/emulatorSetup';
import { LANGUAGE_MODELS } from '../tags';
import { startThroughCommand } from '../localEndpoint/support';
import { openNewChatPanel } from '../support/chatPanels';

const BILLED = ['/chat/completions', '/images/generations'];

describe('Spending limits: reached mid-conversation, the next request of every path is refused before sending (real extension host, emulator prices)', () => {
  const fixture = useImageFixture();
  const services = () => fixture.services();
  const billedRequests = () => fixture().emulator.requests.filter((r) => BILLED.some((p) => r.path.endsWith(p)));

  after(async () => {
    await vscode.workspace.getConfiguration().update('inference.spendingLimits', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('inference.stopLocalEndpoint');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('refuses the chat panel, images and the local endpoint once the day\'s limit is spent; Send Anyway sends exactly one', async () => {
    const api = fixture().api;
    const [model] = fixture().emulator.environments.production.chatModels;
    await services().models.select('chat', model, 'production');
    // The balance before the first answer is known, so that its spend is measured.
    await services().models.list('chat', 'production', { refresh: true });
    // Whatever earlier tests of this window spent today counts: the limit is a hair above it.
    const [today] = await services().billing.spend('production', { day: Number.MAX_SAFE_INTEGER, warningFraction: 1 });
    await vscode.workspace.getConfiguration().update('inference.spendingLimits', { production: { daily: today.counted + 0.000001 } }, vscode.ConfigurationTarget.Global);

    const id = await openNewChatPanel(api.chat);
    const answered = (count: number) => waitFor(`answer ${count}`, async () => {
      const messages = (await api.chat.conversation(id))?.messages ?? [];
      return messages.length === count * 2 && messages.at(-1)?.status !== 'streaming' ? messages.at(-1) : undefined;
    }, { timeoutMs: 20_000, intervalMs: 20 });
    const conversation = async (): Promise<Conversation> => (await api.chat.conversation(id)) ?? assert.fail('no conversation');

    await api.chat.request(id, 'send', { text: 'The answer that reaches the limit' });
    assert.equal((await answered(1)).status, 'done');
    const first = billedRequests().at(-1);
    await waitFor('the first answer\'s measured spend in the ledger', () => services().usage.entries().find((e) => e.requestId === first?.id && e.credits !== null), { timeoutMs: 10_000, intervalMs: 20 });
    const sentBefore = billedRequests().length;
    await waitFor('the status bar\'s warning with the limit', () => {
      const bar = api.statusBar.snapshot();
      return bar.warning && bar.tooltip.includes('Daily spending limit of production reached') || undefined;
    }, { timeoutMs: 5000, intervalMs: 20 });
    // Today's spend with a spend's digits, as the limit's row beside it (issue 37: "Today: 0.01 credits" beside "0.0125 of 0.02").
    const spent = formatCredits(services().usage.spendToday('production').credits, SPEND_DIGITS);
    assert.ok(api.statusBar.snapshot().tooltip.includes(`Today: ${spent} credits`), `Today: ${spent} credits in ${api.statusBar.snapshot().tooltip}`);

    // The chat panel: an error card saying which limit, with its actions; the question stays.
    await api.chat.request(id, 'send', { text: 'A question past the limit' });
    const refused = await answered(2);
    assert.equal(refused.status, 'error');
    assert.equal(refused.error?.kind, 'spendingLimit');
    assert.match(refused.error?.message ?? '', /daily spending limit of "production" is reached: .* credits spent today\. Nothing was sent\. The limit resets at /);
    assert.equal((await conversation()).messages[2].text, 'A question past the limit');

    // Images: refused as a failure the notification shows with the same actions.
    const image = await generateImage(services(), { prompt: 'past the limit', model: 'auto', seed: 1, responseFormat: 'b64_json' }, { open: false });
    assert.equal(image.status, 'failed');
    assert.equal(image.status === 'failed' && image.error.kind, 'spendingLimit');
    assert.deepEqual(services().errors.actionsFor(image.status === 'failed' ? image.error : undefined).map((a) => a.id), ['raiseLimit', 'openLogs']);

    // The local endpoint: 403 with its own error type, in the client's protocol.
    const endpoint = await startThroughCommand(api.localEndpoint, () => vscode.commands.executeCommand('inference.startLocalEndpoint'));
    const viaEndpoint = await rawRequest(`${endpoint.origin}/v1/chat/completions`, { headers: { authorization: `Bearer ${endpoint.token}` }, body: { model, messages: [{ role: 'user', content: 'past the limit' }] } });
    assert.equal(viaEndpoint.status, 403);
    assert.equal((JSON.parse(viaEndpoint.text) as { error: { type: string } }).error.type, 'spending_limit_reached');

    assert.equal(billedRequests().length, sentBefore, 'nothing past the limit reached the service');

    // Send Anyway: this one request, then the limit holds again.
    await api.chat.request(id, 'errorAction', { messageId: refused.id, action: 'sendAnyway' });
    assert.equal((await answered(2)).status, 'done');
    assert.equal(billedRequests().length, sentBefore + 1, 'exactly one request was sent');
    await api.chat.request(id, 'send', { text: 'And one more' });
    assert.equal((await answered(3)).error?.kind, 'spendingLimit');
    assert.equal(billedRequests().length, sentBefore + 1);
  });
});

describe(`Spending limits: the language-model provider refuses past the limit with a LanguageModelError, sending nothing (real extension host) ${LANGUAGE_MODELS}`, () => {
  const fixture = useConfiguredEmulator();
  const services = () => fixture().api.services;

  before(() => services().keys.set('production', fixture().emulator.keys.production.full));
  after(async () => {
    await vscode.workspace.getConfiguration().update('inference.spendingLimits', undefined, vscode.ConfigurationTarget.Global);
    await services().keys.clear('production');
  });

  it('throws the limit\'s message as a LanguageModelError', async () => {
    const [first] = fixture().emulator.environments.production.chatModels;
    const chat = await model(first);
    // Exactly what this window has spent today: the limit is reached.
    const [today] = await services().billing.spend('production', { day: Number.MAX_SAFE_INTEGER, warningFraction: 1 });
    await vscode.workspace.getConfiguration().update('inference.spendingLimits', { production: { daily: today.counted } }, vscode.ConfigurationTarget.Global);
    const before = fixture().emulator.requests.filter((r) => r.path.endsWith('/chat/completions')).length;
    const result = await collect(chat, [vscode.LanguageModelChatMessage.User('Past the limit')]);
    assert.ok(isLanguageModelError(result.error, 'Blocked'), String(result.error));
    assert.equal(causeKind(result.error), 'spendingLimit');
    assert.match(result.error.message, /daily spending limit of "production" is reached/);
    assert.equal(fixture().emulator.requests.filter((r) => r.path.endsWith('/chat/completions')).length, before, 'nothing was sent');
  });
});
