import * as assert from 'node:assert/strict';
import { ChatEngine } from '../../../src/core/chat/chatEngine';
import { createConversation, type Conversation } from '../../../src/core/chat/conversation';
import { ApiError } from '../../../src/core/api/errors';
import { contentText } from '../../../src/core/api/contentParts';
import { waitFor } from '../../harness/wait';
import { CONTINUE_INSTRUCTION } from '../../../src/core/chat/streamingAnswer';
import { FakeBackend, FakeSaver, FakeView, ScriptedStream } from '../fakes/chatEngine';

/** The chat state machine with fakes for the view, the disk and the service: no VS Code, no network. */
describe('chat engine', () => {
  let view: FakeView;
  let saver: FakeSaver;
  let backend: FakeBackend;
  let clock: number;
  let engine: ChatEngine;

  const start = (conversation: Conversation = createConversation(0)) => {
    engine = new ChatEngine(conversation, view, saver, backend, { now: () => clock, appendPacing: { flushChars: 1 } });
    return engine;
  };
  const answer = () => engine.conversation.messages.at(-1)!;
  const appendedText = (_messageId: string) => view.appends().map((a) => a.text).join('');
  const patches = (messageId: string) => view.of('messagePatch').filter((p) => p.messageId === messageId);
  /** Holds the balance read after an answer (99 credits, at 6000) until the returned function is called. */
  const holdSettledReading = () => {
    let release = () => {};
    clock = 5000;
    backend.settledGate = new Promise<void>((resolve) => { release = resolve; });
    backend.settled = { credits: 99, at: 6000 };
    return () => release();
  };
  const streamed = (stream: ScriptedStream, what: string, probe: () => boolean) => waitFor(what, probe, { timeoutMs: 2000, intervalMs: 1 }).then(() => stream);

  beforeEach(() => {
    view = new FakeView();
    saver = new FakeSaver();
    backend = new FakeBackend();
    clock = 1000;
    start();
  });

  it('sends: shows and saves the question, titles the chat, streams the answer and ends it with a patch without the text', async () => {
    backend.streams.push(new ScriptedStream().answer(['Hel', 'lo ', 'there'], { requestId: 'req-7', modelId: 'm-resolved', host: 'https://b.example' }));
    const reply = await engine.send('Hello\nsecond line');
    assert.deepEqual(reply, { attachments: [] });
    assert.equal(engine.conversation.title, 'Hello');
    assert.equal(view.of('conversationChanged').at(-1)?.conversation.title, 'Hello');
    assert.equal(saver.last().messages.length, 1, 'the question is saved before the answer starts');
    await engine.whenIdle();

    const { id } = answer();
    assert.equal(answer().text, 'Hello there');
    assert.equal(answer().status, 'done');
    assert.deepEqual(backend.requests[0].messages, [{ role: 'user', content: 'Hello\nsecond line' }]);
    assert.equal(backend.requests[0].model, 'm-env', 'the environment model, without a conversation model');
    assert.equal(appendedText(id), 'Hello there');
    assert.deepEqual(view.appends().map((a) => a.seq), view.appends().map((_, i) => i + 1), 'consecutive seq numbers');
    const last = patches(id).at(-1)!;
    assert.equal(last.status, 'done');
    assert.equal(last.meta?.requestId, 'req-7');
    assert.equal(last.meta?.host, 'https://b.example', 'the answer names the host that served it');
    assert.equal(last.meta?.model, 'm-resolved');
    assert.equal(last.meta?.finishReason, 'stop');
    assert.ok(!('text' in last), 'the end of the answer does not resend its text');
    assert.equal(view.of('messageUpsert').filter((u) => u.message.id === id).length, 1, 'the answer is upserted once, when it starts');
    assert.equal((saver.last().messages[1] as { text: string }).text, 'Hello there');
    assert.ok(saver.soon >= 3, 'every delta asks for a save soon');
    assert.equal(engine.streaming, false);
  });

  it('follows turns another window saved in the conversation: shown, and the next question\'s context (issue 37)', async () => {
    backend.streams.push(new ScriptedStream().answer(['A']), new ScriptedStream().answer(['B']));
    await engine.send('First');
    await engine.whenIdle();
    const elsewhere = structuredClone(engine.conversation);
    elsewhere.title = 'Renamed elsewhere';
    elsewhere.messages.push(
      { id: 'other-q', role: 'user', text: 'From the other window', createdAt: 1500 },
      { id: 'other-a', role: 'assistant', text: 'Its answer', createdAt: 1501, status: 'done' },
    );
    saver.elsewhere = elsewhere;
    const snapshotsBefore = view.of('snapshot').length;
    await engine.send('Second');
    await engine.whenIdle();
    assert.deepEqual(backend.requests[1].messages.map((m) => m.content), ['First', 'A', 'From the other window', 'Its answer', 'Second']);
    assert.deepEqual(engine.conversation.messages.map((m) => m.text), ['First', 'A', 'From the other window', 'Its answer', 'Second', 'B']);
    assert.equal(engine.conversation.title, 'Renamed elsewhere');
    assert.equal(view.of('snapshot').length, snapshotsBefore + 1, 'the view shows the other window\'s turns before the question');
    assert.equal(view.titles.at(-1), 'Renamed elsewhere');
  });

  it('stops mid-stream: the stream is aborted, the partial answer is kept, shown as stopped and saved', async () => {
    const stream = new ScriptedStream().push({ type: 'response', meta: { status: 200, receivedAt: 0 } }, { type: 'delta', text: 'partial ' });
    backend.streams.push(stream);
    await engine.send('Say a lot');
    await streamed(stream, 'the first delta', () => answer().text === 'partial ');
    assert.equal(engine.streaming, true);
    engine.stop();
    await engine.whenIdle();
    assert.equal(stream.sawAbort, true);
    assert.equal(answer().status, 'stopped');
    assert.equal(answer().text, 'partial ');
    assert.equal(patches(answer().id).at(-1)?.status, 'stopped');
    assert.equal((saver.last().messages[1] as { status: string }).status, 'stopped');
    assert.equal(backend.failures.length, 0, 'a stop is not a failure');
  });

  it('fails before the first delta: an error card with its actions, the question kept', async () => {
    backend.openError = new ApiError('unauthorized', 'The API key was refused (HTTP 401).', { status: 401, meta: { status: 401, receivedAt: 0, requestId: 'req-401' } });
    await engine.send('Question');
    await engine.whenIdle();
    assert.equal(engine.conversation.messages[0].text, 'Question');
    assert.equal(answer().status, 'error');
    assert.deepEqual(answer().error, { kind: 'unauthorized', message: 'The API key was refused (HTTP 401).', status: 401, requestId: 'req-401' });
    const card = patches(answer().id).at(-1)?.error;
    assert.deepEqual(card?.actions.map((a) => a.label), ['Set API Key', 'Copy Request ID', 'Open Logs']);
    assert.deepEqual(backend.failures[0].context, { env: 'production', usedEnvironmentModel: true });
    assert.doesNotMatch(saver.saved.at(-1)!, /Set API Key|Open Logs|"actions"/, 'button labels never reach the disk');
  });

  it('fails: while the failure is being described the answer still streams; it becomes an error with its card at once', async () => {
    let describe!: () => void;
    const described = new Promise<void>((resolve) => (describe = resolve));
    const describeFailure = backend.describeFailure.bind(backend);
    backend.describeFailure = async (error, context) => {
      await described;
      return describeFailure(error, context);
    };
    backend.openError = new ApiError('modelNotFound', 'The chat model is unknown in this environment (HTTP 404).', { status: 404 });
    await engine.send('Question');
    await waitFor('the failure to be described', () => backend.failures.length === 0 && answer().role === 'assistant', { timeoutMs: 2000, intervalMs: 1 });
    await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(answer().status, 'streaming', 'no error without its facts');
    assert.equal(engine.streaming, true);
    describe();
    await waitFor('the error', () => answer().status === 'error', { timeoutMs: 2000, intervalMs: 1 });
    assert.equal(answer().error?.kind, 'modelNotFound');
    assert.equal(engine.streaming, false, 'an error the user can see can be retried at once');
    await engine.whenIdle();
  });

  it('fails after the first delta: Interrupted, the text received so far kept beside the error, with Continue and Retry', async () => {
    backend.streams.push(new ScriptedStream().push(
      { type: 'response', meta: { status: 200, receivedAt: 0 } },
      { type: 'delta', text: 'Half an ans' },
      { fail: new ApiError('network', 'Could not reach the service while receiving the response (ECONNRESET).') },
    ));
    await engine.send('Question');
    await engine.whenIdle();
    assert.equal(answer().text, 'Half an ans');
    assert.equal(answer().status, 'interrupted');
    assert.equal(appendedText(answer().id), 'Half an ans');
    assert.deepEqual(patches(answer().id).at(-1)?.error?.actions.map((a) => a.id).slice(0, 2), ['continue', 'retry']);
  });

  it('Continue asks the model to go on from where the answer stopped: one request, its text added to the same answer, its spend added to the answer\'s', async () => {
    clock = 5000;
    backend.settled = { credits: 99, at: 6000 };
    backend.streams.push(new ScriptedStream().push(
      { type: 'response', meta: { status: 200, receivedAt: 0, requestId: 'r1' } },
      { type: 'delta', text: 'Half an ans' },
      { fail: new ApiError('network', 'The connection dropped while the answer was arriving (ECONNRESET).') },
    ));
    await engine.send('Question');
    await engine.whenIdle();
    const cut = answer();
    assert.equal(cut.meta?.creditsSpent, 1);
    await assert.rejects(engine.continueAnswer(engine.conversation.messages[0].id), /Only the last answer, cut short/);

    backend.currentBalance = 99;
    backend.settled = { credits: 98.5, at: 7000 };
    clock = 6500;
    backend.streams.push(new ScriptedStream().answer(['wer.'], { requestId: 'r2' }));
    await engine.continueAnswer(cut.id);
    await engine.whenIdle();
    assert.equal(engine.conversation.messages.length, 2, 'one question, one answer');
    assert.equal(answer(), cut, 'the same answer, in place');
    assert.equal(cut.text, 'Half an answer.');
    assert.equal(cut.status, 'done');
    assert.equal(cut.error, undefined);
    assert.equal(cut.meta?.continuations, 1);
    assert.equal(cut.meta?.creditsSpent, 1.5, 'both requests\' spend');
    assert.deepEqual(backend.requests[1].messages.slice(-3), [
      { role: 'user', content: 'Question' },
      { role: 'assistant', content: 'Half an ans' },
      { role: 'user', content: CONTINUE_INSTRUCTION },
    ]);
    assert.deepEqual(backend.recorded.map((r) => [r.requestId, r.credits]), [['r1', 1], ['r2', 0.5]], 'each request in the ledger on its own');
    assert.equal(appendedText(cut.id), 'Half an answer.', 'the view got the continuation as appends to the same answer');
    assert.equal(patches(cut.id).at(-1)?.status, 'done');
    assert.match(saver.saved.at(-1)!, /"continuations":1/, 'kept with the conversation');
    await assert.rejects(engine.continueAnswer(cut.id), /Only the last answer, cut short/, 'a finished answer is not continued');
  });

  it('marks an answer that ended without [DONE] or a finish reason as interrupted', async () => {
    backend.streams.push(new ScriptedStream().answer(['cut'], {}, { complete: false }));
    await engine.send('Question');
    await engine.whenIdle();
    assert.equal(answer().status, 'interrupted');
    // No error to tell why, all the same a card that says it was cut, with Continue first.
    const card = patches(answer().id).at(-1)?.error;
    assert.equal(card?.kind, 'answerCut');
    assert.deepEqual(card?.actions.map((a) => a.id), ['continue', 'retry', 'openLogs']);
    assert.equal(engine.errorOf(answer().id)?.kind, 'answerCut', 'the card\'s actions find it');
  });

  it('continues an answer recovered after VS Code closed mid-answer (saved streaming, read back interrupted, without an error)', async () => {
    const recovered = createConversation(0);
    recovered.messages.push(
      { id: 'q', role: 'user', text: 'Question', createdAt: 1 },
      { id: 'a', role: 'assistant', text: 'Half an ans', createdAt: 2, status: 'interrupted' },
    );
    start(recovered);
    const card = engine.snapshot().conversation.messages[1].error;
    assert.deepEqual(card?.actions.map((a) => a.id), ['continue', 'retry', 'openLogs']);
    backend.streams.push(new ScriptedStream().answer(['wer.']));
    await engine.continueAnswer('a');
    await engine.whenIdle();
    assert.equal(answer().text, 'Half an answer.');
    assert.equal(backend.requests[0].model, 'm-env', 'without a model of its own, the environment\'s');
    assert.equal(answer().status, 'done');
    assert.equal(engine.snapshot().conversation.messages[1].error, undefined, 'no card once finished');
  });

  it('regenerates: the last answer is removed and the same question asked again', async () => {
    await engine.send('Question');
    await engine.whenIdle();
    const first = answer().id;
    backend.streams.push(new ScriptedStream().answer(['Second opinion']));
    await engine.regenerate();
    await engine.whenIdle();
    assert.deepEqual(view.of('messageRemoved').map((r) => r.messageId), [first]);
    assert.equal(engine.conversation.messages.length, 2);
    assert.equal(answer().text, 'Second opinion');
    assert.deepEqual(backend.requests[1].messages, backend.requests[0].messages);
  });

  it('edits the last question: the text is replaced, later answers dropped, and answered again', async () => {
    await engine.send('Frist question');
    await engine.whenIdle();
    const question = engine.conversation.messages[0].id;
    await engine.editLast('First question');
    await engine.whenIdle();
    assert.equal(engine.conversation.messages.length, 2);
    assert.equal(engine.conversation.messages[0].id, question, 'the same message, edited');
    assert.deepEqual(backend.requests.at(-1)?.messages, [{ role: 'user', content: 'First question' }]);
    assert.equal(view.of('messageUpsert').filter((u) => u.message.id === question).at(-1)?.message.text, 'First question');
  });

  it('refuses edits while an answer streams, but renames and saves the new title meanwhile', async () => {
    const stream = new ScriptedStream().push({ type: 'delta', text: 'streaming ' });
    backend.streams.push(stream);
    await engine.send('Question');
    await streamed(stream, 'the first delta', () => answer().text.length > 0);
    await assert.rejects(engine.send('Another'), /still streaming/);
    await assert.rejects(engine.regenerate(), /still streaming/);
    await assert.rejects(engine.editLast('x'), /still streaming/);
    assert.throws(() => engine.load(createConversation()), /still streaming/);
    await engine.rename('  Renamed  ');
    assert.equal(view.of('conversationChanged').at(-1)?.conversation.title, 'Renamed');
    assert.equal(saver.last().title, 'Renamed');
    stream.push({ type: 'delta', text: 'on' }, { type: 'end', complete: true });
    await engine.whenIdle();
    assert.equal(saver.last().title, 'Renamed', 'the answer\'s final save keeps the new title');
    assert.equal(answer().text, 'streaming on');
  });

  it('names the view after the conversation when it is titled, renamed or another is loaded, even while the view is not ready', async () => {
    view.ready = false;
    await engine.send('What is a monad?');
    await engine.whenIdle();
    await engine.rename('Monads');
    const other = createConversation(1);
    other.title = 'Older chat';
    engine.load(other);
    assert.deepEqual(view.titles, ['What is a monad?', 'Monads', 'Older chat']);
    assert.equal(view.posted.length, 0, 'nothing is posted to a view that is not ready');
    view.ready = true;
    engine.showSnapshot();
    assert.equal(view.of('snapshot').at(-1)?.conversation.id, other.id);
    assert.equal(view.titles.length, 3, 'showing the conversation again does not rename the view');
  });

  it('shows the spend only from a balance read after the answer, and only when it went down', async () => {
    const ask = async (settled: { credits: number; at: number } | undefined) => {
      backend.settled = settled;
      await engine.send('Question');
      clock += 10;
      await engine.whenIdle();
      return answer().meta?.creditsSpent;
    };
    clock = 5000;
    assert.equal(await ask({ credits: 99.25, at: 6000 }), 0.75, 'a newer, lower balance gives the spend');
    assert.equal(patches(answer().id).at(-1)?.meta?.creditsSpent, 0.75);
    assert.equal((saver.last().messages.at(-1)!.meta as { creditsSpent: number }).creditsSpent, 0.75);
    const first = answer().meta;
    assert.deepEqual(backend.recorded, [{ requestId: first?.requestId, model: first?.model, environment: 'production', kind: 'chat', credits: 0.75, chars: { in: 'Question'.length, out: 'A short answer.'.length } }], 'the spend goes to the usage ledger');
    assert.equal(await ask({ credits: 90, at: 10 }), undefined, 'an older reading is the stream\'s pre-billing balance');
    assert.equal(await ask({ credits: 150, at: 99_999 }), undefined, 'a higher balance (a top-up) gives no spend');
    assert.equal(await ask(undefined), undefined, 'no reading, no spend');
    backend.currentBalance = undefined;
    const reads = backend.settledReads;
    assert.equal(await ask({ credits: 1, at: 99_999 }), undefined, 'no balance before, no spend');
    assert.equal(backend.settledReads, reads + 1, 'read all the same, as on every path: it shows the settled balance');
    // Billed all the same: each is in the ledger without a cost, so that spending limits count the allowance for it.
    assert.deepEqual(backend.recorded.map((r) => r.credits), [0.75, null, null, null, null], 'answers without a measured spend are in the ledger without a cost');
  });

  it('says why a billed answer has no spend (no reading), and nothing for a request that failed before a response', async () => {
    clock = 5000;
    backend.settled = undefined;
    await engine.send('Question');
    await engine.whenIdle();
    assert.equal(answer().meta?.spendNotMeasured, 'noReading');
    assert.equal(patches(answer().id).at(-1)?.meta?.spendNotMeasured, 'noReading', 'the view learns it');
    assert.equal((saver.last().messages.at(-1)!.meta as { spendNotMeasured?: string }).spendNotMeasured, 'noReading', 'kept with the conversation');
    backend.currentBalance = undefined;
    await engine.send('Without a balance before');
    await engine.whenIdle();
    assert.equal(answer().meta?.spendNotMeasured, 'noReading', 'no balance before the answer either');
    backend.openError = new ApiError('insufficientCredits', 'The wallet has too few credits (HTTP 402).', { status: 402 });
    await engine.send('Refused');
    await engine.whenIdle();
    assert.equal(answer().status, 'error');
    assert.deepEqual([answer().meta?.creditsSpent, answer().meta?.spendNotMeasured], [undefined, undefined], 'not billed: neither spend nor reason');
  });

  it('records no spend for answers of two panels that streamed at the same time, and records it again for one alone', async () => {
    clock = 5000;
    backend.settled = { credits: 99, at: 6000 };
    const first = new ScriptedStream();
    backend.streams.push(first);
    await engine.send('First panel');
    const firstEngine = engine;
    await streamed(first, 'the first answer to start', () => backend.requests.length === 1);
    // A second panel of the same window, on the same wallet, while the first still streams.
    const secondEngine = start();
    await secondEngine.send('Second panel');
    await secondEngine.whenIdle();
    first.answer(['done'], { requestId: 'req-first' });
    await firstEngine.whenIdle();
    assert.equal(firstEngine.conversation.messages.at(-1)?.meta?.creditsSpent, undefined, 'the difference holds both answers');
    assert.equal(secondEngine.conversation.messages.at(-1)?.meta?.creditsSpent, undefined);
    assert.deepEqual(backend.recorded.map((r) => [r.requestId, r.credits]).sort(), [['req-1', null], ['req-first', null]], 'billed: in the ledger without a cost');
    assert.deepEqual(backend.overlappedSpends.sort(), ['req-1', 'req-first'], 'each says why it has no spend');
    for (const panel of [firstEngine, secondEngine]) assert.equal(panel.conversation.messages.at(-1)?.meta?.spendNotMeasured, 'overlapped', 'and so does the answer');
    assert.equal((saver.last().messages.at(-1)!.meta as { spendNotMeasured?: string }).spendNotMeasured, 'overlapped', 'kept with the conversation');

    backend.currentBalance = 99;
    backend.settled = { credits: 98.5, at: 7000 };
    await secondEngine.send('Alone now');
    await secondEngine.whenIdle();
    assert.equal(answer().meta?.creditsSpent, 0.5);
    assert.equal(backend.recorded.at(-1)?.credits, 0.5);
  });

  it('measures an answer and the question sent right after it: the next stream waits for the first one\'s reading', async () => {
    const release = holdSettledReading();
    await engine.send('First');
    await waitFor('the first answer\'s reading', () => !engine.streaming && backend.settledReads === 1, { timeoutMs: 2000, intervalMs: 1 });
    const first = answer();
    await engine.send('Right after');
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(backend.requests.length, 1, 'the second answer is not sent while the first one\'s reading could still include its reserve');
    release();
    await engine.whenIdle();
    assert.equal(backend.requests.length, 2);
    assert.deepEqual([first.meta?.creditsSpent, answer().meta?.creditsSpent], [1, 1]);
    assert.deepEqual(backend.overlappedSpends, []);
  });

  it('shows and saves a spend measured after another conversation was loaded with the answer\'s own conversation', async () => {
    const release = holdSettledReading();
    await engine.send('Question');
    const asked = engine.conversation;
    await waitFor('the answer\'s reading', () => !engine.streaming && backend.settledReads === 1, { timeoutMs: 2000, intervalMs: 1 });
    const other = createConversation(1);
    engine.load(other);
    release();
    await engine.whenIdle();
    const spendPatch = view.of('messagePatch').find((p) => p.meta?.creditsSpent !== undefined);
    assert.equal(spendPatch?.conversationId, asked.id, 'the patch names the conversation the answer belongs to');
    assert.equal(saver.last().id, asked.id, 'the conversation saved with the spend is the answer\'s');
    assert.equal((saver.last().messages.at(-1)!.meta as { creditsSpent: number }).creditsSpent, 1);
    assert.equal(engine.conversation, other, 'the loaded conversation stays shown');
    assert.equal(other.messages.length, 0);
  });

  it('keeps the token usage the stream reported in the answer\'s meta', async () => {
    backend.streams.push(new ScriptedStream().push(
      { type: 'response', meta: { status: 200, receivedAt: 0 } },
      { type: 'delta', text: 'Hi' },
      { type: 'usage', usage: { promptTokens: 12, completionTokens: 3, totalTokens: 15 } },
      { type: 'end', complete: true },
    ));
    await engine.send('Question');
    await engine.whenIdle();
    assert.deepEqual(patches(answer().id).at(-1)?.meta?.usage, { promptTokens: 12, completionTokens: 3, totalTokens: 15 });
    assert.deepEqual((saver.last().messages[1].meta as { usage: unknown }).usage, { promptTokens: 12, completionTokens: 3, totalTokens: 15 });
  });

  it('refused by a spending limit: an error card with Raise Limit and Send Anyway, the question kept, nothing sent', async () => {
    backend.billingRefusal = new ApiError('spendingLimit', 'The daily spending limit of "production" is reached: 5 of 5 credits spent today. Nothing was sent. The limit resets at 00:00.');
    await engine.send('Question');
    await engine.whenIdle();
    assert.equal(backend.requests.length, 0, 'no stream was opened');
    assert.equal(engine.conversation.messages[0].text, 'Question', 'the prompt stays in the conversation');
    assert.equal(answer().status, 'error');
    assert.match(answer().error?.message ?? '', /daily spending limit .* resets at/);
    assert.deepEqual(patches(answer().id).at(-1)?.error?.actions.map((a) => a.id), ['raiseLimit', 'sendAnyway', 'openLogs']);
    await engine.regenerate();
    await engine.whenIdle();
    assert.equal(backend.requests.length, 1, 'sent again (after Send Anyway) exactly once');
    assert.equal(answer().status, 'done');
  });

  it('records the characters sent and received with the spend, and shows the estimate the ledger gives for the model', async () => {
    backend.settled = { credits: 99.5, at: Number.MAX_SAFE_INTEGER };
    backend.streams.push(new ScriptedStream().answer(['Twelve chars'], { requestId: 'req-c' }));
    await engine.send('Question');
    await engine.whenIdle();
    await waitFor('the spend', () => backend.recorded.length > 0, { timeoutMs: 2000, intervalMs: 1 });
    assert.deepEqual(backend.recorded[0].chars, { in: 'Question'.length, out: 'Twelve chars'.length });
    assert.equal(engine.snapshot().environment.estimate, undefined, 'nothing when the ledger has too few answers');
    backend.spendEstimate = { creditsPer1kChars: 0.4, answers: 7, answerChars: 900 };
    assert.deepEqual(engine.snapshot().environment.estimate, { creditsPer1kChars: 0.4, answers: 7, answerChars: 900 });
  });

  it('answers "no model" as an error card without asking the service', async () => {
    backend.env = { name: 'production', label: 'Production' };
    await engine.send('Question');
    await engine.whenIdle();
    assert.equal(backend.requests.length, 0);
    assert.equal(answer().error?.kind, 'modelNotFound');
    assert.equal(patches(answer().id).at(-1)?.error?.actions[0].label, 'Pick Model');
  });

  // Issue 27, item 9: the card said "No chat model is selected" where the settings were the reason.
  it('states a settings problem before the missing model, with Open Settings, without asking the service', async () => {
    backend.env = { name: 'lan', label: 'lan' };
    backend.settingsProblem = 'Setting "inference.environments": the base URL of "lan" ("http://lan.example/api/v1") uses plain http to another machine. Nothing is sent to "lan" until it is fixed.';
    await engine.send('Question');
    await engine.whenIdle();
    assert.equal(backend.requests.length, 0);
    assert.deepEqual([answer().error?.kind, answer().error?.message], ['notConfigured', backend.settingsProblem]);
    assert.equal(patches(answer().id).at(-1)?.error?.actions[0]?.label, 'Open Settings');
  });

  it('uses the conversation\'s own model and parameters over the environment\'s', async () => {
    backend.defaults = { systemPrompt: 'Be brief', temperature: 0.9 };
    await engine.setModel('m-own');
    await engine.setParams({ temperature: 0.2, top_p: 7, max_tokens: 5 });
    await engine.send('Question');
    await engine.whenIdle();
    const request = backend.requests[0];
    assert.equal(request.model, 'm-own');
    assert.deepEqual([request.temperature, request.top_p, request.max_tokens], [0.2, undefined, 5], 'out-of-range values count as not set');
    assert.deepEqual(request.messages[0], { role: 'system', content: 'Be brief' });
    backend.openError = new ApiError('modelNotFound', 'unknown model', { status: 404 });
    await engine.send('Again');
    await engine.whenIdle();
    assert.equal(backend.failures[0].context.usedEnvironmentModel, false, 'a 404 for the conversation\'s model does not forget the environment\'s');
  });

  it('takes pending attachments with the next question and answers the attach requests with the chips', async () => {
    const chips = engine.attach({ id: 'a1', kind: 'selection', label: 'x.ts:1', content: 'let a;' });
    assert.deepEqual(chips, [{ id: 'a1', kind: 'selection', label: 'x.ts:1', chars: 6 }], 'the chip carries the size, not the content');
    assert.deepEqual(engine.attach({ id: 'a2', kind: 'selection', label: 'x.ts:1', content: 'let b;' }).map((c) => c.id), ['a2'], 'the same selection replaces its chip');
    engine.attach({ id: 'a3', kind: 'file', label: 'x.ts', content: 'all' });
    assert.deepEqual(engine.removeAttachment('a3').map((c) => c.id), ['a2']);
    await engine.send('Explain');
    await engine.whenIdle();
    assert.match(contentText(backend.requests[0].messages[0].content), /let b;/);
    assert.deepEqual(engine.snapshot().attachments, []);
  });

  it('gives a snapshot mid-stream that says where the appends stand', async () => {
    const stream = new ScriptedStream().push({ type: 'delta', text: 'abc' });
    backend.streams.push(stream);
    await engine.send('Question');
    await streamed(stream, 'the delta to be sent', () => view.appends().length === 1);
    const snapshot = engine.snapshot();
    assert.deepEqual(snapshot.streaming, { messageId: answer().id, seq: 1 });
    assert.equal(snapshot.conversation.messages.at(-1)?.text, 'abc');
    engine.stop();
    await engine.whenIdle();
  });

  it('waits on dispose until the stopped answer is saved', async () => {
    const stream = new ScriptedStream().push({ type: 'delta', text: 'unsaved?' });
    backend.streams.push(stream);
    await engine.send('Question');
    await streamed(stream, 'the delta', () => answer().text.length > 0);
    await engine.dispose();
    assert.equal((saver.last().messages[1] as { status: string; text: string }).status, 'stopped');
    assert.equal((saver.last().messages[1] as { text: string }).text, 'unsaved?');
  });

  it('sends service parameters: the settings\' for the answering model, with the conversation\'s winning key by key', async () => {
    backend.defaults = { service_parameters: { region: 'eu', tier: 'batch' } };
    engine.conversation.params = { service_parameters: { tier: 'priority', trace: true } };
    engine.conversation.model = 'm-own';
    await engine.send('hi');
    await engine.whenIdle();
    assert.deepEqual(backend.requests[0].service_parameters, { region: 'eu', tier: 'priority', trace: true });
    assert.equal(backend.defaultsAskedFor.at(-1), 'm-own', 'the defaults are those of the model that answers');
  });

  it('sends no service parameters when none are set', async () => {
    await engine.send('hi');
    await engine.whenIdle();
    assert.equal('service_parameters' in backend.requests[0], false);
  });

  it('records when the first text arrived, once', async () => {
    const stream = new ScriptedStream();
    backend.streams.push(stream);
    clock = 1000;
    await engine.send('hi');
    clock = 1400;
    stream.push({ type: 'response', meta: { status: 200, receivedAt: 1400 } }, { type: 'delta', text: 'a' });
    await streamed(stream, 'the first delta', () => answer().text === 'a');
    clock = 1900;
    stream.push({ type: 'delta', text: 'b' }, { type: 'finish', reason: 'stop' }, { type: 'end', complete: true });
    await engine.whenIdle();
    assert.equal(answer().meta?.startedAt, 1000);
    assert.equal(answer().meta?.firstDeltaAt, 1400);
    assert.equal(patches(answer().id).at(-1)?.meta?.firstDeltaAt, 1400);
  });

  it('keeps the model\'s thinking apart: its own appends, stored with the answer, never sent back', async () => {
    const stream = new ScriptedStream();
    stream.push({ type: 'response', meta: { status: 200, receivedAt: 0 } }, { type: 'reasoning', text: 'Let me ' }, { type: 'reasoning', text: 'think.' });
    stream.push({ type: 'delta', text: 'The answer.' }, { type: 'finish', reason: 'stop' }, { type: 'end', complete: true });
    backend.streams.push(stream);
    await engine.send('Question');
    await engine.whenIdle();
    assert.equal(answer().reasoning, 'Let me think.');
    assert.equal(answer().text, 'The answer.');
    const appends = view.appends();
    assert.equal(appends.filter((a) => a.reasoning).map((a) => a.text).join(''), 'Let me think.');
    assert.equal(appends.filter((a) => !a.reasoning).map((a) => a.text).join(''), 'The answer.');
    assert.equal((saver.last().messages[1] as { reasoning?: string }).reasoning, 'Let me think.');
    await engine.send('Next');
    await engine.whenIdle();
    const sent = JSON.stringify(backend.requests[1].messages);
    assert.ok(sent.includes('The answer.') && !sent.includes('Let me think'), 'the thinking is not sent back');
  });
});
