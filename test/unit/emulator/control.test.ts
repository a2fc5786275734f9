/** Control endpoints, reset, clean shutdown and the CLI. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { startEmulator } from '../../emulator';
import { bearer, chatBody, rawRequest, useEmulator } from './helpers';
import { waitFor } from '../../harness/wait';

interface State {
  environment: string;
  balances: { main: number; broke: number };
  keys: { label: string; scopes: string[] }[];
  faults: { fault: string }[];
  requests: { id: string; path: string; keyLabel?: string }[];
}

describe('emulator: control endpoints', () => {
  const emu = useEmulator();
  const control = (env: 'production' | 'preview', route: string, method = 'GET', body?: unknown): ReturnType<typeof rawRequest> =>
    rawRequest(`${emu().environments[env].origin}/__emulator/${route}`, { method, body });
  const state = async (env: 'production' | 'preview' = 'production'): Promise<State> => JSON.parse((await control(env, 'state')).text) as State;
  const chat = (env: 'production' | 'preview' = 'production'): ReturnType<typeof rawRequest> =>
    rawRequest(`${emu().environments[env].baseUrl}/chat/completions`, {
      headers: bearer(emu().keys[env].full), body: chatBody(emu().environments[env].chatModels[0]),
    });

  it('queues a fault for that environment only, and clears it', async () => {
    const created = await control('production', 'faults', 'POST', { fault: 'http-503', times: 2 });
    assert.equal(created.status, 201);
    assert.deepEqual((await state()).faults.map((f) => f.fault), ['http-503']);
    assert.equal((await chat('preview')).status, 200);
    assert.equal((await chat()).status, 503);
    assert.equal((await control('production', 'faults', 'DELETE')).status, 200);
    assert.equal((await chat()).status, 200);
  });

  it('refuses an invalid fault spec with 400', async () => {
    assert.equal((await control('production', 'faults', 'POST', { fault: 'meteor' })).status, 400);
    assert.equal((await control('production', 'faults', 'POST', { fault: 'hang', times: -1 })).status, 400);
    assert.equal((await control('production', 'faults', 'POST', '{oops')).status, 400);
    assert.equal((await control('production', 'nothing', 'POST')).status, 404);
  });

  it('reports balances and the request log, never a key', async () => {
    await chat();
    const res = await control('production', 'state');
    const s = JSON.parse(res.text) as State;
    assert.equal(s.environment, 'production');
    assert.ok(s.balances.main < 1000);
    assert.equal(s.balances.broke, 0);
    assert.equal(s.requests.length, 1, 'only API requests are logged, not control calls');
    assert.equal(s.requests[0].keyLabel, 'full');
    assert.deepEqual(s.keys.map((k) => k.label).sort(), ['broke', 'chatOnly', 'expired', 'full', 'lowRpm', 'revoked']);
    for (const key of [...Object.values(emu().keys.production), ...Object.values(emu().keys.preview)]) {
      assert.ok(!res.text.includes(key), 'no key in the state');
      assert.ok(!JSON.stringify(emu().requests).includes(key), 'no key in the request log');
    }
  });

  it('lists extra chat models on request, usable for chat, in that environment only, until reset', async () => {
    const listed = async (env: 'production' | 'preview') => (JSON.parse((await rawRequest(`${emu().environments[env].baseUrl}/models?type=chat`, { method: 'GET', headers: bearer(emu().keys[env].full) })).text) as { data: { id: string }[] }).data.map((m) => m.id);
    const own = await listed('production');
    assert.equal((await control('production', 'models', 'POST', { extraChat: 2000 })).status, 200);
    const long = await listed('production');
    assert.equal(long.length, own.length + 2000);
    assert.equal(new Set(long).size, long.length, 'ids are unique');
    assert.deepEqual(await listed('preview'), emu().environments.preview.chatModels);
    const last = long.at(-1)!;
    const answer = await rawRequest(`${emu().environments.production.baseUrl}/chat/completions`, { headers: bearer(emu().keys.production.full), body: chatBody(last) });
    assert.equal(answer.status, 200);
    assert.equal((await control('production', 'models', 'POST', { extraChat: -1 })).status, 400);
    await control('production', 'reset', 'POST');
    assert.deepEqual(await listed('production'), own);
  });

  it('sets a wallet, and the wallet gates the next call', async () => {
    const res = await control('production', 'wallet', 'POST', { credits: 0.25 });
    assert.equal(res.status, 200);
    assert.equal(emu().balance('production'), 0.25);
    assert.equal(emu().balance('preview'), 1000);
    assert.equal((await chat()).status, 402);
    assert.equal((await control('production', 'wallet', 'POST', { credits: 'lots' })).status, 400);
  });

  it('resets one environment, or all with ?all=1, keeping the keys', async () => {
    const keysBefore = JSON.stringify(emu().keys);
    await chat();
    await chat('preview');
    emu().injectFault('production', { fault: 'http-500' });
    await control('production', 'reset', 'POST');
    assert.equal(emu().balance('production'), 1000);
    assert.equal((await state()).faults.length, 0);
    assert.deepEqual(emu().requests.map((r) => r.env), ['preview']);
    assert.ok(emu().balance('preview') < 1000);
    await control('production', 'reset?all=1', 'POST');
    assert.equal(emu().balance('preview'), 1000);
    assert.equal(emu().requests.length, 0);
    assert.equal(JSON.stringify(emu().keys), keysBefore);
    assert.equal((await chat()).status, 200, 'the keys still work');
  });

  it('reset() also clears RPM windows', async () => {
    const models = `${emu().environments.production.baseUrl}/models`;
    const headers = bearer(emu().keys.production.lowRpm);
    for (let i = 0; i < 2; i++) await rawRequest(models, { headers });
    assert.equal((await rawRequest(models, { headers })).status, 429);
    emu().reset();
    assert.equal((await rawRequest(models, { headers })).status, 200);
  });
});

describe('emulator: shutdown', () => {
  const handles = (): number => process.getActiveResourcesInfo().filter((r) => r === 'TCPServerWrap' || r === 'TCPSocketWrap' || r === 'Timeout').length;

  it('close() destroys hanging and streaming connections and leaves no servers, sockets or timers', async () => {
    await new Promise((r) => setTimeout(r, 1)); // mocha arms its own test timer on the first await
    const before = handles();
    const emu = await startEmulator({ tokensPerSecond: 5 });
    const base = emu.environments.production.baseUrl;
    const headers = bearer(emu.keys.production.full);
    emu.injectFault('production', { fault: 'hang', path: '/models' });
    const hanging = rawRequest(`${base}/models`, { headers });
    const streaming = rawRequest(`${base}/chat/completions`, { headers, body: chatBody('emu-chat-small', { stream: true }) });
    await waitFor('both requests to be logged', () => emu.requests.length === 2 && emu.requests.every((r) => r.status !== 0 || r.faults !== undefined), { timeoutMs: 3000, intervalMs: 10 });
    const started = Date.now();
    await emu.close();
    assert.ok(Date.now() - started < 500, 'close does not wait for open requests');
    const [h, s] = await Promise.all([hanging, streaming]);
    assert.equal(h.status, 0);
    assert.equal(s.complete, false);
    assert.equal((await rawRequest(`${base}/models`, { headers })).status, 0, 'the port no longer answers');
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(handles(), before);
    assert.ok(emu.balance('production') > 1000 - 1, 'the cut stream was refunded');
  });
});

describe('emulator: CLI', () => {
  it('prints base URLs and keys as one JSON line, serves, and exits cleanly on SIGTERM', async function () {
    this.timeout(10000);
    const cli = spawn(process.execPath, [path.resolve(__dirname, '../../emulator/cli.js'), '--json', '--tokens-per-second', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    cli.stdout.on('data', (c: Buffer) => { out += c.toString('utf8'); });
    const exited = new Promise<number | null>((resolve) => cli.on('exit', (code) => resolve(code)));
    await waitFor('the first line of output', () => out.includes('\n'), { timeoutMs: 5000, intervalMs: 10 });
    const info = JSON.parse(out.split('\n')[0]) as { environments: Record<string, { baseUrl: string }>; keys: Record<string, { full: string }> };
    const res = await rawRequest(`${info.environments.preview.baseUrl}/models`, { headers: bearer(info.keys.preview.full) });
    assert.equal(res.status, 200);
    assert.match(res.text, /emu-chat-next/);
    cli.kill('SIGTERM');
    assert.equal(await exited, 0);
  });
});
