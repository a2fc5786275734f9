import assert from 'node:assert/strict';
import { InferenceClient } from '../../../src/core/api/client';
import { FailoverTransport, type Failover } from '../../../src/core/api/failoverTransport';
import { HostHealth } from '../../../src/core/api/hostHealth';
import { createUndiciTransport } from '../../../src/core/api/undiciTransport';
import type { ExtraListener } from '../../emulator';
import { failure, HELLO, useEmulator } from './support';

/**
 * The failover transport over real sockets: the emulator serves production on a second listener whose
 * faults are its own (stopped, accept-then-reset, an edge's 503), and its request log proves that each
 * call reached the service once.
 */
describe('Failover over real connections (emulator with two listeners)', () => {
  const { emulator } = useEmulator();
  let extra: ExtraListener;
  const clients: InferenceClient[] = [];

  before(async () => {
    extra = await emulator().addListener('production');
  });
  afterEach(async () => {
    await extra.setMode('serve');
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });

  /** The extra listener first (the one that fails), the emulator's own second. */
  function client(): { client: InferenceClient; failovers: Failover[] } {
    const primary = emulator().environments.production;
    const failovers: Failover[] = [];
    const health = new HostHealth([extra.origin, primary.origin]);
    const transport = new FailoverTransport(createUndiciTransport(), { health, onFailover: (failover) => failovers.push(failover) });
    const made = new InferenceClient({ baseUrl: extra.baseUrl, apiKey: emulator().keys.production.full, keyPrefix: emulator().keyPrefix, transport });
    clients.push(made);
    return { client: made, failovers };
  }
  const chatModel = () => emulator().environments.production.chatModels[0];
  const posts = () => emulator().requests.filter((request) => request.method === 'POST');

  for (const mode of ['stopped', 'edge-503', 'reset'] as const) {
    it(`moves chat, images and the model list on when the first listener is ${mode}: one POST per call at the service`, async () => {
      await extra.setMode(mode);
      const { client: made, failovers } = client();
      const answer = await made.chat({ model: chatModel(), messages: HELLO });
      assert.ok(answer.text.length > 0);
      assert.equal(answer.meta.host, emulator().environments.production.origin);
      const image = await made.generateImage({ model: 'auto', prompt: 'a lighthouse' });
      assert.equal(image.images.length, 1);
      await made.listModels({ type: 'chat' });
      assert.equal(posts().length, 2, 'one POST per call reached the service');
      assert.ok(posts().every((request) => request.listener === emulator().environments.production.origin));
      assert.equal(failovers.length, 1, 'the failed listener is set aside after its first failure');
    });
  }

  it('gives one error naming both listeners when both are down', async () => {
    await extra.setMode('stopped');
    const { client: made } = client();
    emulator().injectFault('production', { fault: 'http-503', times: 1 });
    const error = await failure(made.chat({ model: chatModel(), messages: HELLO }));
    assert.match(error.message, new RegExp(`${extra.origin} \\(ECONNREFUSED\\), ${emulator().environments.production.origin} \\(HTTP 503`));
  });
});
