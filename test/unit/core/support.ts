import assert from 'node:assert/strict';
import type http from 'node:http';
import net from 'node:net';
import { InferenceClient, type ClientOptions } from '../../../src/core/api/client';
import { ApiError } from '../../../src/core/api/errors';
import type { ChatStreamEvent, ResponseMeta } from '../../../src/core/api/types';
import { startEmulator, type Emulator, type EmulatorOptions, type EnvironmentName } from '../../emulator';

export interface StreamOutcome {
  events: ChatStreamEvent[];
  text: string;
  meta?: ResponseMeta;
  error?: unknown;
}

/** Drains a chat stream, keeping whatever arrived before a failure, as the UI must. */
export async function drain(stream: AsyncIterable<ChatStreamEvent>): Promise<StreamOutcome> {
  const outcome: StreamOutcome = { events: [], text: '' };
  try {
    for await (const event of stream) {
      outcome.events.push(event);
      if (event.type === 'delta') outcome.text += event.text;
      if (event.type === 'response') outcome.meta = event.meta;
    }
  } catch (error) {
    outcome.error = error;
  }
  return outcome;
}

/** One emulator per suite, reset before each test so faults, wallets and rate limits never leak. */
export function useEmulator(options?: EmulatorOptions): { emulator: () => Emulator; client: (env?: EnvironmentName, overrides?: Partial<ClientOptions>) => InferenceClient } {
  let emulator: Emulator | undefined;
  const clients: InferenceClient[] = [];
  before(async () => {
    emulator = await startEmulator(options);
  });
  beforeEach(() => emulator?.reset());
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });
  after(async () => {
    await emulator?.close();
  });
  const current = () => {
    if (!emulator) throw new Error('emulator not started');
    return emulator;
  };
  return {
    emulator: current,
    client: (env = 'production', overrides = {}) => {
      const emu = current();
      const client = new InferenceClient({
        baseUrl: emu.environments[env].baseUrl,
        apiKey: emu.keys[env].full,
        keyPrefix: emu.keyPrefix,
        ...overrides,
      });
      clients.push(client);
      return client;
    },
  };
}

export const HELLO = [{ role: 'user' as const, content: 'Hello there' }];

/** The ApiError a call fails with; fails the test when it succeeds or throws anything else. */
export async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  assert.ok(error instanceof ApiError, `expected an ApiError, got ${String(error)}`);
  return error;
}

/** Makes `proxy` (http or https) a minimal CONNECT proxy to any target; `onTunnel` sees each `host:port`. */
export function tunnelConnections(proxy: http.Server, onTunnel: (target: string) => void = () => undefined): void {
  proxy.on('connect', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    onTunnel(req.url ?? '');
    const [host, port] = (req.url ?? '').split(':');
    const upstream = net.connect(Number(port), host, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket).pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
}
