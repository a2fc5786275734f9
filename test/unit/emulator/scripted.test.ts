/** Scripted replies (a test control) and the chat request log: exact text, chunking, queueing, HTTP control. */
import assert from 'node:assert/strict';
import { bearer, chatBody, rawRequest, sseChunks, streamedText, useEmulator } from './helpers';

const CORPUS = '<img src=x onerror="alert(1)">\n\n**bold** 漢字 🙂 [x](javascript:alert(1))';

describe('emulator: scripted replies and the chat request log', () => {
  const emu = useEmulator();
  const post = (body: unknown, env: 'production' | 'preview' = 'production'): ReturnType<typeof rawRequest> =>
    rawRequest(`${emu().environments[env].baseUrl}/chat/completions`, { headers: bearer(emu().keys[env].full), body });
  const stream = (extra: Record<string, unknown> = {}, env: 'production' | 'preview' = 'production'): ReturnType<typeof rawRequest> =>
    post(chatBody(emu().environments[env].chatModels[0], { stream: true, ...extra }), env);
  const control = (route: string, method: string, body?: unknown): ReturnType<typeof rawRequest> =>
    rawRequest(`${emu().environments.production.origin}/__emulator/${route}`, { method, body });

  it('streams exactly the scripted text once, one piece per token, then generates again', async () => {
    emu().scriptReply('production', { text: CORPUS });
    const res = await stream();
    assert.equal(streamedText(res.text), CORPUS);
    const contents = sseChunks(res.text).map((c) => c.choices[0]?.delta.content).filter(Boolean);
    assert.deepEqual(contents.slice(0, 3), ['<img ', 'src=x ', 'onerror="alert(1)">\n\n']);
    assert.equal(emu().requests.at(-1)?.scripted, true);
    assert.match(streamedText((await stream()).text), /You said: “Tell me about emulators”/);
    assert.equal(emu().requests.at(-1)?.scripted, undefined);
  });

  it('splits the text into chunkChars pieces across tags and characters, and bills the words', async () => {
    emu().scriptReply('production', { text: CORPUS, chunkChars: 3 });
    const res = await stream();
    const contents = sseChunks(res.text).map((c) => c.choices[0]?.delta.content ?? '').filter(Boolean);
    assert.equal(contents.join(''), CORPUS);
    assert.deepEqual(contents.slice(0, 2), ['<im', 'g s']);
    assert.ok(contents.every((piece) => [...piece].length <= 3));
    assert.ok(contents.some((piece) => piece.includes('🙂')), 'an emoji (two UTF-16 units) is never split');
    assert.ok(!contents.some((piece) => /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(piece)), 'no lone surrogate');
    const usage = sseChunks(res.text).at(-1)?.usage;
    assert.equal(usage?.completion_tokens, CORPUS.split(/\s+/).length);
  });

  it('answers non-streaming requests too, honours max_tokens and queues per environment with times', async () => {
    emu().scriptReply('all', { text: 'one two three four', times: 2 });
    const cut = JSON.parse((await post(chatBody('emu-chat-large', { max_tokens: 2 }))).text) as { choices: { message: { content: string }; finish_reason: string }[] };
    assert.equal(cut.choices[0].message.content, 'one two ');
    assert.equal(cut.choices[0].finish_reason, 'length');
    assert.equal(streamedText((await stream()).text), 'one two three four');
    assert.doesNotMatch(streamedText((await stream()).text), /one two three four/, 'two times, then generated text');
    assert.equal(streamedText((await stream({}, 'preview')).text), 'one two three four', 'the preview queue is its own');
  });

  it('records messages and sampling parameters as received', async () => {
    await stream({ temperature: 0.3, top_p: 0.5, max_tokens: 7, messages: [{ role: 'system', content: 'Be brief' }, { role: 'user', content: [{ type: 'text', text: 'Hi' }] }] });
    assert.deepEqual(emu().requests.at(-1)?.chat, {
      messages: [{ role: 'system', content: 'Be brief' }, { role: 'user', content: 'Hi' }], temperature: 0.3, top_p: 0.5, max_tokens: 7,
    });
    await stream();
    assert.deepEqual(emu().requests.at(-1)?.chat, { messages: [{ role: 'user', content: 'Tell me about emulators' }] });
  });

  it('is controlled over HTTP: queue, refuse invalid, clear, and reset drops what is pending', async () => {
    const queued = await control('reply', 'POST', { text: 'over http', chunkChars: 2 });
    assert.equal(queued.status, 201);
    assert.deepEqual(JSON.parse(queued.text), { scriptedReplies: 1 });
    assert.equal(streamedText((await stream()).text), 'over http');
    for (const bad of [{}, { text: 1 }, { text: 'x', chunkChars: 0 }, { text: 'x', times: 1.5 }]) {
      assert.equal((await control('reply', 'POST', bad)).status, 400, JSON.stringify(bad));
    }
    await control('reply', 'POST', { text: 'dropped' });
    assert.equal((await control('reply', 'DELETE')).status, 200);
    assert.doesNotMatch(streamedText((await stream()).text), /dropped/);
    emu().scriptReply('production', { text: 'reset me' });
    emu().reset();
    assert.equal((JSON.parse((await control('state', 'GET')).text) as { scriptedReplies: number }).scriptedReplies, 0);
  });
});
