/** Extra listeners of one environment's service (other host names of it), each with faults of its own. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EnvRuntime } from './runtime';
import { API_PREFIX, createListener } from './server';
import type { ControlHooks } from './control';
import type { ExtraListener, ListenerMode } from './types';

const EDGE_PAGE = '<html><head><title>503 Service Temporarily Unavailable</title></head><body><h1>503 Service Temporarily Unavailable</h1></body></html>';

export function listen(server: http.Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

export function originOf(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

function stop(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/**
 * A listener over `env`'s runtime (shared keys, wallet, faults and log). Its mode is checked per
 * connection and per request, so a change applies to the next connection (keep-alive ones included).
 */
export async function startExtraListener(env: EnvRuntime, host: string, shutdown: AbortSignal, hooks: ControlHooks): Promise<ExtraListener & { close(): Promise<void> }> {
  let mode: ListenerMode = 'serve';
  const server = createListener(env, shutdown, hooks);
  const serve = server.listeners('request') as Array<(req: http.IncomingMessage, res: http.ServerResponse) => void>;
  server.removeAllListeners('request');
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (mode !== 'edge-503') return serve.forEach((handler) => handler(req, res));
    req.resume();
    res.writeHead(503, { 'content-type': 'text/html', connection: 'close' }).end(EDGE_PAGE);
  });
  server.prependListener('connection', (socket) => {
    if (mode === 'reset') socket.resetAndDestroy();
  });
  const port = await listen(server, host, 0);
  const origin = originOf(host, port);
  return {
    origin,
    baseUrl: origin + API_PREFIX,
    async setMode(next) {
      if (next === mode) return;
      if (mode === 'stopped') await listen(server, host, port);
      mode = next;
      if (next === 'stopped') await stop(server);
      // Kept-alive connections would still be served as before: the next request opens a new one.
      else server.closeIdleConnections();
    },
    close: () => stop(server),
  };
}
