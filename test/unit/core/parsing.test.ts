import assert from 'node:assert/strict';
import { checkApiKeyFormat } from '../../../src/core/api/apiKey';
import { chunkEventReader, parseChatEventStream, type ChunkEvent } from '../../../src/core/api/chatStream';
import { actionsForError } from '../../../src/core/errorActions';
import { ApiError } from '../../../src/core/api/errors';
import { decodeImageItem, sniffImageType } from '../../../src/core/api/imageData';
import { describeErrorBody, type ErrorBody } from '../../../src/core/api/responseErrors';
import { parseResponseMeta, parseRetryAfter } from '../../../src/core/api/responseMeta';
import { drain } from './support';

const META = { status: 200, receivedAt: 0 };

async function* bytes(...pieces: Array<string | number[]>): AsyncGenerator<Uint8Array> {
  for (const piece of pieces) yield typeof piece === 'string' ? new TextEncoder().encode(piece) : new Uint8Array(piece);
}

const chunk = (content: string) => `data: ${JSON.stringify({ choices: [{ delta: { content } }] })}\n\n`;

describe('core parsing', () => {
  describe('describeErrorBody', () => {
    const cases: Array<[string, string, string, ErrorBody]> = [
      ['common JSON', '{"error":{"message":"Bad key","code":"invalid_key"}}', 'application/json', { message: 'Bad key', code: 'invalid_key', json: true }],
      ['string error', '{"error":"nope"}', 'application/json', { message: 'nope', json: true }],
      ['message field', '{"message":"slow down","code":"rl"}', 'application/json', { message: 'slow down', code: 'rl', json: true }],
      ['detail field', '{"detail":"Not found"}', 'application/json', { message: 'Not found', json: true }],
      ['HTML title', '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>x</h1></body></html>', 'text/html', { message: '502 Bad Gateway' }],
      ['HTML without title', '<html><body><script>evil()</script><p>Down for maintenance</p></body></html>', '', { message: 'Down for maintenance' }],
      ['plain text', 'upstream connect error', 'text/plain', { message: 'upstream connect error' }],
      ['JSON label but text body', 'oops', 'application/json', { message: 'oops' }],
      ['empty', '', 'application/json', {}],
    ];
    for (const [name, body, type, expected] of cases) {
      it(`reads ${name}`, () => assert.deepEqual(describeErrorBody(body, type), expected));
    }
    it('clips very long bodies to one line', () => {
      const { message } = describeErrorBody(`line\n${'x'.repeat(5000)}`, 'text/plain');
      assert.ok((message ?? '').length <= 300);
      assert.doesNotMatch(message ?? '', /\n/);
    });
  });

  describe('response metadata', () => {
    it('parses all four headers and tolerates their absence or garbage', () => {
      const full = parseResponseMeta(200, { 'x-request-id': 'r1', 'x-service-model-id': 'm', 'x-service-balance-credits': '12.5', 'x-ratelimit-limit-requests': '60' }, 5);
      assert.deepEqual(full, { status: 200, receivedAt: 5, requestId: 'r1', modelId: 'm', balanceCredits: 12.5, rateLimitRequests: 60 });
      assert.deepEqual(parseResponseMeta(500, {}, 1), { status: 500, receivedAt: 1 });
      assert.deepEqual(parseResponseMeta(200, { 'x-service-balance-credits': 'lots', 'x-request-id': ' ' }, 1), { status: 200, receivedAt: 1 });
    });
    it('reads Retry-After as seconds or as an HTTP date', () => {
      assert.equal(parseRetryAfter({ 'retry-after': '7' }), 7);
      assert.equal(parseRetryAfter({ 'retry-after': new Date(10_000).toUTCString() }, 4_000), 6);
      assert.equal(parseRetryAfter({ 'retry-after': 'soon' }), undefined);
      assert.equal(parseRetryAfter({}), undefined);
    });
  });

  describe('parseChatEventStream', () => {
    it('joins a UTF-8 character split across reads and an event split mid-line', async () => {
      const full = chunk('漢🙂');
      const encoded = new TextEncoder().encode(full + 'data: [DONE]\n\n');
      const pieces = Array.from(encoded).map((b) => [b]);
      const outcome = await drain(parseChatEventStream(bytes(...pieces), META));
      assert.equal(outcome.text, '漢🙂');
      assert.deepEqual(outcome.events.at(-1), { type: 'end', complete: true });
    });
    it('ignores comments and chunks without content, and ends incomplete without [DONE] or finish reason', async () => {
      const outcome = await drain(parseChatEventStream(bytes(': ping\n\n', chunk('a'), 'data: {"choices":[{"delta":{}}]}\n\n', `data: ${JSON.stringify({ choices: [{ delta: { content: 'b' } }] })}`), META));
      assert.equal(outcome.text, 'ab', 'the last event without its blank line is still delivered');
      assert.deepEqual(outcome.events.at(-1), { type: 'end', complete: false });
    });
    it('yields one merged delta per network read, in order with finish and usage, never merging across reads', async () => {
      const finish = `data: ${JSON.stringify({ choices: [{ delta: {}, finish_reason: 'stop' }] })}\n\n`;
      const outcome = await drain(parseChatEventStream(bytes(chunk('a') + chunk('b') + chunk('c'), chunk('d') + finish + chunk('e'), chunk('f')), META));
      assert.deepEqual(outcome.events.map((e) => (e.type === 'delta' ? e.text : e.type)), ['abc', 'd', 'finish', 'e', 'f', 'end']);
    });
    it('stops reading at [DONE] even if more bytes follow', async () => {
      const outcome = await drain(parseChatEventStream(bytes(chunk('a'), 'data: [DONE]\n\n', chunk('ignored')), META));
      assert.equal(outcome.text, 'a');
    });
    it('treats an `event: error` as a stream error', async () => {
      const outcome = await drain(parseChatEventStream(bytes(chunk('a'), 'event: error\ndata: {"message":"overloaded"}\n\n'), META));
      assert.ok(outcome.error instanceof ApiError);
      assert.equal(outcome.error.kind, 'streamError');
      assert.equal(outcome.error.serviceMessage, 'overloaded');
      assert.equal(outcome.text, 'a');
    });
  });

  describe('chunkEventReader (the framing both stream readers share)', () => {
    /** The events of `reads`, each fed as one network read, then the end of the stream. */
    const read = (...reads: Uint8Array[]): ChunkEvent[] => {
      const events: ChunkEvent[] = [];
      const reader = chunkEventReader((event) => events.push(event));
      for (const bytes of reads) reader.feed(bytes);
      reader.end();
      return events;
    };
    const utf8 = (text: string) => new TextEncoder().encode(text);
    const reads = (...texts: string[]) => read(...texts.map(utf8));

    it('reads chunks split across reads (inside a UTF-8 character too), CRLF, comments, [DONE]', () => {
      const whole = utf8(': keep-alive\r\ndata: {"choices":[{"delta":{"content":"é"}}]}\r\n\r\ndata: [DONE]\n\n');
      const inside = whole.indexOf(0xc3) + 1; // between the two bytes of "é"
      assert.deepEqual(read(whole.subarray(0, inside), whole.subarray(inside)), [{ kind: 'chunk', chunk: { choices: [{ delta: { content: 'é' } }] } }, { kind: 'done' }]);
    });

    it('tells an error event (bare or wrapped), a chunk carrying an error and data that is not JSON apart from chunks', () => {
      assert.deepEqual(reads('event: error\ndata: {"message":"overloaded"}\n\n', 'event: error\ndata: {"error":{"message":"wrapped"}}\n\n', 'event: error\ndata: plain words\n\n'), [
        { kind: 'error', error: { message: 'overloaded' } },
        { kind: 'error', error: { message: 'wrapped' } },
        { kind: 'error', error: 'plain words' },
      ]);
      assert.deepEqual(reads('data: {"error":{"message":"mid-stream"}}\n\n', 'data: {"choices":[\n\n'), [{ kind: 'error', error: { message: 'mid-stream' } }, { kind: 'malformed' }]);
    });

    it('reads a last event that lacked its blank line when the stream ends', () => {
      assert.deepEqual(reads('data: {"choices":[]}'), [{ kind: 'chunk', chunk: { choices: [] } }]);
    });
  });

  describe('images', () => {
    const png = Buffer.from('89504e470d0a1a0a0000', 'hex');
    it('decodes b64_json and base64 or percent-encoded data URLs, sniffing the type', () => {
      assert.equal(decodeImageItem({ b64_json: png.toString('base64') }, META).mimeType, 'image/png');
      assert.equal(decodeImageItem({ url: `data:image/png;base64,${png.toString('base64')}` }, META).bytes.length, png.length);
      const escaped = Array.from(png, (byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
      assert.deepEqual(Buffer.from(decodeImageItem({ url: `data:image/png,${escaped}` }, META).bytes), png, 'percent escapes are bytes, not UTF-8');
      assert.equal(sniffImageType(new Uint8Array([0xff, 0xd8, 0xff, 0])), 'image/jpeg');
    });
    it('refuses hosted links, bad base64 and empty items', () => {
      for (const item of [{ url: 'https://cdn.example/x.png' }, { b64_json: '###' }, {}]) {
        assert.throws(() => decodeImageItem(item, META), (e: unknown) => e instanceof ApiError && e.kind === 'malformedResponse');
      }
    });
  });

  describe('key format and error actions', () => {
    it('checks presence, white space and the configured prefix without echoing the key', () => {
      assert.equal(checkApiKeyFormat(undefined)?.kind, 'missingKey');
      assert.equal(checkApiKeyFormat('svc-a b', 'svc-')?.kind, 'invalidKey');
      const wrong = checkApiKeyFormat('secretvalue123', 'svc-');
      assert.equal(wrong?.kind, 'invalidKey');
      assert.doesNotMatch(wrong?.message ?? '', /secretvalue123/);
      assert.equal(checkApiKeyFormat('svc-abc', 'svc-'), undefined);
      assert.equal(checkApiKeyFormat('anything', ''), undefined);
    });
    it('offers the fixing action first, Retry only where it can help, never for 402', () => {
      const ids = (kind: Parameters<typeof actionsForError>[0], requestId?: string) =>
        actionsForError(kind, { canRetry: true, ...(requestId && { requestId }) }).map((a) => a.id);
      assert.deepEqual(ids('unauthorized', 'r'), ['setApiKey', 'copyRequestId', 'openLogs']);
      assert.deepEqual(ids('modelNotFound'), ['pickModel', 'openLogs']);
      assert.deepEqual(ids('insufficientCredits', 'r'), ['copyRequestId', 'openLogs']);
      assert.deepEqual(ids('rateLimited'), ['retry', 'openLogs']);
      assert.deepEqual(ids('network'), ['retry', 'openLogs']);
      assert.deepEqual(ids('missingScope'), ['setApiKey', 'openLogs']);
      assert.deepEqual(ids('cancelled'), []);
    });
  });
});
