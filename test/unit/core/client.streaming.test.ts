/** The client's streaming, limits and cancellation over a fake transport: framing, caps and connections, without sockets. */
import assert from 'node:assert/strict';
import { InferenceClient, type ClientOptions } from '../../../src/core/api/client';
import { actionsForError } from '../../../src/core/errorActions';
import { ApiError } from '../../../src/core/api/errors';
import { PROXY_REFUSED } from '../../../src/core/api/transport';
import { FakeTransport, json, socketError, sse, type FakeReply } from '../fakes/transport';
import { drain, failure, HELLO } from './support';

const REQUEST = { model: 'm', messages: HELLO };
const TEXT = 'Hello é, 漢字 and 🙂 across reads';
const clientOver = (transport: FakeTransport, options: Partial<ClientOptions> = {}) =>
  new InferenceClient({ baseUrl: 'https://api.example.com/api/v1', apiKey: 'svc-stream-key-0123', transport, ...options });

/** `reply`'s body cut into pieces of `size` bytes, so events and UTF-8 characters split across reads. */
function inPieces(reply: FakeReply, size: number): FakeReply {
  const bytes = Buffer.from((reply.body ?? []).join(''));
  const body: Uint8Array[] = [];
  for (let offset = 0; offset < bytes.length; offset += size) body.push(bytes.subarray(offset, offset + size));
  return { ...reply, body };
}
const words = TEXT.split(/(?<= )/);
const framings: Array<[string, FakeReply]> = [
  ['one read per event', sse(words)],
  ['one byte per read', inPieces(sse(words), 1)],
  ['CRLF line ends', { ...sse(words), body: (sse(words).body as string[]).map((event) => event.replace(/\n/g, '\r\n')) }],
  ['comments and keep-alives between events', { ...sse(words), body: (sse(words).body as string[]).flatMap((event) => [': ping\n\n', event]) }],
  ['no [DONE]', { ...sse(words), body: (sse(words).body as string[]).slice(0, -1) }],
  ['a usage-only chunk', { ...sse(words), body: [...(sse(words).body as string[]).slice(0, -1), 'data: {"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":5}}\n\n', 'data: [DONE]\n\n'] }],
];

describe('InferenceClient over a fake transport: streaming', () => {
  for (const [name, reply] of framings) {
    it(`yields the exact text with ${name}, ending complete`, async () => {
      const transport = new FakeTransport().reply({ ...reply, headers: { ...reply.headers, 'x-request-id': 'req-s' } });
      const outcome = await drain(clientOver(transport).streamChat(REQUEST));
      assert.equal(outcome.error, undefined);
      assert.equal(outcome.text, TEXT, 'no lost, doubled or mangled characters');
      assert.equal(outcome.events[0].type, 'response');
      assert.equal(outcome.meta?.requestId, 'req-s');
      assert.deepEqual(outcome.events.at(-1), { type: 'end', complete: true });
      if (name === 'a usage-only chunk') assert.ok(outcome.events.some((e) => e.type === 'usage'));
      assert.equal(transport.requests[0].fate, 'drained', 'a finished stream leaves its connection reusable');
    });
  }

  it('surfaces an error object inside the stream as streamError after the partial text', async () => {
    const reply = sse(['Partial ', 'answer']);
    (reply.body as string[]).splice(2, 0, 'data: {"error":{"message":"upstream overloaded","code":"overloaded"}}\n\n');
    const outcome = await drain(clientOver(new FakeTransport().reply(reply)).streamChat(REQUEST));
    assert.equal(outcome.text, 'Partial answer');
    assert.ok(outcome.error instanceof ApiError && outcome.error.kind === 'streamError');
    assert.equal(outcome.error.serviceMessage, 'upstream overloaded');
  });

  it('surfaces an event that is not JSON as malformedResponse after the partial text', async () => {
    const reply = sse(['Partial']);
    (reply.body as string[]).splice(1, 0, 'data: {not json\n\n');
    const outcome = await drain(clientOver(new FakeTransport().reply(reply)).streamChat(REQUEST));
    assert.equal(outcome.text, 'Partial');
    assert.ok(outcome.error instanceof ApiError && outcome.error.kind === 'malformedResponse');
  });

  it('accepts one JSON completion in answer to a stream request', async () => {
    const outcome = await drain(clientOver(new FakeTransport().reply(json({ choices: [{ message: { content: 'whole' }, finish_reason: 'stop' }] }))).streamChat(REQUEST));
    assert.equal(outcome.text, 'whole');
    assert.deepEqual(outcome.events.slice(1).map((e) => e.type), ['delta', 'finish', 'end']);
  });

  it('keeps the partial answer and the request id when the connection drops mid-stream', async () => {
    const reply: FakeReply = { ...sse(['Partial']), headers: { 'content-type': 'text/event-stream', 'x-request-id': 'req-drop' }, failAfter: socketError('ECONNRESET') };
    (reply.body as string[]).splice(1);
    const outcome = await drain(clientOver(new FakeTransport().reply(reply)).streamChat(REQUEST));
    assert.equal(outcome.text, 'Partial');
    assert.ok(outcome.error instanceof ApiError && outcome.error.kind === 'network');
    assert.match(outcome.error.message, /^The connection dropped while the answer was arriving \(ECONNRESET\)\. The service was reached and may have billed the request/);
    assert.doesNotMatch(outcome.error.message, /base URL/, 'nothing is wrong with the address: it answered');
    assert.equal(outcome.error.requestId, 'req-drop');
  });

  it('maps a failed send by its cause: refused, timed out, refused by the proxy', async () => {
    const refused = await failure(clientOver(new FakeTransport().reply({ fail: socketError('ECONNREFUSED') })).listModels());
    assert.equal(refused.kind, 'network');
    assert.match(refused.message, /ECONNREFUSED/);
    const slow = await failure(clientOver(new FakeTransport().reply({ fail: socketError('UND_ERR_HEADERS_TIMEOUT') })).listModels());
    assert.equal(slow.kind, 'timeout');
    assert.match(slow.message, /timeout settings/);
    const proxyAuth = Object.assign(socketError(PROXY_REFUSED), { status: 407, cause: Object.assign(new Error('aborted'), { name: 'AbortError' }) });
    const refusedByProxy = await failure(clientOver(new FakeTransport().reply({ fail: proxyAuth })).listModels());
    assert.equal(refusedByProxy.kind, 'network', 'not a cancellation: nobody cancelled');
    assert.match(refusedByProxy.message, /The proxy refused to connect to the service \(HTTP 407\)/);
  });
});

describe('InferenceClient over a fake transport: size limits', () => {
  it('stops a streamed answer at the cap, keeps what arrived, and closes the connection', async () => {
    const transport = new FakeTransport().reply({ ...sse(Array.from({ length: 100 }, () => 'x'.repeat(1000))), headers: { 'content-type': 'text/event-stream', 'x-request-id': 'req-big' } });
    const outcome = await drain(clientOver(transport, { limits: { streamBytes: 20_000 } }).streamChat(REQUEST));
    assert.ok(outcome.error instanceof ApiError && outcome.error.kind === 'tooLarge');
    assert.match(outcome.error.message, /an answer larger than this client accepts \(19\.5 KiB\).*The answer so far was kept\./);
    assert.ok(outcome.text.length > 15_000 && outcome.text.length <= 20_000, `partial answer kept (${outcome.text.length} chars)`);
    assert.equal(outcome.error.requestId, 'req-big');
    assert.equal(transport.requests[0].fate, 'cancelled');
    assert.ok(!actionsForError('tooLarge', { canRetry: true }).some((action) => action.id === 'retry'), 'the same call would hit the same cap');
  });

  it('refuses a JSON body over the cap, with a Content-Length at once, without one at the cap, and closes it', async () => {
    const declared = new FakeTransport().reply({ ...json({ data: [] }), headers: { 'content-type': 'application/json', 'content-length': '1000' } });
    const error = await failure(clientOver(declared, { limits: { jsonBytes: 64 } }).listModels());
    assert.equal(error.kind, 'tooLarge');
    assert.match(error.message, /a response larger than this client accepts \(64 bytes\)/);
    const endless = new FakeTransport().reply({ status: 200, headers: { 'content-type': 'application/json' }, body: ['{"object":"list","data":[', ...Array.from({ length: 1000 }, () => '{"id":"m","object":"model"},')], endless: true });
    assert.equal((await failure(clientOver(endless, { limits: { jsonBytes: 10_000 } }).listModels())).kind, 'tooLarge', 'a body that never ends is cut at the cap');
    assert.equal(endless.requests[0].fate, 'cancelled');
  });
});

describe('InferenceClient over a fake transport: cancellation', () => {
  it('an already aborted signal sends nothing', async () => {
    const transport = new FakeTransport();
    const controller = new AbortController();
    controller.abort();
    assert.equal((await failure(clientOver(transport).chat(REQUEST, { signal: controller.signal }))).kind, 'cancelled');
    assert.equal(transport.requests.length, 0);
  });

  it('aborting while the headers are awaited cancels the call', async () => {
    const controller = new AbortController();
    const pending = failure(clientOver(new FakeTransport().reply({ hang: true })).chat(REQUEST, { signal: controller.signal }));
    controller.abort();
    assert.equal((await pending).kind, 'cancelled');
  });

  it('aborting mid-stream keeps the partial text, ends as cancelled and closes the connection', async () => {
    const transport = new FakeTransport().reply({ ...sse(['Partial ', 'text']), endless: true });
    const controller = new AbortController();
    let text = '';
    const stream = clientOver(transport).streamChat(REQUEST, { signal: controller.signal });
    const outcome = await drain((async function* () {
      for await (const event of stream) {
        if (event.type === 'delta') text += event.text;
        if (text === 'Partial text') controller.abort();
        yield event;
      }
    })());
    assert.equal(outcome.text, 'Partial text');
    assert.ok(outcome.error instanceof ApiError && outcome.error.kind === 'cancelled', String(outcome.error));
    assert.equal(transport.requests[0].fate, 'cancelled');
  });

  it('breaking out of the loop early closes the connection', async () => {
    const transport = new FakeTransport().reply({ ...sse(['a', 'b', 'c']), endless: true });
    for await (const event of clientOver(transport).streamChat(REQUEST)) {
      if (event.type === 'delta') break;
    }
    assert.equal(transport.requests[0].fate, 'cancelled');
  });

});
