/** What the webview's requests do, on a real chat engine and a host that records what it was asked. */
import * as assert from 'node:assert/strict';
import { ApiError } from '../../../src/core/api/errors';
import { ChatEngine } from '../../../src/core/chat/chatEngine';
import { createConversation, type Attachment } from '../../../src/core/chat/conversation';
import { chatRequestHandlers, type ChatRequestHost } from '../../../src/core/chat/requestHandlers';
import { comparedConversation } from '../../shared/comparedConversation';
import { FakeBackend, FakeSaver, FakeView } from '../fakes/chatEngine';

type Session = { name: string };
const SESSION: Session = { name: 'panel' };
const chip = (label: string): Attachment => ({ id: `id-${label}`, kind: 'selection', label, content: `text of ${label}` });

describe('chat requests: what each does beyond the conversation (core/chat/requestHandlers)', () => {
  let backend: FakeBackend;
  let engine: ChatEngine;
  let asked: string[];
  let title: string | undefined;
  let handlers: ReturnType<typeof chatRequestHandlers<Session>>;

  beforeEach(() => {
    backend = new FakeBackend();
    engine = new ChatEngine(createConversation(0), new FakeView(), new FakeSaver(), backend, { appendPacing: { flushChars: 1 } });
    asked = [];
    title = undefined;
    const host: ChatRequestHost<Session> = {
      modelMenu: {
        activeEnvironment: () => ({ name: 'production', label: 'Production' }),
        selectedChatModel: () => 'm-env',
        chatModels: async () => ['m-env', 'm-other'],
        pickChatModel: async () => asked.push('pickChatModel'),
      },
      copy: async (text) => void asked.push(`copy ${text}`),
      insertCode: async (code) => void asked.push(`insert ${code}`),
      openInNewFile: async (code, language) => void asked.push(`new file ${language ?? '-'} ${code}`),
      applyCode: async (block) => void asked.push(`apply ${block.info ?? '-'}`),
      openLink: async (href) => asked.push(`link ${href}`),
      capture: (kind) => chip(kind),
      pickImages: async () => [],
      pastedImage: (name) => chip(name),
      mentionRows: async () => [],
      resolveMention: async (target) => (target.kind === 'terminal' ? { label: 'Terminal', message: 'No terminal is open.' } : chip(target.kind)),
      allowOnce: () => void asked.push('allowOnce'),
      runErrorAction: async (action, error) => void asked.push(`run ${action} for ${error.kind}`),
      newConversation: async (session) => void asked.push(`new conversation in ${session.name}`),
      openHistory: async (session) => void asked.push(`history in ${session.name}`),
      askTitle: async (current) => {
        asked.push(`title (was ${current})`);
        return title;
      },
      readImage: async () => new Uint8Array(),
      showMarkdown: async (markdown) => void asked.push(`markdown ${markdown.split('\n')[0]}`),
      exportComparison: async (conversationId, turnId) => void asked.push(`export comparison ${turnId} of ${conversationId}`),
      showComparisonUsage: async (turnId) => void asked.push(`usage of comparison ${turnId}`),
      offerComparisonExport: (conversationId) => void asked.push(`offer comparison export of ${conversationId}`),
    };
    handlers = chatRequestHandlers(host);
  });

  /** Sends a question whose answer ends in an error card; its id. */
  const failedAnswer = async (kind: ConstructorParameters<typeof ApiError>[0] = 'server') => {
    backend.openError = new ApiError(kind, 'The service failed (HTTP 500)', { status: 500 });
    await engine.send('Question');
    await engine.whenIdle();
    backend.openError = undefined;
    const answer = engine.conversation.messages.at(-1)!;
    assert.equal(answer.status, 'error');
    return answer.id;
  };

  it('carries out an error card\'s action: Retry and Send Anyway answer again (the latter past the limit once), the others go to the host', async () => {
    const id = await failedAnswer();
    await handlers.errorAction(engine, { messageId: id, action: 'openLogs' }, SESSION);
    assert.deepEqual(asked, ['run openLogs for server']);
    const requests = backend.requests.length;
    await handlers.errorAction(engine, { messageId: id, action: 'sendAnyway' }, SESSION);
    await engine.whenIdle();
    assert.deepEqual(asked.slice(1), ['allowOnce']);
    assert.equal(backend.requests.length, requests + 1, 'answered again, once');
    const done = engine.conversation.messages.at(-1)!;
    await assert.rejects(Promise.resolve(handlers.errorAction(engine, { messageId: done.id, action: 'retry' }, SESSION)), /That message has no error any more\./);
  });

  it('hands a comparison\'s Export and Usage to the host with this conversation and the turn', async () => {
    await handlers.exportComparison(engine, { turnId: 't1' }, SESSION);
    await handlers.comparisonUsage(engine, { turnId: 't1' }, SESSION);
    assert.deepEqual(asked, [`export comparison t1 of ${engine.conversation.id}`, 'usage of comparison t1']);
  });

  it('answers the card\'s question again with the picked model only while it is the last message with an error', async () => {
    const id = await failedAnswer();
    await handlers.setChatModel(engine, { model: 'm-other', answerAgain: id }, SESSION);
    await engine.whenIdle();
    assert.equal(engine.conversation.model, 'm-other');
    assert.equal(backend.requests.at(-1)?.model, 'm-other', 'answered again with the pick');
    const requests = backend.requests.length;
    await handlers.setChatModel(engine, { model: 'm-env', answerAgain: id }, SESSION);
    assert.equal(backend.requests.length, requests, 'that message has no error any more: nothing is sent');
    await assert.rejects(Promise.resolve(handlers.setChatModel(engine, { model: 'unlisted' }, SESSION)), /Production does not list the model "unlisted"/);
  });

  it('attaches what the editor and a mention give, and keeps a refused mention out of the chips', async () => {
    assert.deepEqual((await handlers.attach(engine, { kind: 'selection' }, SESSION)).attachments.map((a) => a.label), ['selection']);
    const refused = await handlers.mention(engine, { kind: 'terminal' }, SESSION);
    assert.deepEqual(refused.refused, { label: 'Terminal', message: 'No terminal is open.' });
    assert.deepEqual(refused.attachments.map((a) => a.label), ['selection']);
    assert.deepEqual((await handlers.mention(engine, { kind: 'changes' }, SESSION)).attachments.map((a) => a.label), ['selection', 'changes']);
  });

  it('renames only when a title is given, and hands the surface\'s session to a new conversation and the history', async () => {
    await handlers.renameConversation(engine, {}, SESSION);
    assert.equal(engine.conversation.title, 'New chat', 'cancelled: unchanged');
    title = 'Monads';
    await handlers.renameConversation(engine, {}, SESSION);
    assert.equal(engine.conversation.title, 'Monads');
    await handlers.newConversation(engine, {}, SESSION);
    await handlers.openHistory(engine, {}, SESSION);
    await handlers.exportMarkdown(engine, {}, SESSION);
    assert.deepEqual(asked, ['title (was New chat)', 'title (was New chat)', 'new conversation in panel', 'history in panel', 'markdown # Monads']);
  });

  it('asks a comparison of the listed models only, and nothing is sent for one the environment does not list', async () => {
    await assert.rejects(async () => handlers.compare(engine, { text: 'Q', models: ['m-env', 'm-gone'] }, SESSION), /does not list the model "m-gone"/);
    assert.deepEqual(engine.conversation.messages, []);
    assert.equal(backend.requests.length, 0);
  });

  it('after exporting a conversation with comparisons, offers the comparison report (and only then)', async () => {
    const compared = new ChatEngine(comparedConversation(), new FakeView(), new FakeSaver(), backend, { appendPacing: { flushChars: 1 } });
    await handlers.exportMarkdown(compared, {}, SESSION);
    assert.deepEqual(asked, ['markdown # Which sort?', 'offer comparison export of conv-1']);
  });
});
