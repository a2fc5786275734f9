/** The local endpoint's runs behind their ports: start, restart with a new token, stop, the client kept per run, the busy port. */
import assert from 'node:assert/strict';
import net from 'node:net';
import OpenAI from 'openai';
import { InferenceClient } from '../../../src/core/api/client';
import { LocalEndpoint, type LocalEndpointPorts } from '../../../src/core/localEndpoint/localEndpoint';
import type { RequestSummary } from '../../../src/core/localEndpoint/server';
import { startEmulator, type Emulator } from '../../emulator';
import { waitFor } from '../../harness/wait';
import { bearer, rawRequest } from '../emulator/helpers';

describe('local endpoint: its runs behind ports (start, restart, stop, one client per run)', () => {
  let emulator: Emulator;
  const clients: InferenceClient[] = [];
  const endpoints: LocalEndpoint[] = [];
  const messages = [{ role: 'user' as const, content: 'a long answer please' }];

  before(async () => {
    // Paced, so that a stream is still running when its client leaves.
    emulator = await startEmulator({ tokensPerSecond: 40 });
  });
  after(() => emulator.close());
  afterEach(async () => {
    await Promise.all(endpoints.splice(0).map((endpoint) => endpoint.stop(true)));
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });

  /** An endpoint whose ports record what it asked for and said. */
  const endpoint = (overrides: Partial<LocalEndpointPorts> = {}) => {
    const said: string[] = [];
    const billed: RequestSummary[] = [];
    let made = 0;
    let changes = 0;
    const runs = new LocalEndpoint({
      client: async () => {
        made++;
        const client = new InferenceClient({ baseUrl: emulator.environments.production.baseUrl, apiKey: emulator.keys.production.full, keyPrefix: emulator.keyPrefix });
        clients.push(client);
        return client;
      },
      port: () => 0,
      environmentLabel: () => 'Production',
      namedTokens: () => [],
      openBillingWindow: async () => ({ close: (answered) => billed.push(answered) }),
      log: { info: (message) => said.push(`info ${message}`), warn: (message) => said.push(`warn ${message}`) },
      changed: () => changes++,
      ...overrides,
    });
    endpoints.push(runs);
    return { runs, said, billed, made: () => made, changes: () => changes };
  };
  // Two tokens: the emulator is paced for the stream test.
  const ask = (origin: string, token: string) => rawRequest(`${origin}/v1/chat/completions`, { headers: bearer(token), body: { model: 'emu-chat-small', max_tokens: 2, messages: [{ role: 'user', content: 'x' }] } });

  it('starts with a token, answers through the service, and counts what it answered with the last request id', async () => {
    const { runs, said, billed, changes } = endpoint();
    const started = await runs.start();
    assert.deepEqual(runs.state, { port: started.port, origin: `http://127.0.0.1:${started.port}`, served: 0 });
    assert.equal(runs.token, started.token);
    assert.match(said[0]!, /^info local endpoint: listening on http:\/\/127\.0\.0\.1:\d+, forwarding to the active environment \(Production\)$/);
    const answered = await ask(started.origin, started.token);
    assert.equal(answered.status, 200);
    const requestId = emulator.requests.at(-1)!.id;
    await waitFor('the request counted', () => runs.state?.served === 1, { timeoutMs: 3000, intervalMs: 10 });
    assert.equal(runs.state?.lastRequestId, requestId);
    assert.equal(billed.length, 1, 'the billed request closed its billing window');
    assert.equal(billed[0]!.requestId, requestId);
    assert.ok(said.some((line) => line.startsWith('info local endpoint: POST /v1/chat/completions')), said.join('\n'));
    assert.ok(changes() >= 2, 'started, then answered');
    const refused = await ask(started.origin, 'not-the-token');
    assert.equal(refused.status, 401);
    assert.ok(said.at(-1)!.startsWith('warn '), 'a refusal is a warning in the log');
  });

  it('restarts with a new token on a second start: the old token is refused, the old port closed', async () => {
    const { runs } = endpoint();
    const first = await runs.start();
    const second = await runs.start();
    assert.notEqual(second.token, first.token);
    assert.equal((await rawRequest(`${second.origin}/v1/models`, { headers: bearer(first.token) })).status, 401);
    assert.equal((await rawRequest(`${second.origin}/v1/models`, { headers: bearer(second.token) })).status, 200);
    if (second.port !== first.port) assert.match((await rawRequest(`${first.origin}/v1/models`, { headers: bearer(first.token) })).error ?? '', /ECONNREFUSED/);
  });

  it('stops: the port closes, the state and token go, and a second stop says none ran', async () => {
    const { runs, said } = endpoint();
    const started = await runs.start();
    assert.equal(await runs.stop(), true);
    assert.equal(runs.state, undefined);
    assert.equal(runs.token, undefined);
    assert.equal(said.at(-1), 'info local endpoint: stopped');
    assert.match((await rawRequest(`${started.origin}/v1/models`, { headers: bearer(started.token) })).error ?? '', /ECONNREFUSED/);
    assert.equal(await runs.stop(), false);
  });

  it('makes its client once per run, and again after forgetClient (a key, environment or settings change)', async () => {
    const { runs, made } = endpoint();
    const { origin, token } = await runs.start();
    for (let i = 0; i < 3; i++) assert.equal((await ask(origin, token)).status, 200);
    assert.equal(made(), 1);
    runs.forgetClient();
    assert.equal((await ask(origin, token)).status, 200);
    assert.equal(made(), 2);
  });

  it('passes the client\'s leaving on to the service: a stream stopped by its reader closes the upstream request', async () => {
    const { runs } = endpoint();
    const { origin, token } = await runs.start();
    const stream = await new OpenAI({ apiKey: token, baseURL: `${origin}/v1`, maxRetries: 0 }).chat.completions.create({ model: 'emu-chat-small', messages, stream: true });
    for await (const chunk of stream) if (chunk.choices[0]?.delta.content) break;
    const record = emulator.requests.at(-1);
    await waitFor('the emulator seeing the client leave', () => record?.clientClosedAt, { timeoutMs: 3000, intervalMs: 10 });
  });

  it('names the setting when the configured port is taken, and runs nothing', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const port = (taken.address() as net.AddressInfo).port;
      const { runs } = endpoint({ port: () => port });
      await assert.rejects(runs.start(), new RegExp(`^Error: Port ${port} is already in use\\. Choose another in the "inference\\.localEndpoint\\.port" setting, or 0 for a free port\\.$`));
      assert.equal(runs.state, undefined);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});
