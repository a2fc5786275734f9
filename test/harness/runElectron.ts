import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';
import { extensionHostEnvironment, RECORDER_ENV, WINDOW_USER_SETTINGS, type IntegrationWindow } from '../integration/tags';
import { OUT_DIR, REPO_ROOT } from './paths';
import { startRecordingServer, writeHostileWorkspace } from './recordingServer';
import { writeScratchWorkspace, writeSupportExtension } from './supportExtension';
import { seconds } from './wait';

/**
 * `npm run test:electron`: the same integration suites in desktop VS Code, downloaded by
 * @vscode/test-electron into .vscode-test/. For machines that can reach the VS Code download
 * servers; `npm test` uses code-server instead (runIntegration.ts). INFERENCE_VSCODE_VERSION picks
 * the version (default: stable; e.g. 1.104.0 to check the oldest version engines.vscode allows).
 */
async function main(): Promise<number> {
  const started = Date.now();
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'inference-electron-'));
  const supportExtension = writeSupportExtension(scratch);
  const recorder = await startRecordingServer();
  const windows: { window: IntegrationWindow; folder?: string; env?: Record<string, string> }[] = [
    { window: 'workspace', folder: writeScratchWorkspace(scratch) },
    { window: 'no-workspace' },
    { window: 'hostile-workspace', folder: writeHostileWorkspace(scratch, recorder.origin), env: { [RECORDER_ENV]: recorder.origin } },
    { window: 'language-models' },
  ];
  let failed = 0;
  try {
    for (const { window, folder, env } of windows) {
      const windowStarted = Date.now();
      const userDataDir = path.join(scratch, `user-data-${window}`);
      const settings = WINDOW_USER_SETTINGS[window];
      if (settings) {
        fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
        fs.writeFileSync(path.join(userDataDir, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
      }
      const code = await runTests({
        version: process.env.INFERENCE_VSCODE_VERSION ?? 'stable',
        extensionDevelopmentPath: [REPO_ROOT, supportExtension],
        extensionTestsPath: path.join(OUT_DIR, 'test', 'integration', 'index.js'),
        extensionTestsEnv: extensionHostEnvironment(window, env),
        launchArgs: [
          ...(folder ? [folder] : []),
          `--user-data-dir=${userDataDir}`,
          '--disable-extensions',
          '--disable-workspace-trust',
          '--skip-welcome',
          '--skip-release-notes',
        ],
      }).catch((error: unknown) => {
        console.error(`[electron] ${window} window: ${error instanceof Error ? error.message : String(error)}`);
        return 1;
      });
      console.log(`[electron] ${window} window ${code === 0 ? 'passed' : 'FAILED'} in ${seconds(windowStarted)}`);
      if (code !== 0) failed++;
    }
    if (recorder.requests.some((request) => request.withKey)) failed++;
  } finally {
    await recorder.close();
    fs.rmSync(scratch, { recursive: true, force: true, maxRetries: 3 });
  }
  console.log(`[electron] ${failed === 0 ? 'passed' : `${failed} window(s) failed`} in ${seconds(started)}`);
  return failed === 0 ? 0 : 1;
}

void main().then((code) => {
  process.exitCode = code;
});
