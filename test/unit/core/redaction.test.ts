import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { exportMarkdown } from '../../../src/core/chat/exportMarkdown';
import { createConversation } from '../../../src/core/chat/conversation';
import { parseConversation, serializeConversation } from '../../../src/core/chat/history/serialization';
import { InferenceClient } from '../../../src/core/api/client';
import { ApiError } from '../../../src/core/api/errors';
import { keySecrets, redactErrorText, redactSecrets } from '../../../src/core/api/redact';
import { drain, HELLO, useEmulator } from './support';

const KEY = 'svc-Zq8AbCdEfGhIjKlMnOpQrStUvWxYz0123';
const jsonEscaped = (text: string) => [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

/** Every way an error could be shown, logged or stored. */
function everyRendering(error: unknown): string {
  const parts = [String(error), inspect(error, { showHidden: true, depth: 10 }), JSON.stringify(error)];
  if (error instanceof ApiError) parts.push(error.message, error.serviceMessage ?? '', error.serviceCode ?? '', error.stack ?? '', JSON.stringify(error.meta));
  return parts.join('\n');
}

function assertNoKey(text: string, key: string, prefix = 'svc-'): void {
  assert.equal(text.includes(key), false, 'the key itself');
  assert.equal(text.includes(key.slice(prefix.length)), false, 'the key without its prefix');
}

describe('redaction of credentials from response-derived text', () => {
  describe('redactSecrets', () => {
    const cases: Array<[string, string, string]> = [
      ['the key anywhere', `echo: ${KEY}.`, 'echo: [redacted].'],
      ['the key after a prefix the echo dropped', `token ${KEY.slice(4)} unknown`, 'token [redacted] unknown'],
      ['a bearer header echo', 'Authorization: Bearer abc.def-ghi', 'Authorization: Bearer [redacted]'],
      ['any bearer token, in any case', '{"auth":"bearer eyJhbGciOi.x.y"}', '{"auth":"bearer [redacted]"}'],
      ['x-api-key style fields', 'x-api-key=abc123456; api_key: "zzz999", apikey:q1w2e3', 'x-api-key=[redacted]; api_key: "[redacted]", apikey:[redacted]'],
      ['a URL-encoded key', `next=/x?key=${encodeURIComponent('svc-a/b+c=d_long')}`, 'next=/x?key=[redacted]'],
      ['a key written in JSON \\u escapes, wholly', `{"m":"was ${jsonEscaped(KEY)}."}`, '{"m":"was [redacted]."}'],
      ['a key with one character \\u-escaped, in upper-case hex', `{"m":"${KEY.slice(0, 9)}\\u00${KEY.charCodeAt(9).toString(16).toUpperCase()}${KEY.slice(10)}"}`, '{"m":"[redacted]"}'],
      ['a key percent-escaped character by character', `q=${[...KEY].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('')}&x=1`, 'q=[redacted]&x=1'],
      ['a key escaped twice (JSON inside a JSON string)', `"{\\"k\\":\\"\\\\u0073${KEY.slice(1)}\\"}"`, '"{\\"k\\":\\"[redacted]\\"}"'],
      ['a \\/ inside the key', `"svc-a\\/b+c=d_long"`, '"[redacted]"'],
    ];
    for (const [name, input, expected] of cases) {
      it(`removes ${name}`, () => assert.equal(redactSecrets(input, [...keySecrets(KEY, 'svc-'), 'svc-a/b+c=d_long']), expected));
    }
    it('keeps JSON valid: a redacted escape is replaced whole, and decoded strings are redacted of bearer tokens too', () => {
      const body = `{"error":{"message":"x\\u0020${jsonEscaped(KEY)}\\n","note":"Authorization: Bearer\\u0020abcdefgh123"}}`;
      const once = redactSecrets(body, keySecrets(KEY, 'svc-'));
      assert.deepEqual(JSON.parse(once), { error: { message: 'x [redacted]\n', note: 'Authorization: Bearer abcdefgh123' } });
      assert.deepEqual(JSON.parse(redactErrorText(body, keySecrets(KEY, 'svc-'))), { error: { message: 'x [redacted]\n', note: 'Authorization: Bearer [redacted]' } });
    });
    it('leaves ordinary service messages alone, and ignores secrets too short to search for', () => {
      const text = 'The API key was refused (HTTP 401): missing_api_key. max_tokens: 4096 is too large. Token count 12.';
      assert.equal(redactSecrets(text, ['x', '', undefined]), text);
    });
  });

  describe('the client, against a service that echoes the Authorization header', () => {
    const { emulator, client } = useEmulator();
    const key = () => emulator().keys.production.full;

    it('builds no error, on any endpoint, that holds the key', async () => {
      const model = emulator().environments.production.chatModels[0];
      const calls: Array<(c: InferenceClient) => Promise<unknown>> = [
        (c) => c.listModels(),
        (c) => c.chat({ model, messages: HELLO }),
        (c) => c.generateImage({ model: 'auto', prompt: 'x' }),
        async (c) => { throw (await drain(c.streamChat({ model, messages: HELLO }))).error; },
      ];
      for (const call of calls) {
        emulator().injectFault('production', { fault: 'echo-authorization' });
        const error = await call(client()).catch((e: unknown) => e);
        assert.ok(error instanceof ApiError && error.kind === 'badRequest', String(error));
        assert.match(error.message, /Bearer \[redacted\]/);
        assertNoKey(everyRendering(error), key());
      }
      assert.equal(emulator().requests.filter((r) => r.errorCode === 'echoed_authorization').length, calls.length, 'the emulator did echo each time');
    });

    it('keeps the partial answer and redacts a stream error that echoes the header, so the saved card and the export hold no key', async () => {
      emulator().injectFault('production', { fault: 'echo-authorization-mid-stream' });
      const outcome = await drain(client().streamChat({ model: emulator().environments.production.chatModels[0], messages: HELLO }));
      assert.ok(outcome.text.length > 0, 'partial answer kept');
      assert.ok(outcome.error instanceof ApiError && outcome.error.kind === 'streamError');
      assert.match(outcome.error.message, /\[redacted\]/);
      assertNoKey(everyRendering(outcome.error), key());
      // What the chat keeps of it: the answer so far and the error's facts, from which its card is built.
      const conversation = createConversation();
      const { kind, message, status, requestId } = outcome.error;
      conversation.messages.push(
        { id: 'q', role: 'user', text: 'Hello there', createdAt: 1 },
        { id: 'a', role: 'assistant', text: outcome.text, createdAt: 2, status: 'error', error: { kind, message, ...(status !== undefined && { status }), ...(requestId && { requestId }) } },
      );
      const saved = serializeConversation(conversation);
      const exported = exportMarkdown(parseConversation(saved) ?? conversation);
      assert.match(exported, /\*\*Error:\*\* .*Bearer \\\[redacted\\\]/, 'the service\'s words, escaped as literal text');
      assertNoKey(`${saved}\n${exported}`, key());
    });
  });

});
