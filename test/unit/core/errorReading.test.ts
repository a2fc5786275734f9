import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { actionsForError } from '../../../src/core/errorActions';
import { failure, HELLO, useEmulator } from './support';

describe('errors read no more into a status than the contract says', () => {
  const { emulator, client } = useEmulator();
  const chatModel = () => emulator().environments.production.chatModels[0];

  it('a 403 on images says what the service said, and names the scope and paid plans only as likely causes', async () => {
    emulator().injectFault('production', { fault: 'http-403', path: '/images/generations' });
    const error = await failure(client().generateImage({ model: 'auto', prompt: 'x' }));
    assert.equal(error.kind, 'forbidden');
    assert.match(error.message, /The service said: Emulated fault http-403\./);
    assert.match(error.message, /Likely causes: the key lacks the "images" scope, or the model needs a paid plan/);
    assert.equal(error.endpoint, 'images');
  });

  it('a 403 whose body names a scope is still reported in the service\'s words', async () => {
    const error = await failure(client('production', { apiKey: emulator().keys.production.chatOnly }).generateImage({ model: 'auto', prompt: 'x' }));
    assert.equal(error.kind, 'missingScope');
    assert.match(error.message, /The service said: The API key lacks the "images" scope\./);
    assert.match(error.message, /Likely cause: the key lacks the "images" scope; set a key that has it\./);
  });

  it('a 404 on chat is an unknown model only when the service answered with its JSON; a proxy page points at the base URL', async () => {
    const unknown = await failure(client().chat({ model: 'no-such-model', messages: HELLO }));
    assert.equal(unknown.kind, 'modelNotFound');
    assert.equal(unknown.endpoint, 'chat');
    emulator().injectFault('production', { fault: 'html-404' });
    const proxy = await failure(client().chat({ model: chatModel(), messages: HELLO }));
    assert.equal(proxy.kind, 'notFound');
    assert.match(proxy.message, /the base URL may be wrong/);
    assert.match(proxy.message, /The service said: 404 Not Found/);
    assert.deepEqual(actionsForError(proxy.kind).map((action) => action.id), ['openSettings', 'openLogs']);
    const { origin } = emulator().environments.production;
    const elsewhereJson = await failure(client('production', { baseUrl: `${origin}/elsewhere/api/v1` }).chat({ model: chatModel(), messages: HELLO }));
    assert.equal(elsewhereJson.kind, 'notFound', 'JSON about a missing endpoint is not an unknown model');
    emulator().injectFault('production', { fault: 'html-404', path: '/images/generations' });
    assert.equal((await failure(client().generateImage({ model: 'auto', prompt: 'x' }))).kind, 'notFound');
  });

  it('a 404 for an image model names the image endpoint, so the host forgets only the image model', async () => {
    const error = await failure(client().generateImage({ model: 'emu-image-gone', prompt: 'x' }));
    assert.equal(error.kind, 'modelNotFound');
    assert.equal(error.endpoint, 'images');
    assert.match(error.message, /image model is unknown/);
  });

  describe('redirects', () => {
    let elsewhere: http.Server;
    const received: http.IncomingHttpHeaders[] = [];
    let elsewhereUrl = '';
    before(async () => {
      elsewhere = http.createServer((req, res) => {
        received.push(req.headers);
        res.end('{}');
      });
      await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
      elsewhereUrl = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
    });
    after(() => new Promise<void>((resolve) => elsewhere.close(() => resolve())));

    it('are not followed: the key never reaches the new address, and the error says why', async () => {
      for (const path of ['/models', '/chat/completions', '/images/generations']) {
        emulator().injectFault('production', { fault: 'redirect-308', path, location: `${elsewhereUrl}/api/v1${path}` });
      }
      const errors = [
        await failure(client().listModels()),
        await failure(client().chat({ model: chatModel(), messages: HELLO })),
        await failure(client().generateImage({ model: 'auto', prompt: 'x' })),
      ];
      assert.equal(received.length, 0, 'the redirect target received no request');
      for (const error of errors) {
        assert.equal(error.kind, 'redirected');
        assert.equal(error.status, 308);
        assert.match(error.message, new RegExp(`The base URL redirects \\(HTTP 308 to ${elsewhereUrl.replace(/[.]/g, '\\.')}\\)`));
        assert.match(error.message, /the API key was not sent there/);
        assert.match(error.message, /"inference\.environments"/);
      }
      assert.deepEqual(actionsForError('redirected').map((action) => action.id), ['openSettings', 'openLogs']);
    });
  });
});
