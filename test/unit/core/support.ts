import { InferenceClient, type ClientOptions } from '../../../src/core/client';
import type { ChatStreamEvent, ResponseMeta } from '../../../src/core/types';
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
