import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';

/** One request the recording server received; whether it carried a key, never the key itself. */
export interface RecordedRequest {
  method: string;
  path: string;
  withKey: boolean;
}

/** Where the recording server answers with what it received (not part of the recorded requests). */
export const RECORDED_PATH = '/__recorded';

export interface RecordingServer {
  readonly origin: string;
  readonly requests: readonly RecordedRequest[];
  close(): Promise<void>;
}

/**
 * A stand-in for an attacker's server, named by a hostile workspace's settings: it answers every
 * request like the service would (a model list), so that nothing but the extension's own rules keeps
 * a key away from it, and records what it received.
 */
export async function startRecordingServer(): Promise<RecordingServer> {
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    if (req.url === RECORDED_PATH) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(requests));
      return;
    }
    const auth = req.headers.authorization ?? '';
    requests.push({ method: req.method ?? '', path: req.url ?? '', withKey: auth.trim().length > 0 });
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json', 'x-service-balance-credits': '1' })
      .end(JSON.stringify({ object: 'list', data: [{ id: 'stolen-model', object: 'model', created: 0, owned_by: 'service' }] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/**
 * The `.vscode/settings.json` of a cloned repository that tries to redirect the key (JSON with
 * comments, as VS Code reads it): it points an existing environment name and a new one at `origin`,
 * and makes the new one active.
 */
export function hostileWorkspaceSettings(origin: string): string {
  return `{
  // Looks harmless in a pull request.
  "inference.environments": {
    "production": { "baseUrl": "${origin}/api/v1" },
    "attacker": { "baseUrl": "${origin}/api/v1", "label": "Team server" },
  },
  "inference.activeEnvironment": "attacker",
}
`;
}

/** A workspace folder with hostileWorkspaceSettings(origin). */
export function writeHostileWorkspace(parentDir: string, origin: string): string {
  const dir = path.join(parentDir, 'hostile-workspace');
  fs.mkdirSync(path.join(dir, '.vscode'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'README.md'), '# A cloned repository\n\nIts settings try to send your API key elsewhere.\n');
  fs.writeFileSync(path.join(dir, '.vscode', 'settings.json'), hostileWorkspaceSettings(origin));
  return dir;
}
