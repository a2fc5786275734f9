import assert from 'node:assert/strict';
import { ChatEngine } from '../../../src/core/chat/chatEngine';
import { createConversation, requestMessages, summary, type ComparisonColumn, type ConversationMessage } from '../../../src/core/chat/conversation';
import { columnFigures } from '../../../src/core/chat/comparison/comparisonTurn';
import { ApiError } from '../../../src/core/api/errors';
import { FakeComparisonBackend, FakeSaver, FakeView, rateLimited, ScriptedStream } from '../fakes/chatEngine';
import { waitFor } from '../../harness/wait';

/** The chat engine's comparisons (core/chat/comparison/): several models asked at once, side by side. */

function setup() {
  const backend = new FakeComparisonBackend();
  const view = new FakeView();
  const saver = new FakeSaver();
  let clock = 1000;
  const now = () => (clock += 10);
  backend.clock = now;
  const engine = new ChatEngine(createConversation(0), view, saver, backend, { now, appendPacing: { flushChars: 1 } });
  const turn = (): ConversationMessage => engine.conversation.messages.at(-1) ?? assert.fail('no turn');
  /** Each column's text as its appends brought it to the view, by the column's index in the turn. */
  const texts = () => {
    const byColumn = new Map<number, string>();
    for (const { column, text } of view.appends()) if (column !== undefined) byColumn.set(column, (byColumn.get(column) ?? '') + text);
    return byColumn;
  };
  const column = (model: string): ComparisonColumn => turn().comparison?.columns.find((c) => c.model === model) ?? assert.fail(`no column ${model}`);
  return { backend, view, saver, engine, texts, turn, column };
}

/** The models whose columns have been sent and stream now. */
const streamingColumns = (engine: ChatEngine, turn: () => ConversationMessage) => (): string[] => (engine.streaming
  ? turn().comparison?.columns.filter((c) => c.answer.meta?.startedAt !== undefined && c.answer.status === 'streaming').map((c) => c.model) ?? []
  : []);

describe('comparisons: one question, several models side by side (core/chat/comparison)', () => {
  it('streams three columns, each to its end with its figures, in one turn after the question', async () => {
    const { backend, engine, texts, turn, column } = setup();
    for (const model of ['a', 'b', 'c']) backend.stream(model, new ScriptedStream().answer([`${model}: one `, 'two'], { requestId: `req-${model}`, modelId: `${model}-resolved` }));
    await engine.compare('Which is best?', ['a', 'b', 'c']);
    await engine.whenIdle();
    assert.deepEqual(engine.conversation.messages.map((m) => m.role), ['user', 'assistant']);
    assert.deepEqual(backend.requests.map((r) => r.model), ['a', 'b', 'c']);
    for (const request of backend.requests) assert.deepEqual(request.messages, [{ role: 'user', content: 'Which is best?' }]);
    for (const model of ['a', 'b', 'c']) {
      const { answer } = column(model);
      assert.equal(answer.status, 'done');
      assert.equal(answer.text, `${model}: one two`);
      const index = turn().comparison?.columns.findIndex((c) => c.model === model) ?? -1;
      assert.equal(texts().get(index), `${model}: one two`, 'each column\'s text reached the view by its own index');
      const figures = columnFigures(column(model));
      assert.equal(figures.model, `${model}-resolved`);
      assert.ok((figures.timeToFirstTokenMs ?? 0) > 0 && (figures.totalMs ?? 0) > (figures.timeToFirstTokenMs ?? 0));
      assert.ok((figures.charsPerSecond ?? 0) > 0);
      // Billed, but no balance was read after it here: not measured, and said so.
      assert.ok(figures.spend && 'notMeasured' in figures.spend);
    }
    // Two at a time (the key's limit unknown): their billing windows overlapped.
    assert.deepEqual(backend.overlappedSpends.slice(0, 2).sort(), ['req-a', 'req-b']);
    assert.equal(turn().status, 'done');
    assert.equal(backend.recorded.length, 3, 'each request is in the ledger on its own');
    assert.equal(summary(engine.conversation).model, undefined, 'no answer chosen yet');
  });

  it('measures each column\'s credits when they run one at a time (a key of 5 requests per minute)', async () => {
    const { backend, engine, column, saver } = setup();
    saver.saveDelayMs = 5;
    // The first comparison learns the key's limit from its responses; the next one starts from it.
    for (const model of ['a', 'b']) backend.stream(model, new ScriptedStream().answer(['A'], { requestId: `first-${model}`, rateLimitRequests: 5 }));
    await engine.compare('First', ['a', 'b']);
    await engine.whenIdle();
    backend.currentBalance = 100;
    backend.settledBalances = [99, 97.5];
    await engine.compare('Q', ['a', 'b']);
    await engine.whenIdle();
    assert.deepEqual(columnFigures(column('a')).spend, { credits: 1 });
    assert.deepEqual(columnFigures(column('b')).spend, { credits: 1.5 });
    assert.equal(summary(engine.conversation).credits, 2.5);
    assert.deepEqual(backend.overlappedSpends.filter((id) => !id.startsWith('first-')), []);
  });

  it('honours the bounded concurrency: two at once until a response reports the key\'s limit, then as it allows', async () => {
    const { backend, engine, turn } = setup();
    const streams = ['a', 'b', 'c', 'd'].map((model) => backend.stream(model, new ScriptedStream()));
    await engine.compare('Q', ['a', 'b', 'c', 'd']);
    const streaming = streamingColumns(engine, turn);
    await waitFor('two streaming', () => streaming()?.length === 2 || undefined);
    assert.deepEqual(streaming(), ['a', 'b']);
    // The first response says 10 requests per minute: still two (a fifth of the minute).
    streams[0].push({ type: 'response', meta: { status: 200, receivedAt: 0, requestId: 'ra', rateLimitRequests: 10 } });
    streams[0].push({ type: 'delta', text: 'x' }, { type: 'end', complete: true });
    await waitFor('c takes a\'s slot', () => streaming()?.includes('c') || undefined);
    assert.deepEqual(streaming(), ['b', 'c']);
    // A later one reports 20: every column may go.
    streams[1].push({ type: 'response', meta: { status: 200, receivedAt: 0, requestId: 'rb', rateLimitRequests: 20 } });
    await waitFor('d goes', () => streaming()?.includes('d') || undefined);
    for (const stream of streams.slice(1)) stream.push({ type: 'end', complete: true });
    await engine.whenIdle();
  });

  it('stops one column while the others finish, and stops all', async () => {
    const { backend, engine, column, turn } = setup();
    const slow = backend.stream('b', new ScriptedStream().push({ type: 'response', meta: { status: 200, receivedAt: 0, requestId: 'rb' } }, { type: 'delta', text: 'partial' }));
    await engine.compare('Q', ['a', 'b', 'c']);
    await waitFor('b streaming', () => column('b').answer.text === 'partial' || undefined);
    engine.stopColumn(column('b').answer.id);
    await engine.whenIdle();
    assert.ok(slow.sawAbort);
    assert.equal(column('b').answer.status, 'stopped');
    assert.equal(column('b').answer.text, 'partial');
    assert.equal(column('a').answer.status, 'done');
    assert.equal(column('c').answer.status, 'done');
    assert.equal(turn().status, 'done');

    // Stop all: the streaming ones stop, the waiting one is never sent.
    for (const model of ['x', 'y', 'z']) backend.stream(model, new ScriptedStream());
    const before = backend.requests.length;
    await engine.compare('Again', ['x', 'y', 'z']);
    await waitFor('two streaming', () => streamingColumns(engine, turn)()?.length === 2 || undefined);
    engine.stop();
    await engine.whenIdle();
    assert.deepEqual(['x', 'y', 'z'].map((m) => column(m).answer.status), ['stopped', 'stopped', 'stopped']);
    assert.equal(backend.requests.length - before, 2, 'the third waited for a slot and was never sent');
    assert.equal(column('z').answer.meta?.startedAt, undefined);
  });

  it('keeps an error in its own column (404) while the others finish', async () => {
    const { backend, engine, column } = setup();
    backend.openErrorsByModel.set('gone', [new ApiError('modelNotFound', 'Unknown model.', { status: 404 })]);
    await engine.compare('Q', ['a', 'gone', 'c']);
    await engine.whenIdle();
    assert.equal(column('gone').answer.status, 'error');
    assert.equal(column('gone').answer.error?.status, 404);
    assert.equal(column('a').answer.status, 'done');
    assert.equal(column('c').answer.status, 'done');
    assert.equal(backend.failures.length, 1);
    assert.equal(backend.failures[0].context.usedEnvironmentModel, false, 'a model picked for the column is not the environment\'s to forget');
  });

  it('waits out a 429 in one column without its slot, while the others go on, then retries it', async () => {
    const { backend, engine, column } = setup();
    let endWait: () => void = () => undefined;
    backend.waitGate = new Promise((resolve) => (endWait = resolve));
    backend.openErrorsByModel.set('a', [rateLimited(3)]);
    await engine.compare('Q', ['a', 'b', 'c']);
    // a waits its 3 s; b and c both stream meanwhile (a gave its slot up) and finish.
    await waitFor('b and c done', () => (column('b').answer.status === 'done' && column('c').answer.status === 'done') || undefined);
    assert.equal(column('a').answer.status, 'streaming');
    assert.deepEqual(backend.waits.map((w) => [w.seconds, w.retry]), [[3, 1]]);
    endWait();
    await engine.whenIdle();
    assert.equal(column('a').answer.status, 'done');
    assert.deepEqual(backend.opened, ['a', 'b', 'c', 'a']);
    assert.ok((column('a').answer.meta?.startedAt ?? 0) > (column('b').answer.meta?.finishedAt ?? Infinity), 'a\'s figures count from its retry, not its wait');
  });

  it('continues with the second answer: its model becomes the conversation\'s, its answer the turn later requests carry', async () => {
    const { backend, engine, turn, column } = setup();
    await engine.compare('Q', ['a', 'b', 'c']);
    await engine.whenIdle();
    const comparison = turn();
    await assert.rejects(engine.continueWith(comparison.id, 'nope'), /not part of a comparison/);
    const first = column('a').answer.id;
    await engine.continueWith(comparison.id, column('b').answer.id);
    assert.equal(engine.conversation.model, 'b');
    assert.equal(comparison.comparison?.chosen, column('b').answer.id);
    assert.equal(comparison.comparison?.columns.length, 3, 'the comparison stays as it was');
    await engine.send('Go on');
    await engine.whenIdle();
    const last = backend.requests.at(-1);
    assert.equal(last?.model, 'b');
    assert.deepEqual(last?.messages, [{ role: 'user', content: 'Q' }, { role: 'assistant', content: 'b answers.' }, { role: 'user', content: 'Go on' }]);
    await assert.rejects(engine.continueWith(comparison.id, first), /Only the last comparison/);
  });

  it('refuses a column without an answer, a comparison still streaming, and too few or too many models', async () => {
    const { backend, engine, turn, column } = setup();
    await assert.rejects(engine.compare('Q', ['a', 'a']), /Pick 2 to 4/);
    await assert.rejects(engine.compare('Q', ['a', 'b', 'c', 'd', 'e']), /Pick 2 to 4/);
    backend.openErrorsByModel.set('b', [new ApiError('modelNotFound', 'Unknown model.', { status: 404 })]);
    const hold = backend.stream('a', new ScriptedStream());
    await engine.compare('Q', ['a', 'b']);
    await assert.rejects(engine.continueWith(turn().id, column('a').answer.id), /still streaming/);
    hold.answer(['A']);
    await engine.whenIdle();
    await assert.rejects(engine.continueWith(turn().id, column('b').answer.id), /no answer to go on with/);
    // Before one is chosen, later requests carry no answer for the comparison.
    assert.deepEqual(requestMessages(engine.conversation, undefined), [{ role: 'user', content: 'Q' }]);
  });

  it('measures the comparison as a whole while its columns ran side by side, and tags each column\'s ledger entry with the turn', async () => {
    const { backend, engine, turn, column } = setup();
    backend.currentBalance = 100;
    backend.settledBalances = [99, 97.25];
    await engine.compare('Q', ['a', 'b']);
    await engine.whenIdle();
    for (const model of ['a', 'b']) assert.deepEqual(columnFigures(column(model)).spend, { notMeasured: 'overlapped' }, 'each ran beside the other');
    assert.equal(turn().meta?.creditsSpent, 2.75, 'the balance before the first request less the settled one after the last');
    assert.equal(summary(engine.conversation).credits, 2.75);
    assert.deepEqual(backend.recorded.map((entry) => entry.comparison), [turn().id, turn().id]);
    assert.deepEqual(backend.measuredTogether, [{ environment: 'production', comparison: turn().id, credits: 2.75 }], 'the ledger counts the whole in place of the columns');
  });

  it('puts the whole in the ledger in place of every column, also one that waited for a slot', async () => {
    const { backend, engine, turn, column } = setup();
    // Two at a time: a and b side by side; c takes b's slot when b ends, beside a.
    const held = backend.stream('a', new ScriptedStream());
    backend.currentBalance = 100;
    backend.settledBalances = [99, 98, 97.5];
    await engine.compare('Q', ['a', 'b', 'c']);
    await waitFor('b and c done', () => (column('b').answer.status === 'done' && column('c').answer.status === 'done') || undefined);
    assert.deepEqual(backend.opened, ['a', 'b', 'c']);
    held.answer(['A']);
    await engine.whenIdle();
    for (const model of ['a', 'b', 'c']) assert.deepEqual(columnFigures(column(model)).spend, { notMeasured: 'overlapped' }, model);
    assert.equal(turn().meta?.creditsSpent, 2.5);
    assert.deepEqual(backend.measuredTogether, [{ environment: 'production', comparison: turn().id, credits: 2.5 }]);
  });

  it('leaves the whole unmeasured when another call of the wallet ran meanwhile', async () => {
    const { backend, engine, turn } = setup();
    const hold = backend.stream('a', new ScriptedStream());
    backend.currentBalance = 100;
    backend.settledBalances = [98, 97];
    await engine.compare('Q', ['a', 'b']);
    await waitFor('a sent', () => backend.opened.includes('a') || undefined);
    // Another path (an image, a suggestion) bills the same wallet while the comparison streams.
    (await backend.billing.open('production')).close();
    hold.answer(['A']);
    await engine.whenIdle();
    assert.equal(turn().meta?.creditsSpent, undefined);
    assert.equal(turn().meta?.spendNotMeasured, 'overlapped');
    assert.deepEqual(backend.measuredTogether, [], 'the columns stay unmeasured in the ledger');
  });

  it('runs the columns one at a time with measureEachModel, each measured, the total theirs', async () => {
    const { backend, engine, turn, column, saver } = setup();
    backend.oneAtATime = true;
    // The next column waits for this one's spend, not only its stream: a save between the two would let it open beside.
    saver.saveDelayMs = 5;
    const first = backend.stream('a', new ScriptedStream());
    backend.currentBalance = 100;
    backend.settledBalances = [99, 97.5];
    await engine.compare('Q', ['a', 'b']);
    await waitFor('a sent', () => backend.opened.includes('a') || undefined);
    assert.equal(column('b').answer.meta?.startedAt, undefined, 'b waits for a');
    first.answer(['A'], { rateLimitRequests: 100 });
    await engine.whenIdle();
    assert.deepEqual(backend.opened, ['a', 'b'], 'a key\'s high limit does not put them side by side');
    assert.deepEqual([columnFigures(column('a')).spend, columnFigures(column('b')).spend], [{ credits: 1 }, { credits: 1.5 }]);
    assert.equal(turn().meta?.creditsSpent, 2.5);
    assert.deepEqual(backend.measuredTogether, [], 'each column is in the ledger with its own spend');
  });

  it('shows the comparison in the snapshot, with where each streaming column stands, and each column\'s end as its own patch', async () => {
    const { backend, view, engine, turn, column } = setup();
    const hold = backend.stream('a', new ScriptedStream().push({ type: 'response', meta: { status: 200, receivedAt: 0, requestId: 'ra' } }, { type: 'delta', text: 'par' }));
    await engine.compare('Q', ['a', 'b']);
    await waitFor('b done', () => column('b').answer.status === 'done' || undefined);
    await waitFor('a streams', () => column('a').answer.text === 'par' || undefined);
    const snapshot = engine.snapshot();
    const shown = snapshot.conversation.messages.at(-1)?.comparison;
    assert.deepEqual(shown?.columns.map((c) => [c.model, c.answer.status, c.answer.text]), [['a', 'streaming', 'par'], ['b', 'done', 'b answers.']]);
    assert.deepEqual(snapshot.streamingColumns, { turnId: turn().id, columns: [{ columnId: column('a').answer.id, seq: 1 }] });
    hold.push({ type: 'end', complete: true });
    await engine.whenIdle();
    const patches = view.of('columnPatch').filter((p) => p.columnId === column('a').answer.id);
    assert.equal(patches.at(-1)?.status, 'done');
    assert.equal(patches.at(-1)?.turnId, turn().id);
  });
});
