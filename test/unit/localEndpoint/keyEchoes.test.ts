/**
 * A service (or a proxy before it) that echoes the key everywhere it can: in every relayed header, in
 * a 200 stream's text and error events, escaped as JSON (`\u0073…`) or as a URL (`%73…`), split across
 * reads. Through both protocols of the local endpoint, no form of the key reaches the client.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { InferenceClient } from '../../../src/core/api/client';
import { createEndpointToken } from '../../../src/core/localEndpoint/auth';
import { LocalEndpointServer } from '../../../src/core/localEndpoint/server';
import { bearer, rawRequest, type RawResponse } from '../emulator/helpers';

const PREFIX = 'svc-';
const KEY = `${PREFIX}EchoedKey0123456789abcdefghijklmn`;

/** Every character as a JSON `\u` escape / as a percent escape. */
const jsonEscaped = (text: string) => [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
const percentEscaped = (text: string) => [...text].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join('');

/** What a client could make of the text: as it is, and with JSON and URL escapes decoded (nested ones too). */
function readings(text: string): string[] {
  const forms = [text];
  let decoded = text;
  for (let i = 0; i < 3; i++) {
    decoded = decoded.replace(/\\u([0-9a-f]{4})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)))
      .replace(/%([0-9a-f]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)))
      .replace(/\\([\\/])/g, '$1');
    forms.push(decoded);
  }
  return forms;
}

function assertNoKey(response: RawResponse, where: string): void {
  for (const form of readings(`${response.text}\n${JSON.stringify(response.headers)}`)) {
    assert.ok(!form.includes(KEY) && !form.includes(KEY.slice(PREFIX.length)), `the key reached the client (${where}): ${form.slice(0, 400)}`);
  }
}

const chunk = (content: string) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content } }] }).replace('"KEYESC"', `"${jsonEscaped(KEY)}"`)}\n\n`;

/** A service that echoes the key: in headers always, then in the body as the path asks. */
function hostileService(): http.Server {
  return http.createServer((req, res) => {
    const key = String(req.headers.authorization).replace(/^Bearer /, '');
    const echoed = { 'x-request-id': `req-${String(req.headers.authorization)}`, 'x-service-model-id': key, 'x-ratelimit-limit-requests': percentEscaped(key), 'x-service-balance-credits': `10 ${key}` };
    let body = '';
    req.on('data', (piece: Buffer) => { body += piece.toString('utf8'); });
    req.on('end', () => {
      const asked = body ? (JSON.parse(body) as { stream?: boolean; messages?: Array<{ content: string }> }) : {};
      const scenario = asked.messages?.[0]?.content ?? 'models';
      if (scenario === 'error') {
        res.writeHead(401, { ...echoed, 'content-type': 'application/json' });
        res.end(`{"error":{"message":"unknown key ${jsonEscaped(KEY)} (Authorization: Bearer ${jsonEscaped('othertoken123456')})","code":"bad_key"}}`);
        return;
      }
      if (scenario === 'models') {
        res.writeHead(200, { ...echoed, 'content-type': 'application/json' });
        res.end(JSON.stringify({ object: 'list', data: [{ id: 'm', object: 'model', created: 1, owned_by: key }] }));
        return;
      }
      if (!asked.stream) {
        res.writeHead(200, { ...echoed, 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: 'c', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: `the key is ${key}` }, finish_reason: 'stop' }] }));
        return;
      }
      res.writeHead(200, { ...echoed, 'content-type': 'text/event-stream' });
      // The key raw, split across two writes; then JSON-escaped; then an error event that echoes the header, escaped.
      const raw = chunk(`hello ${key} world`);
      const half = raw.indexOf(key) + 10;
      res.write(raw.slice(0, half));
      setTimeout(() => {
        res.write(raw.slice(half) + chunk('KEYESC'));
        if (scenario === 'stream-error') {
          res.end(`data: {"error":{"message":"echo: Bearer ${jsonEscaped(KEY)}","type":"server_error"}}\n\n`);
        } else {
          res.end(`${chunk(' token: kept')}data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n`);
        }
      }, 20);
    });
  });
}

describe('local endpoint: a key the service echoes never reaches a client', () => {
  let service: http.Server;
  let client: InferenceClient;
  let server: LocalEndpointServer;
  let token = '';
  before(async () => {
    service = hostileService();
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    client = new InferenceClient({ baseUrl: `http://127.0.0.1:${(service.address() as AddressInfo).port}/api/v1`, apiKey: KEY, keyPrefix: PREFIX });
    token = createEndpointToken();
    server = new LocalEndpointServer({ port: 0, token, forward: (request, signal) => client.forward(request, { signal }) });
    await server.listen();
  });
  after(async () => {
    await server.close();
    await client.close();
    await new Promise((resolve) => service.close(resolve));
  });

  const anthropicHeaders = () => ({ 'x-api-key': token, 'anthropic-version': '2023-06-01' });
  const openaiChat = (content: string, stream: boolean) => rawRequest(`${server.baseUrl}/v1/chat/completions`, { headers: bearer(token), body: { model: 'm', stream, messages: [{ role: 'user', content }] } });
  const messages = (content: string, stream: boolean) => rawRequest(`${server.baseUrl}/v1/messages`, { headers: anthropicHeaders(), body: { model: 'm', stream, max_tokens: 50, messages: [{ role: 'user', content }] } });

  it('redacts every relayed header value, the Anthropic request-id copy included', async () => {
    for (const res of [await openaiChat('plain', false), await messages('plain', false), await rawRequest(`${server.baseUrl}/v1/models`, { headers: bearer(token) })]) {
      assert.equal(res.status, 200);
      assert.equal(res.headers['x-request-id'], 'req-Bearer [redacted]');
      assert.equal(res.headers['x-service-model-id'], '[redacted]');
      assert.equal(res.headers['x-ratelimit-limit-requests'], '[redacted]');
      assertNoKey(res, 'headers');
    }
    const anthropic = await rawRequest(`${server.baseUrl}/v1/models`, { headers: anthropicHeaders() });
    assert.equal(anthropic.headers['request-id'], 'req-Bearer [redacted]');
    assertNoKey(anthropic, 'Anthropic model list');
  });

  it('removes the key from a 200 stream (raw, split across reads, JSON-escaped) and leaves the rest of the answer as it was', async () => {
    const relayed = await openaiChat('stream', true);
    assert.equal(relayed.status, 200);
    assertNoKey(relayed, 'chat-completions stream');
    assert.match(relayed.text, /hello \[redacted\] world/);
    assert.match(relayed.text, /"content":" token: kept"/, 'a model\'s words are not taken for credentials');
    assert.match(relayed.text, /data: \[DONE\]/);
    const translated = await messages('stream', true);
    assertNoKey(translated, 'Messages stream');
    assert.match(translated.text, /hello \[redacted\] world/);
    assert.match(translated.text, /event: message_stop/);
  });

  it('redacts an error event inside a 200 stream on both paths, escapes decoded', async () => {
    const relayed = await openaiChat('stream-error', true);
    assertNoKey(relayed, 'chat-completions error event');
    assert.match(relayed.text, /data: \{"error":\{"message":"echo: Bearer \[redacted\]"/);
    const translated = await messages('stream-error', true);
    assertNoKey(translated, 'Messages error event');
    assert.match(translated.text, /event: error\ndata: .*echo: Bearer \[redacted\]/);
  });

  it('redacts a JSON error body after decoding, on both paths, non-streamed answers too', async () => {
    for (const res of [await openaiChat('error', false), await messages('error', false), await openaiChat('plain', false), await messages('plain', false)]) {
      assertNoKey(res, `HTTP ${res.status}`);
    }
    const relayed = await openaiChat('error', false);
    assert.equal(relayed.status, 401);
    const said = (JSON.parse(relayed.text) as { error: { message: string } }).error.message;
    assert.equal(said, 'unknown key [redacted] (Authorization: Bearer [redacted])', 'the bearer pattern applies to the decoded text');
    const translated = await messages('error', false);
    assert.match(translated.text, /unknown key \[redacted\]/);
  });
});
