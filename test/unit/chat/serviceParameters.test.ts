import * as assert from 'node:assert/strict';
import { answerDetails } from '../../../src/core/chat/protocol/answerDetails';
import { createConversation, effectiveParams } from '../../../src/core/chat/conversation';
import { asServiceParameters, mergeServiceParameters, sanitizeParams } from '../../../src/core/chat/params';
import { parseConversation, serializeConversation } from '../../../src/core/chat/history/serialization';
import { parseWebviewMessage } from '../../../src/core/chat/protocol/chatMessageValidation';
import { CHAT_PROTOCOL_VERSION } from '../../../src/core/chat/protocol/chatProtocol';

describe('service parameters', () => {
  it('are any JSON object, copied; arrays, strings and null are not service parameters', () => {
    const source = { mode: 'fast', nested: { a: [1, 2] } };
    const copy = asServiceParameters(source);
    assert.deepEqual(copy, source);
    source.nested.a.push(3);
    assert.deepEqual(copy?.nested, { a: [1, 2] }, 'later edits of the setting do not reach the copy');
    for (const bad of [[1], 'x', null, 3, undefined]) assert.equal(asServiceParameters(bad), undefined);
  });

  it('merge environment, then model, then conversation, key by key', () => {
    assert.deepEqual(mergeServiceParameters({ a: 1, b: 1 }, { b: 2, c: 2 }, { c: 3 }), { a: 1, b: 2, c: 3 });
    assert.equal(mergeServiceParameters(undefined, {}), undefined, 'nothing set sends nothing');
  });

  it('survive sanitising and the conversation overrides', () => {
    assert.deepEqual(sanitizeParams({ service_parameters: { x: 1 } }), { service_parameters: { x: 1 } });
    assert.deepEqual(sanitizeParams({ service_parameters: [1] }), {});
    const conversation = createConversation(0);
    conversation.params = { temperature: 0.5, service_parameters: { b: 'conversation' } };
    assert.deepEqual(effectiveParams(conversation, { service_parameters: { a: 'settings', b: 'settings' } }), {
      temperature: 0.5, service_parameters: { a: 'settings', b: 'conversation' },
    });
  });

  it('are stored with the conversation, and so is the time of the first token', () => {
    const conversation = createConversation(0);
    conversation.params = { service_parameters: { keep: { me: true } } };
    conversation.messages.push({ id: 'a1', role: 'assistant', text: 'x', createdAt: 1, status: 'done', meta: { startedAt: 10, firstDeltaAt: 250, finishedAt: 900 } });
    const restored = parseConversation(serializeConversation(conversation));
    assert.deepEqual(restored?.params.service_parameters, { keep: { me: true } });
    assert.equal(restored?.messages[0].meta?.firstDeltaAt, 250);
  });

  it('from the webview must be an object', () => {
    const message = (service_parameters: unknown) => ({ v: CHAT_PROTOCOL_VERSION, type: 'request', id: 1, method: 'setParams', params: { params: { service_parameters } } });
    assert.ok(parseWebviewMessage(message({ a: 1 })));
    assert.equal(parseWebviewMessage(message([1])), undefined);
    assert.equal(parseWebviewMessage(message('x')), undefined);
  });
});

describe('answer details', () => {
  it('show tokens, time to first token and duration when known', () => {
    const details = answerDetails({ startedAt: 1000, firstDeltaAt: 1420, finishedAt: 3600, usage: { promptTokens: 12, completionTokens: 80, totalTokens: 92 } });
    assert.deepEqual(details.map((d) => d.text), ['80 tokens', 'first token 0.4 s', '2.6 s']);
    assert.match(details[0].title, /12 in, 80 out, 92 total/);
  });

  it('show nothing they cannot know', () => {
    assert.deepEqual(answerDetails(undefined), []);
    assert.deepEqual(answerDetails({ startedAt: 1000 }), []);
    assert.deepEqual(answerDetails({ usage: { promptTokens: 3 } }), [], 'prompt tokens alone say nothing about the answer');
  });
});
