/** A local endpoint forwarding to an emulator through the real core client, for the unit tier. */
import { InferenceClient } from '../../../src/core/api/client';
import { createEndpointToken } from '../../../src/core/localEndpoint/auth';
import { LocalEndpointServer, type LocalEndpointOptions, type RequestSummary } from '../../../src/core/localEndpoint/server';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../emulator';

export interface EndpointFixture {
  emulator: Emulator;
  /** Starts an endpoint whose service key is `key` (default: production's full key). */
  start(options?: { key?: string } & Partial<LocalEndpointOptions>): Promise<RunningEndpoint>;
}

export interface RunningEndpoint {
  server: LocalEndpointServer;
  token: string;
  /** e.g. http://127.0.0.1:PORT (the Anthropic SDK's base URL; add /v1 for the openai SDK). */
  origin: string;
  summaries: RequestSummary[];
}

export function useLocalEndpoint(options?: EmulatorOptions): () => EndpointFixture {
  let emulator: Emulator | undefined;
  const running: Array<{ server: LocalEndpointServer; client: InferenceClient }> = [];
  before(async () => {
    emulator = await startEmulator(options);
  });
  beforeEach(() => emulator?.reset());
  afterEach(async () => {
    await Promise.all(running.splice(0).map(async ({ server, client }) => {
      await server.close();
      await client.close();
    }));
  });
  after(async () => {
    await emulator?.close();
  });
  return () => {
    const emu = emulator;
    if (!emu) throw new Error('emulator not started');
    return {
      emulator: emu,
      async start(overrides = {}) {
        const client = new InferenceClient({ baseUrl: emu.environments.production.baseUrl, apiKey: overrides.key ?? emu.keys.production.full, keyPrefix: emu.keyPrefix });
        const token = createEndpointToken();
        const summaries: RequestSummary[] = [];
        const { key: _key, ...options } = overrides;
        const server = new LocalEndpointServer({
          ...options, port: 0, token, forward: (request, signal) => client.forward(request, { signal }), onRequest: (s) => summaries.push(s),
        });
        running.push({ server, client });
        await server.listen();
        return { server, token, origin: server.baseUrl, summaries };
      },
    };
  };
}

/** Ids and timestamps differ per call; everything else of an answer must be byte-equal. */
export function normaliseIds(text: string): string {
  return text.replace(/chatcmpl-[0-9a-f]+/g, 'chatcmpl-ID').replace(/"created":\d+/g, '"created":0');
}
