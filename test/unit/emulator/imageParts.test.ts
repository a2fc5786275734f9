/** The emulator's image content parts: accepted as data URLs, refused per model, recorded by type and size. */
import assert from 'node:assert/strict';
import { bearer, rawRequest, useEmulator } from './helpers';
import { PNG_1X1 } from '../../shared/chatImages';

describe('emulator: image content parts', () => {
  const emu = useEmulator({ modelsWithoutImages: ['emu-chat-small'] });
  const imagePart = (url = `data:image/png;base64,${PNG_1X1.toString('base64')}`) => ({ type: 'image_url', image_url: { url } });
  const post = (model: string, content: unknown, role = 'user') =>
    rawRequest(`${emu().environments.production.baseUrl}/chat/completions`, { headers: bearer(emu().keys.production.full), body: { model, messages: [{ role, content }] } });
  const errorOf = (text: string) => (JSON.parse(text) as { error: { code: string; message: string } }).error;

  it('answers a message of text and image parts, and logs the images by type and size, never their data', async () => {
    const res = await post('emu-chat-large', [{ type: 'text', text: 'What is in the picture?' }, imagePart()]);
    assert.equal(res.status, 200);
    const logged = emu().requests.at(-1)?.chat?.messages[0];
    assert.deepEqual(logged, { role: 'user', content: 'What is in the picture?', images: [{ mime: 'image/png', bytes: PNG_1X1.length }] });
    assert.ok(!JSON.stringify(emu().requests.at(-1)).includes(PNG_1X1.toString('base64')));
    const usage = (JSON.parse(res.text) as { usage: { prompt_tokens: number } }).usage;
    assert.equal(usage.prompt_tokens, 5 + 1 + 85, 'words + 1 per message + 85 per image');
  });

  it('refuses images for a model configured without them, naming it, and charges nothing', async () => {
    const before = emu().balance('production');
    const res = await post('emu-chat-small', [{ type: 'text', text: 'Look' }, imagePart()]);
    assert.equal(res.status, 400);
    assert.equal(errorOf(res.text).code, 'images_not_supported');
    assert.match(errorOf(res.text).message, /Model "emu-chat-small" does not accept image input/);
    assert.equal(emu().balance('production'), before);
    assert.equal((await post('emu-chat-small', 'Text only is fine')).status, 200);
  });

  it('refuses an image part that is not a base64 data URL of an accepted type, and images on other roles', async () => {
    for (const url of ['https://example.test/cat.png', 'data:image/svg+xml;base64,PHN2Zz4=', 'data:image/png,rawbytes']) {
      const res = await post('emu-chat-large', [imagePart(url)]);
      assert.equal(res.status, 400, url);
      assert.equal(errorOf(res.text).code, 'invalid_image_url');
    }
    assert.equal(errorOf((await post('emu-chat-large', [imagePart()], 'system')).text).code, 'invalid_messages');
    assert.equal(errorOf((await post('emu-chat-large', [{ type: 'audio' }])).text).code, 'invalid_messages');
  });
});
