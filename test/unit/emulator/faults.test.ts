/** Every injectable fault, observed with raw node:http, plus the queue's matching rules. */
import assert from 'node:assert/strict';
import type { FaultName } from '../../emulator';
import { bearer, chatBody, parseSse, rawRequest, sseChunks, streamedText, useEmulator, type RawOptions, type RawResponse } from './helpers';

describe('emulator: faults', () => {
  const emu = useEmulator();
  const chat = (extra: Record<string, unknown> = {}, options: RawOptions = {}, env: 'production' | 'preview' = 'production'): Promise<RawResponse> =>
    rawRequest(`${emu().environments[env].baseUrl}/chat/completions`, {
      ...options,
      headers: { ...bearer(emu().keys[env].full), ...options.headers },
      body: chatBody(env === 'production' ? 'emu-chat-small' : 'emu-chat-next', extra),
    });
  const stream = (options: RawOptions = {}): Promise<RawResponse> => chat({ stream: true }, options);
  const withFault = async (fault: FaultName, options: RawOptions = {}): Promise<RawResponse> => {
    emu().injectFault('production', { fault });
    return stream(options);
  };
  let normalText = '';
  before(async () => { normalText = streamedText((await stream()).text); });

  const statuses: [FaultName, number][] = [
    ['http-400', 400], ['http-401', 401], ['http-402', 402], ['http-403', 403],
    ['http-404', 404], ['http-429', 429], ['http-500', 500], ['http-503', 503],
  ];
  for (const [fault, status] of statuses) {
    it(`${fault} answers ${status} with the JSON error body and a request id`, async () => {
      emu().injectFault('production', { fault, retryAfterSeconds: 7 });
      const res = await chat();
      assert.equal(res.status, status);
      assert.match(String(res.headers['content-type']), /^application\/json/);
      assert.match((JSON.parse(res.text) as { error: { code: string } }).error.code, /^emulated_/);
      assert.match(String(res.headers['x-request-id']), /^req_/);
      if (status === 429 || status === 503) assert.equal(res.headers['retry-after'], '7');
      assert.deepEqual(emu().requests.at(-1)?.faults, [fault]);
      assert.equal((await chat()).status, 200, 'consumed once');
    });
  }

  it('html-500 answers with an HTML page and text-502 with plain text', async () => {
    emu().injectFault('production', { fault: 'html-500' });
    const html = await chat();
    assert.equal(html.status, 500);
    assert.match(String(html.headers['content-type']), /^text\/html/);
    assert.match(html.text, /^<!DOCTYPE html>/);
    emu().injectFault('production', { fault: 'text-502' });
    const text = await chat();
    assert.equal(text.status, 502);
    assert.match(String(text.headers['content-type']), /^text\/plain/);
    assert.throws(() => JSON.parse(text.text));
  });

  it('html-404 answers with a proxy page, redirect-308 with a Location and no body', async () => {
    emu().injectFault('production', { fault: 'html-404' });
    const html = await chat();
    assert.equal(html.status, 404);
    assert.match(String(html.headers['content-type']), /^text\/html/);
    emu().injectFault('production', { fault: 'redirect-308' });
    const moved = await chat();
    assert.equal(moved.status, 308);
    assert.equal(moved.headers.location, 'https://moved.invalid/api/v1/chat/completions');
    assert.equal(moved.text, '');
    emu().injectFault('production', { fault: 'redirect-308', location: 'https://elsewhere.invalid/api/v1' });
    assert.equal((await chat()).headers.location, 'https://elsewhere.invalid/api/v1');
  });

  it('no-balance-header answers normally without x-service-balance-credits', async () => {
    const models = () => rawRequest(`${emu().environments.production.baseUrl}/models`, { method: 'GET', headers: bearer(emu().keys.production.full) });
    assert.ok((await models()).headers['x-service-balance-credits'] !== undefined);
    emu().injectFault('production', { fault: 'no-balance-header' });
    const bare = await models();
    assert.equal(bare.status, 200);
    assert.equal(bare.headers['x-service-balance-credits'], undefined);
    assert.ok((JSON.parse(bare.text) as { data: unknown[] }).data.length > 0);
    emu().injectFault('production', { fault: 'no-balance-header' });
    const answer = await chat();
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['x-service-balance-credits'], undefined, 'on chat too');
  });

  it('the echo-authorization test faults repeat the Authorization header in an error body and a stream error', async () => {
    const key = emu().keys.production.full;
    emu().injectFault('production', { fault: 'echo-authorization' });
    const echoed = await chat();
    assert.equal(echoed.status, 400);
    assert.ok((JSON.parse(echoed.text) as { error: { message: string } }).error.message.includes(`authorization: Bearer ${key}`));
    const streamed = await withFault('echo-authorization-mid-stream');
    const error = parseSse(streamed.text).map((event) => event.data ?? '').find((data) => data.includes('"error"'));
    assert.ok(error?.includes(key), 'the stream error event holds the key');
    assert.match(streamed.text.slice(0, streamed.text.indexOf('"error"')), /"content":"[^"]+"/, 'after some content');
  });

  it('slow-first-byte delays the answer by delayMs', async () => {
    emu().injectFault('production', { fault: 'slow-first-byte', delayMs: 300 });
    const started = Date.now();
    const res = await chat();
    assert.equal(res.status, 200);
    assert.ok(Date.now() - started >= 290, `took ${Date.now() - started} ms`);
  });

  it('hang never answers; the client times out and the log records it leaving', async () => {
    emu().injectFault('production', { fault: 'hang' });
    const res = await chat({}, { timeoutMs: 300 });
    assert.equal(res.status, 0);
    assert.equal(res.error, 'client timeout');
    const record = emu().requests.at(-1);
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(record?.status, 0);
    assert.ok(record?.clientClosedAt !== undefined);
  });

  it('reset-mid-stream sends some chunks then cuts the connection', async () => {
    const res = await withFault('reset-mid-stream');
    assert.equal(res.status, 200);
    assert.equal(res.complete, false);
    assert.ok(res.error, 'the client saw the connection end abruptly');
    const text = streamedText(res.text.slice(0, res.text.lastIndexOf('\n\n') + 2));
    assert.ok(text.length > 0 && normalText.startsWith(text) && text.length < normalText.length);
    assert.ok(!res.text.includes('[DONE]'));
  });

  it('stall-mid-stream sends some chunks, then nothing, with the connection open until the client leaves', async () => {
    const res = await withFault('stall-mid-stream', { timeoutMs: 500 });
    assert.equal(res.error, 'client timeout');
    const record = emu().requests.at(-1);
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(record?.status, 200);
    assert.ok((record?.bytesSent ?? 0) > 0, 'some chunks were sent before the silence');
    assert.ok(record?.clientClosedAt !== undefined, 'the client left before the emulator ended the response');
  });

  it('no-done ends the response cleanly without data: [DONE]', async () => {
    const res = await withFault('no-done');
    assert.equal(res.complete, true);
    assert.ok(!res.text.includes('[DONE]'));
    assert.equal(streamedText(res.text), normalText);
    assert.deepEqual(sseChunks(res.text).at(-1)?.choices, []);
  });

  it('malformed-chunk sends exactly one data line that is not JSON', async () => {
    const res = await withFault('malformed-chunk');
    const data = parseSse(res.text).map((e) => e.data).filter((d): d is string => d !== undefined && d !== '[DONE]');
    const bad = data.filter((d) => { try { JSON.parse(d); return false; } catch { return true; } });
    assert.equal(bad.length, 1);
    assert.equal(data.filter((d) => d !== bad[0]).map((d) => (JSON.parse(d) as { choices: { delta?: { content?: string } }[] }).choices[0]?.delta?.content ?? '').join(''), normalText);
  });

  it('error-mid-stream sends an error event after some content, then ends', async () => {
    const res = await withFault('error-mid-stream');
    const events = parseSse(res.text);
    assert.equal(res.complete, true);
    assert.notEqual(events.at(-1)?.data, '[DONE]');
    const last = JSON.parse(events.at(-1)?.data ?? '{}') as { error?: { code: string } };
    assert.equal(last.error?.code, 'stream_error');
    assert.ok(sseChunks(res.text).some((c) => c.choices?.[0]?.delta.content));
  });

  it('mid-stream faults still fire on replies shorter than three chunks', async () => {
    emu().injectFault('production', { fault: 'error-mid-stream' });
    const res = await chat({ stream: true, max_tokens: 2 });
    assert.equal(sseChunks(res.text).at(-1)?.error?.code, 'stream_error');
    assert.equal(sseChunks(res.text).filter((c) => c.choices?.[0]?.delta.content).length, 2);
  });

  it('keepalive-comments adds : ping lines between events without changing the text', async () => {
    const res = await withFault('keepalive-comments');
    assert.ok(parseSse(res.text).filter((e) => e.comment === 'ping').length >= 3);
    assert.match(res.text, /\n: ping\n\n/);
    assert.equal(streamedText(res.text), normalText);
  });

  it('crlf uses \\r\\n line endings only', async () => {
    const res = await withFault('crlf');
    assert.match(res.text, /\r\n\r\n/);
    assert.equal(/(^|[^\r])\n/.test(res.text), false);
    assert.equal(streamedText(res.text), normalText);
  });

  it('tiny-writes delivers the body in many small pieces that reassemble exactly', async () => {
    const res = await withFault('tiny-writes');
    assert.ok(res.pieces > 50, `${res.pieces} pieces`);
    assert.equal(streamedText(res.text), normalText);
    assert.equal(parseSse(res.text).at(-1)?.data, '[DONE]');
  });

  it('large-stream sends about 1 MB of content and still ends with [DONE]', async () => {
    const res = await withFault('large-stream');
    assert.ok(Buffer.byteLength(streamedText(res.text)) >= 1024 * 1024);
    assert.equal(parseSse(res.text).at(-1)?.data, '[DONE]');
    const charged = emu().requests.at(-1)?.creditsCharged ?? Infinity;
    assert.ok(charged <= 0.5 + (4096 + 10) * 0.002, 'never more than the reserve');
  });

  it('usage-chunk keeps the usage-only chunk with choices: []', async () => {
    const res = await withFault('usage-chunk');
    const usage = sseChunks(res.text).find((c) => c.choices.length === 0);
    assert.ok(usage?.usage && usage.usage.completion_tokens > 0);
  });

  describe('queue rules', () => {
    it('consumes a fault `times` times, in order', async () => {
      emu().injectFault('production', { fault: 'http-503', times: 2 });
      emu().injectFault('production', { fault: 'http-500' });
      assert.deepEqual([(await chat()).status, (await chat()).status, (await chat()).status, (await chat()).status], [503, 503, 500, 200]);
    });

    it('only matches requests whose path ends with spec.path', async () => {
      emu().injectFault('production', { fault: 'http-500', path: '/chat/completions' });
      const models = await rawRequest(`${emu().environments.production.baseUrl}/models`, { headers: bearer(emu().keys.production.full) });
      assert.equal(models.status, 200);
      assert.equal((await chat()).status, 500);
    });

    it('keeps stream faults queued for non-streaming requests', async () => {
      emu().injectFault('production', { fault: 'no-done' });
      assert.equal((await chat()).status, 200);
      assert.ok(!(await stream()).text.includes('[DONE]'));
    });

    it("applies to one environment, or to each with 'all'", async () => {
      emu().injectFault('preview', { fault: 'http-500' });
      assert.equal((await chat()).status, 200);
      assert.equal((await chat({}, {}, 'preview')).status, 500);
      emu().injectFault('all', { fault: 'http-503' });
      assert.equal((await chat()).status, 503);
      assert.equal((await chat({}, {}, 'preview')).status, 503);
      emu().injectFault('all', { fault: 'http-503' });
      emu().clearFaults();
      assert.equal((await chat()).status, 200);
    });

    it('takes per-request faults from x-emulator-fault, combined, without touching the queue', async () => {
      emu().injectFault('production', { fault: 'http-500' });
      const res = await stream({ headers: { 'x-emulator-fault': 'crlf, keepalive-comments' } });
      assert.equal(res.status, 200);
      assert.match(res.text, /\r\n: ping\r\n\r\n/);
      assert.equal((await chat()).status, 500, 'the queued fault is still there');
      const unknown = await chat({}, { headers: { 'x-emulator-fault': 'meteor' } });
      assert.equal(unknown.status, 400);
    });
  });
});
