/** One suggestion from a pause to the text shown, on a real spending guard and streams the test feeds. */
import * as assert from 'node:assert/strict';
import type { ChatRequest, ChatStreamEvent } from '../../../src/core/api/types';
import { Suggester, type SuggestionBackend, type SuggestionPlace, type SuggestionTarget } from '../../../src/core/suggestions/suggester';
import { SuggestionBilling, type SuggestionsPause } from '../../../src/core/suggestions/suggestionBilling';
import { ScriptedStream } from '../fakes/chatEngine';
import { guardedMeter, type GuardedMeter } from '../fakes/guardedMeter';

/** The debounce's waits, released by the test; an abort ends one at once (false), as the real one does. */
class ManualWaits {
  readonly #waiting: Array<() => void> = [];

  wait = (_ms: number, signal: AbortSignal): Promise<boolean> => new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const release = () => resolve(true);
    signal.addEventListener('abort', () => {
      this.#waiting.splice(this.#waiting.indexOf(release), 1);
      resolve(false);
    }, { once: true });
    this.#waiting.push(release);
  });

  get pending(): number {
    return this.#waiting.length;
  }

  releaseAll(): void {
    for (const release of this.#waiting.splice(0)) release();
  }
}

interface SentRequest {
  env: string;
  request: ChatRequest;
  signal: AbortSignal;
  /** Events the suggester pulled from the stream. */
  pulled: number;
  /** The suggester left the stream (which closes the connection). */
  closed: boolean;
}

const place = (prefix: string, suffix = '', document = 'file:///w/a.ts'): SuggestionPlace => ({
  document, offset: prefix.length, prefix, suffix, languageId: 'typescript', path: 'a.ts', indentUnit: '  ', recentSnippets: [],
});

describe('suggester: requests only when they can be shown, every one metered (core/suggestions/suggester)', () => {
  let billing: GuardedMeter;
  let waits: ManualWaits;
  let streams: ScriptedStream[];
  let sent: SentRequest[];
  let target: SuggestionTarget | undefined;
  let happened: string[];
  let limits: SuggestionsPause[];
  let suggester: Suggester;

  beforeEach(() => {
    billing = guardedMeter(2);
    billing.state.balance = 100;
    billing.state.settled = { credits: 99.25, at: Date.now() + 1000 };
    waits = new ManualWaits();
    streams = [];
    sent = [];
    target = { env: 'production', model: 'm-suggest' };
    happened = [];
    limits = [];
    const backend: SuggestionBackend = {
      target: () => target,
      wait: waits.wait,
      openStream: async (env, request, signal) => {
        const stream = streams.shift() ?? new ScriptedStream().answer(['x']);
        const record: SentRequest = { env, request, signal, pulled: 0, closed: false };
        sent.push(record);
        return counted(stream.events(signal), record);
      },
    };
    suggester = new Suggester(backend, new SuggestionBilling(billing.meter, () => undefined), {
      requested: (env) => happened.push(`requested ${env}`),
      cancelled: (env) => happened.push(`cancelled ${env}`),
      limitReached: (error) => limits.push(error),
      failed: (error) => happened.push(`failed ${String(error)}`),
    }, { debounceMs: () => 300 });
  });

  afterEach(async () => {
    await suggester.settled();
    await billing.released();
    await billing.dispose();
  });

  async function suggestAfterPause(at: SuggestionPlace, cancel = new AbortController().signal) {
    const result = suggester.suggest(at, cancel);
    await until(() => waits.pending > 0);
    waits.releaseAll();
    return result;
  }

  it('sends one request after the pause and shows the cleaned answer; its measured spend is a suggestion in the ledger', async () => {
    streams.push(new ScriptedStream().answer(['```ts\n', 'return a + b;\n', '```\n'], { requestId: 'req-s1', modelId: 'm-suggest' }));
    const result = await suggestAfterPause(place('function add(a: number, b: number) {\n  ', '\n}\n'));
    assert.deepEqual(result, { text: 'return a + b;', from: 'service' });
    assert.equal(sent.length, 1);
    assert.equal(sent[0].request.model, 'm-suggest');
    assert.ok(sent[0].request.max_tokens !== undefined, 'a suggestion is bounded in tokens');
    await suggester.settled();
    assert.deepEqual(billing.entries.map((e) => [e.kind, e.requestId, e.model, e.credits]), [['suggestion', 'req-s1', 'm-suggest', 0.75]]);
    assert.deepEqual(happened, ['requested production']);
  });

  it('asks once per place: the same place again, and typing through the suggestion, are answered without a request', async () => {
    streams.push(new ScriptedStream().answer(['log("ready");'], { requestId: 'req-c' }));
    const first = await suggestAfterPause(place('console.'));
    assert.equal(first.text, 'log("ready");');
    assert.deepEqual(await suggester.suggest(place('console.'), new AbortController().signal), { text: 'log("ready");', from: 'cache' });
    assert.deepEqual(await suggester.suggest(place('console.log('), new AbortController().signal), { text: '"ready");', from: 'cache' });
    assert.equal(sent.length, 1);
    assert.equal(waits.pending, 0, 'a cached answer waits out no debounce');
  });

  it('a keystroke during the pause sends nothing for the place left behind', async () => {
    const editor = new AbortController();
    const left = suggester.suggest(place('const total = '), editor.signal);
    await until(() => waits.pending > 0);
    editor.abort();
    assert.deepEqual(await left, { text: undefined, why: 'cancelled' });
    assert.equal(sent.length, 0);
    assert.equal(billing.entries.length, 0);
  });

  it('a newer request of the same document aborts the older one, so at most one is in flight per document', async () => {
    const older = suggester.suggest(place('let a = '), new AbortController().signal);
    await until(() => waits.pending === 1);
    const newer = suggester.suggest(place('let a = 1'), new AbortController().signal);
    assert.deepEqual(await older, { text: undefined, why: 'cancelled' });
    assert.equal(suggester.inFlight, 1);
    await until(() => waits.pending === 1);
    waits.releaseAll();
    await newer;
    assert.equal(sent.length, 1);
    assert.match(sent[0].request.messages[1].content as string, /let a = 1/);
    const other = suggester.suggest(place('x', '', 'file:///w/b.ts'), new AbortController().signal);
    const same = suggester.suggest(place('y', '', 'file:///w/c.ts'), new AbortController().signal);
    await until(() => waits.pending === 2);
    assert.equal(suggester.inFlight, 2, 'documents do not cancel each other');
    waits.releaseAll();
    await Promise.all([other, same]);
  });

  it('a keystroke while the answer streams aborts the transport; the request is billed all the same', async () => {
    const stream = new ScriptedStream();
    stream.push({ type: 'response', meta: { status: 200, receivedAt: 0, requestId: 'req-cut' } }, { type: 'delta', text: 'retur' });
    streams.push(stream);
    const editor = new AbortController();
    const pending = suggestAfterPause(place('function f() {\n  ', '\n}'), editor.signal);
    await until(() => sent.length === 1 && sent[0].pulled >= 2);
    editor.abort();
    assert.deepEqual(await pending, { text: undefined, why: 'cancelled' });
    assert.equal(sent[0].signal.aborted, true, 'the cancellation reached the transport');
    assert.equal(stream.sawAbort, true);
    await suggester.settled();
    assert.deepEqual(billing.entries.map((e) => [e.requestId, e.credits]), [['req-cut', 0.75]]);
    assert.deepEqual(happened, ['requested production', 'cancelled production']);
  });

  it('leaves the stream as soon as the suggestion is whole: the tokens after it are never read', async () => {
    const stream = new ScriptedStream().answer(['items.length', ')\n', 'console.log(items);\n', 'return items;\n'], { requestId: 'req-line' });
    streams.push(stream);
    const result = await suggestAfterPause(place('print(', ')'));
    assert.equal(result.text, 'items.length');
    assert.equal(sent[0].closed, true);
    assert.ok(sent[0].pulled <= 3, `pulled ${sent[0].pulled} events: the response and the first two deltas at most`);
  });

  it('a reached spending limit sends nothing, and keeps suggestions off until it resets', async () => {
    billing.state.limits = { production: { daily: 0 } };
    const result = await suggestAfterPause(place('const x = '));
    assert.deepEqual(result, { text: undefined, why: 'limit' });
    assert.equal(sent.length, 0);
    assert.equal(limits.length, 1);
    assert.match(limits[0].message, /daily spending limit of "production" is reached/);
    assert.ok(limits[0].until > Date.now());
    billing.state.limits = {};
    assert.deepEqual(await suggestAfterPause(place('const y = ')), { text: undefined, why: 'limit' }, 'off for the period, even with the limit raised, until resumed');
    assert.equal(sent.length, 0);
  });

  it('inside a word nothing is asked: a suggestion there would split the name being edited', async () => {
    assert.deepEqual(await suggester.suggest(place('const to', 'tal = 1;\n'), new AbortController().signal), { text: undefined, why: 'midWord' });
    assert.equal(waits.pending, 0, 'no pause is even waited out');
    assert.equal(sent.length, 0);
    streams.push(new ScriptedStream().answer(['1;'], { requestId: 'req-end' }));
    assert.equal((await suggestAfterPause(place('const total = ', ';\n'))).text, '1', 'before punctuation it is asked');
  });

  it('takes no more than its share of the key\'s rate limit, as the service reported it', async () => {
    streams.push(new ScriptedStream().answer(['a;'], { requestId: 'req-1', rateLimitRequests: 6 }));
    assert.equal((await suggestAfterPause(place('let a = '))).text, 'a;');
    assert.deepEqual(await suggestAfterPause(place('let b = ')), { text: undefined, why: 'pace' }, '6 a minute: one suggestion (two requests) is a third');
    assert.equal(sent.length, 1);
  });

  it('without a model picked for suggestions nothing is sent (ids are never guessed)', async () => {
    target = undefined;
    assert.deepEqual(await suggestAfterPause(place('const x = ')), { text: undefined, why: 'noModel' });
    assert.equal(sent.length, 0);
  });

  it('a failed request is reported and not billed when the service never answered', async () => {
    streams.push(new ScriptedStream().push({ fail: new Error('connection refused') }));
    const result = await suggestAfterPause(place('const x = '));
    assert.deepEqual(result, { text: undefined, why: 'failed' });
    assert.deepEqual(happened, ['requested production', 'failed Error: connection refused']);
    await suggester.settled();
    assert.equal(billing.entries.length, 0);
  });
});

async function* counted(events: AsyncIterable<ChatStreamEvent>, record: SentRequest): AsyncGenerator<ChatStreamEvent> {
  try {
    for await (const event of events) {
      record.pulled++;
      yield event;
    }
  } finally {
    record.closed = true;
  }
}

async function until(condition: () => boolean): Promise<void> {
  for (let turn = 0; turn < 1000 && !condition(); turn++) await new Promise((resolve) => setImmediate(resolve));
  assert.ok(condition(), 'the condition never held');
}
