/** Pacing set at run time: the time to first token, the token rate, and a client that leaves while it waits. */
import assert from 'node:assert/strict';
import { request as undiciRequest } from 'undici';
import { bearer, chatBody, rawRequest, sseChunks, useEmulator } from './helpers';
import { waitFor } from '../../harness/wait';

/** Long enough that no machine, however loaded, gets past it while a test looks. */
const FOREVER_MS = 60_000;

describe('emulator: pacing', () => {
  const emu = useEmulator({ firstTokenDelayMs: 0 });
  const url = (): string => `${emu().environments.production.baseUrl}/chat/completions`;
  const headers = (): Record<string, string> => ({ ...bearer(emu().keys.production.full), 'content-type': 'application/json' });
  const control = (route: string, method = 'POST', body?: unknown) =>
    rawRequest(`${emu().environments.production.origin}/__emulator/${route}`, { method, body });

  it('sends a stream\'s headers at once and its first event only after firstTokenDelayMs', async () => {
    emu().setPacing('production', { firstTokenDelayMs: 200 });
    const started = Date.now();
    const res = await undiciRequest(url(), { method: 'POST', headers: headers(), body: JSON.stringify(chatBody('emu-chat-small', { stream: true, max_tokens: 3 })) });
    assert.equal(res.statusCode, 200);
    let firstEventAt: number | undefined;
    let text = '';
    for await (const piece of res.body) {
      firstEventAt ??= Date.now();
      text += (piece as Buffer).toString('utf8');
    }
    assert.ok(firstEventAt !== undefined && firstEventAt - started >= 200, `first event after ${(firstEventAt ?? 0) - started} ms`);
    assert.ok(sseChunks(text).some((chunk) => chunk.choices[0]?.delta.content), 'then the answer streams as usual');
  });

  it('holds the body of a stream back while it waits, with the headers already out', async () => {
    emu().setPacing('production', { firstTokenDelayMs: FOREVER_MS });
    const controller = new AbortController();
    const res = await undiciRequest(url(), { method: 'POST', signal: controller.signal, headers: headers(), body: JSON.stringify(chatBody('emu-chat-small', { stream: true })) });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/event-stream/);
    const record = emu().requests[0];
    assert.equal(record.bytesSent, 0, 'no event before the first token');
    controller.abort();
    await res.body.dump().catch(() => undefined);
  });

  it('delays a non-streaming answer by the wait too', async () => {
    emu().setPacing('production', { firstTokenDelayMs: 150 });
    const started = Date.now();
    const res = await rawRequest(url(), { headers: bearer(emu().keys.production.full), body: chatBody('emu-chat-small', { max_tokens: 2 }) });
    assert.equal(res.status, 200);
    assert.ok(Date.now() - started >= 150, `answered after ${Date.now() - started} ms`);
  });

  it('logs a client that leaves during the wait and charges it no output, streaming or not', async () => {
    emu().setPacing('production', { firstTokenDelayMs: FOREVER_MS });
    const promptTokens = 5; // "Tell me about emulators": 4 words + 1 per message
    const requestFee = 0.5 + promptTokens * 0.002;
    for (const stream of [true, false]) {
      emu().reset();
      emu().setPacing('production', { firstTokenDelayMs: FOREVER_MS });
      const controller = new AbortController();
      const pending = undiciRequest(url(), { method: 'POST', signal: controller.signal, headers: headers(), body: JSON.stringify(chatBody('emu-chat-small', { stream })) });
      if (stream) assert.equal((await pending).statusCode, 200, 'the headers came');
      else await waitFor('the request to be logged', () => emu().requests.length === 1, { timeoutMs: 3000, intervalMs: 10 });
      controller.abort();
      await pending.then((res) => res.body.dump()).catch(() => undefined);
      const record = emu().requests[0];
      await waitFor('the request to finish', () => record.finishedAt !== undefined, { timeoutMs: 3000, intervalMs: 10 });
      assert.ok(record.clientClosedAt !== undefined, `stream ${stream}: the log saw the client leave`);
      assert.equal(record.bytesSent, 0, `stream ${stream}: nothing was sent`);
      assert.ok(Math.abs(record.creditsCharged - requestFee) < 1e-9, `stream ${stream}: charged ${record.creditsCharged}`);
      assert.ok(Math.abs(emu().balance('production') - (1000 - requestFee)) < 1e-9, 'the reserve went back but the fee');
    }
  });

  it('sets pacing per environment over the control API, refuses bad values, and reset() restores the options', async () => {
    const state = async () => (JSON.parse((await control('state', 'GET')).text) as { pacing: unknown }).pacing;
    assert.deepEqual(await state(), { firstTokenDelayMs: 0, tokensPerSecond: 0 });
    const set = await control('pacing', 'POST', { firstTokenDelayMs: 250 });
    assert.equal(set.status, 200);
    assert.deepEqual(JSON.parse(set.text), { pacing: { firstTokenDelayMs: 250, tokensPerSecond: 0 } });
    assert.equal((await control('pacing', 'POST', { tokensPerSecond: 40 })).status, 200);
    assert.deepEqual(await state(), { firstTokenDelayMs: 250, tokensPerSecond: 40 }, 'fields not given stay');
    const preview = JSON.parse((await rawRequest(`${emu().environments.preview.origin}/__emulator/state`)).text) as { pacing: unknown };
    assert.deepEqual(preview.pacing, { firstTokenDelayMs: 0, tokensPerSecond: 0 }, 'the other environment keeps its own');
    for (const bad of [{ firstTokenDelayMs: -1 }, { tokensPerSecond: 'fast' }, { firstTokenDelayMs: Infinity }]) {
      assert.equal((await control('pacing', 'POST', bad)).status, 400, JSON.stringify(bad));
    }
    assert.throws(() => emu().setPacing('all', { firstTokenDelayMs: -5 }));
    emu().reset();
    assert.deepEqual(await state(), { firstTokenDelayMs: 0, tokensPerSecond: 0 });
  });

  it('paces tokens at the rate setPacing gives', async () => {
    emu().setPacing('all', { tokensPerSecond: 100 });
    const started = Date.now();
    const res = await rawRequest(url(), { headers: bearer(emu().keys.production.full), body: chatBody('emu-chat-small', { max_tokens: 20 }) });
    assert.equal(res.status, 200);
    assert.ok(Date.now() - started >= 190, `took ${Date.now() - started} ms`);
  });
});
