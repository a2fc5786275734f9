import * as net from 'node:net';
import { startEmulator, type Emulator, type FaultName } from '../../emulator';
import type { MatrixContext, Surface } from './surfaces';

/** What a cell must show. */
export interface Expected {
  outcome: 'ok' | 'error' | 'interrupted';
  /** The error kinds that are right for this fault (the card's or notification's). */
  kinds?: string[];
  /** An action that must be offered. */
  action?: string;
  /** Retry must not be offered (retrying unchanged cannot help). */
  noRetry?: boolean;
  /** Text streamed before the failure must stay. */
  partial?: boolean;
  /** False when the fault cannot be cleared from here (DNS): Retry must still re-attempt, and fail again. */
  recoverable?: boolean;
}

/** A fault set up for one cell: where the cell runs, and what clears the fault. */
export interface Armed {
  env?: string;
  /** The emulator that answers once the fault is cleared (network faults bring up their own). */
  clear(): Promise<Emulator | void>;
}

export interface FaultCase {
  name: string;
  /** Only streamed responses can carry it. */
  streamOnly?: boolean;
  arm(ctx: MatrixContext, surface: Surface): Promise<Armed>;
  expect(surface: Surface): Expected;
}

/** Timeouts the matrix runs with, small so that the timeout cells take seconds (not 1 s: a loaded CI machine needs the margin). */
export const MATRIX_TIMEOUTS = { connectSeconds: 2, responseSeconds: 2, idleSeconds: 2 };
const PAST_THE_TIMEOUT_MS = 3500;

function emulatorFault(fault: FaultName, expect: (surface: Surface) => Expected, extra: { delayMs?: number; retryAfterSeconds?: number } = {}, streamOnly = false): FaultCase {
  return {
    name: fault,
    streamOnly,
    async arm(ctx, surface) {
      ctx.emulator.injectFault('production', { fault, path: surface.path, ...extra });
      return { clear: async () => ctx.emulator.clearFaults() };
    },
    expect,
  };
}

const retryable = (kinds: string[], more: Partial<Expected> = {}) => (): Expected => ({ outcome: 'error', kinds, action: 'Retry', ...more });
/**
 * Cut after some text arrived: on a chat surface the answer is Interrupted, its text kept, with
 * Continue (and Retry); an API's caller gets the error after the text it already had.
 */
const midStream = (kinds: string[]) => (surface: Surface): Expected => (surface.offersActions === false
  ? retryable(kinds, { partial: true })()
  : { outcome: 'interrupted', kinds, action: 'Continue', partial: true });
const fine = (): Expected => ({ outcome: 'ok' });
const isChat = (surface: Surface) => surface.streams;
const isImages = (surface: Surface) => surface.path.endsWith('/images/generations');

/** A port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Extra environments whose base URL is broken at the network level, added to the settings by the matrix. */
export interface NetworkEnvironments { refusedPort: number }

export async function networkEnvironments(): Promise<NetworkEnvironments> {
  return { refusedPort: await closedPort() };
}

export const REFUSED_ENV = 'refused';
export const NO_DNS_ENV = 'nodns';
/** `.invalid` never resolves (RFC 2606); https, because plain http is for loopback only. */
export const NO_DNS_BASE_URL = 'https://inference-emulator.invalid/api/v1';

const connectionRefused = (network: () => NetworkEnvironments): FaultCase => ({
  name: 'connection refused',
  async arm(ctx) {
    await ctx.api.services.keys.set(REFUSED_ENV, ctx.emulator.keys.production.full);
    return {
      env: REFUSED_ENV,
      async clear() {
        // The service comes back on that address.
        const back = await startEmulator({ ports: { production: network().refusedPort } });
        await ctx.api.services.keys.set(REFUSED_ENV, back.keys.production.full);
        return back;
      },
    };
  },
  expect: retryable(['network']),
});

const dnsFailure: FaultCase = {
  name: 'DNS failure',
  async arm(ctx) {
    await ctx.api.services.keys.set(NO_DNS_ENV, ctx.emulator.keys.production.full);
    return { env: NO_DNS_ENV, clear: async () => undefined };
  },
  expect: retryable(['network'], { recoverable: false }),
};

/** The rows of the matrix: every emulator fault, then the network's own. */
export function faultCases(network: () => NetworkEnvironments): FaultCase[] {
  return [
    emulatorFault('http-400', () => ({ outcome: 'error', kinds: ['badRequest'], action: 'Open Logs', noRetry: true })),
    emulatorFault('http-401', () => ({ outcome: 'error', kinds: ['unauthorized'], action: 'Set API Key', noRetry: true })),
    emulatorFault('http-402', () => ({ outcome: 'error', kinds: ['insufficientCredits'], noRetry: true })),
    emulatorFault('http-403', (s) => ({ outcome: 'error', kinds: isImages(s) ? ['missingScope', 'forbidden'] : ['forbidden'], noRetry: true })),
    emulatorFault('http-404', (s) => (isChat(s) || isImages(s)
      ? { outcome: 'error', kinds: ['modelNotFound', 'notFound'], action: 'Pick Model', noRetry: true }
      : { outcome: 'error', kinds: ['notFound'], action: 'Open Settings', noRetry: true })),
    emulatorFault('http-429', retryable(['rateLimited']), { retryAfterSeconds: 1 }),
    emulatorFault('http-500', retryable(['server'])),
    emulatorFault('http-503', retryable(['server'])),
    emulatorFault('html-500', retryable(['server'])),
    emulatorFault('text-502', retryable(['server'])),
    emulatorFault('slow-first-byte', retryable(['timeout']), { delayMs: PAST_THE_TIMEOUT_MS }),
    emulatorFault('hang', retryable(['timeout'])),
    emulatorFault('stall-mid-stream', midStream(['timeout']), {}, true),
    emulatorFault('reset-mid-stream', midStream(['network']), {}, true),
    emulatorFault('no-done', fine, {}, true),
    emulatorFault('malformed-chunk', midStream(['malformedResponse']), {}, true),
    emulatorFault('error-mid-stream', midStream(['streamError']), {}, true),
    emulatorFault('keepalive-comments', fine, {}, true),
    emulatorFault('crlf', fine, {}, true),
    emulatorFault('tiny-writes', fine, {}, true),
    emulatorFault('large-stream', fine, {}, true),
    emulatorFault('usage-chunk', fine, {}, true),
    // A proxy's page or a wrong base URL: never read as "unknown model", whatever the call.
    emulatorFault('html-404', () => ({ outcome: 'error', kinds: ['notFound'], action: 'Open Settings', noRetry: true })),
    // Not followed (the key would go along): the settings are where the new address goes.
    emulatorFault('redirect-308', () => ({ outcome: 'error', kinds: ['redirected'], action: 'Open Settings', noRetry: true })),
    emulatorFault('no-balance-header', fine),
    // A careless service repeats the key: the error is shown, without it (the matrix checks every message for keys).
    emulatorFault('echo-authorization', () => ({ outcome: 'error', kinds: ['badRequest'], action: 'Open Logs', noRetry: true })),
    emulatorFault('echo-authorization-mid-stream', midStream(['streamError']), {}, true),
    connectionRefused(network),
    dnsFailure,
  ];
}
