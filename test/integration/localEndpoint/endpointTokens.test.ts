import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { waitFor } from '../../harness/wait';
import { rawRequest } from '../../unit/emulator/helpers';
import { useConfiguredEmulator } from '../support/emulatorSetup';
import { logWritten, writtenFiles } from '../support/files';
import { startThroughCommand, type Started } from './support';

describe('Local endpoint: named tokens with their own daily limits, attributed in the ledger, revoked at once (real extension host, emulator prices)', () => {
  const fixture = useConfiguredEmulator();
  const services = () => fixture().api.services;
  const billed = () => fixture().emulator.requests.filter((r) => r.path.endsWith('/chat/completions'));
  let endpoint: Started;
  /** Every named token made here: none may be found in any file. */
  const made: string[] = [];
  const create = async (name: string, dailyLimit: number | undefined) => {
    const result = await services().endpointTokens.create(name, dailyLimit);
    made.push(result.secret);
    return result;
  };
  const ask = (token: string, stream = false) => rawRequest(`${endpoint.origin}/v1/chat/completions`, {
    headers: { authorization: `Bearer ${token}` },
    body: { model: 'emu-chat-small', messages: [{ role: 'user', content: 'Hello from a tool' }], stream },
  });

  before(async () => {
    await services().keys.set('production', fixture().emulator.keys.production.full);
    endpoint = await startThroughCommand(fixture().api.localEndpoint, () => vscode.commands.executeCommand('inference.startLocalEndpoint'));
  });
  // Each test starts from a fresh wallet (the fixture resets the emulator): the balance before the first
  // answer is read again, so that its spend is measured.
  beforeEach(() => services().models.list('chat', 'production', { refresh: true }));
  after(async () => {
    for (const token of services().endpointTokens.list()) await services().endpointTokens.revoke(token);
    await vscode.commands.executeCommand('inference.stopLocalEndpoint');
  });

  it('refuses a named token past its daily limit, sending nothing, while the per-run token still works', async () => {
    const { secret, token } = await create('limited tool', 0.000001);
    const first = await ask(secret);
    assert.equal(first.status, 200, first.text);
    const firstId = billed().at(-1)?.id;
    const recorded = await waitFor('the answer\'s measured spend, attributed to the token', () => services().usage.entries().find((e) => e.requestId === firstId), { timeoutMs: 10_000, intervalMs: 20 });
    assert.deepEqual(recorded.token, { id: token.id, name: 'limited tool' });
    assert.ok(Math.abs((recorded.credits ?? NaN) - (billed().at(-1)?.creditsCharged ?? NaN)) < 1e-6, `measured ${recorded.credits}, the emulator charged ${billed().at(-1)?.creditsCharged}`);

    const sentBefore = billed().length;
    for (const stream of [false, true]) {
      const refused = await ask(secret, stream);
      assert.equal(refused.status, 403);
      const error = (JSON.parse(refused.text) as { error: { type: string; message: string } }).error;
      assert.equal(error.type, 'spending_limit_reached');
      assert.match(error.message, /daily spending limit of the endpoint token "limited tool" set in VS Code is reached/);
      assert.ok(!refused.text.includes(secret));
    }
    assert.equal(billed().length, sentBefore, 'nothing past the token\'s limit reached the service');

    const perRun = await ask(endpoint.token, true);
    assert.equal(perRun.status, 200, 'the per-run token still works');
    assert.equal(billed().length, sentBefore + 1);
    const perRunId = billed().at(-1)?.id;
    const perRunEntry = await waitFor('the per-run request in the ledger', () => services().usage.entries().find((e) => e.requestId === perRunId), { timeoutMs: 10_000, intervalMs: 20 });
    assert.equal(perRunEntry.token?.name, 'per-run token');
    assert.ok(perRunEntry.credits !== null && perRunEntry.credits > 0, 'a streamed answer is measured from the settled balance');
    const spend = await services().billing.tokenSpend(token.id, 0.000001);
    assert.ok(Math.abs(spend.measured - (recorded.credits ?? NaN)) < 1e-6, 'the token\'s day counts its own requests only');
  });

  it('refuses a revoked token at once, with the endpoint still running', async () => {
    const { secret, token } = await create('short-lived tool', undefined);
    assert.equal((await ask(secret)).status, 200);
    const port = endpoint.origin;
    await services().endpointTokens.revoke(token);
    const sentBefore = billed().length;
    const refused = await ask(secret);
    assert.equal(refused.status, 401);
    assert.equal((JSON.parse(refused.text) as { error: { code: string } }).error.code, 'invalid_local_token');
    assert.equal(billed().length, sentBefore);
    assert.equal(fixture().api.localEndpoint.state?.origin, port, 'the same run of the endpoint');
    assert.equal((await ask(endpoint.token)).status, 200);
  });

  it('names a token in the log and the ledger, and writes none of them to any file', async () => {
    await logWritten(services().context, services().log);
    const files = writtenFiles(services().context, vscode.workspace.workspaceFolders);
    assert.ok(files.some(([, text]) => text.includes('token "limited tool"')), 'the log names the token');
    assert.ok(files.some(([file, text]) => file.endsWith('ledger.jsonl') && text.includes('"name":"limited tool"')), 'the ledger names the token');
    assert.equal(made.length, 2);
    for (const [file, text] of files) {
      for (const secret of made) assert.equal(text.includes(secret), false, `an endpoint token was found in ${file}`);
    }
  });
});
