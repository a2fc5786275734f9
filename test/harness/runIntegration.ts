import * as path from 'node:path';
import { formatMatrix, readMatrixParts, removeMatrixParts } from '../integration/faults/matrixTable';
import { extensionHostEnvironment, RECORDER_ENV, WINDOW_USER_SETTINGS, type IntegrationWindow } from '../integration/tags';
import { launchBrowser, type Browser } from './browser';
import { startCodeServer, withUserSettings } from './codeServer';
import { runExtensionTests } from './extensionTests';
import { OUT_DIR, RESULTS_DIR } from './paths';
import { stopAll } from './processes';
import { EVERYTHING, provision, ProvisionError } from './provision';
import { startRecordingServer, writeHostileWorkspace } from './recordingServer';
import { pruneStaleOutputs } from './staleOutputs';
import { writeDevelopmentExtensions, writeScratchWorkspace } from './supportExtension';
import { seconds } from './wait';

/**
 * The integration tier: one code-server, four workbench windows (with a workspace folder, without
 * one, with a hostile folder whose settings point environments at a recording server, and the only
 * one where the language model provider is on, its default), each running its share of the mocha suites of
 * test/integration/ inside its real extension host.
 * INFERENCE_TEST_GREP (a regular expression over full test titles) runs only the matching tests.
 */
async function main(): Promise<number> {
  const started = Date.now();
  pruneStaleOutputs();
  removeMatrixParts();
  await provision(EVERYTHING); // Fails in one line before anything starts when something cannot be installed.
  const server = await startCodeServer({
    // The fault matrix's DNS row asks the system resolver for a `.invalid` name. Here the resolver
    // loses about one query in 60 and glibc waits 5 s before it tries again: longer than the matrix's
    // 2 s connect timeout, so the row read "timeout" now and then. One try of at most 1 s each
    // (glibc's RES_OPTIONS) keeps the answer (a name that does not resolve) within the timeout.
    env: { RES_OPTIONS: 'timeout:1 attempts:1' },
    logFile: path.join(RESULTS_DIR, 'integration', 'code-server.log'),
    echoPrefix: process.env.INFERENCE_TEST_VERBOSE ? '[code-server]' : undefined,
  });
  console.log(`[integration] code-server ${server.origin} ready in ${seconds(started)}`);
  let browser: Browser | undefined;
  const developmentExtensions = writeDevelopmentExtensions(server.stateDir);
  const recorder = await startRecordingServer();
  const windows: { window: IntegrationWindow; folder?: string; env?: Record<string, string> }[] = [
    { window: 'workspace', folder: writeScratchWorkspace(server.stateDir) },
    { window: 'no-workspace' },
    { window: 'hostile-workspace', folder: writeHostileWorkspace(server.stateDir, recorder.origin), env: { [RECORDER_ENV]: recorder.origin } },
    { window: 'language-models' },
  ];
  let failed = 0;
  try {
    browser = await launchBrowser();
    const { context } = browser;
    for (const { window, folder, env } of windows) {
      const windowStarted = Date.now();
      console.log(`[integration] ${window} window:`);
      const code = await withUserSettings(server.userDataDir, WINDOW_USER_SETTINGS[window], () => runExtensionTests(context, server, {
        label: window,
        logFile: path.join(RESULTS_DIR, 'integration', `${window}-window.log`),
        ...(folder ? { folder } : {}),
        extensionDevelopmentPaths: [developmentExtensions],
        extensionTestsPath: path.join(OUT_DIR, 'test', 'integration', 'index.js'),
        extensionEnvironment: extensionHostEnvironment(window, env),
        ...(process.env.INFERENCE_TEST_WINDOW_MINUTES && { timeoutMs: Number(process.env.INFERENCE_TEST_WINDOW_MINUTES) * 60_000 }),
      }));
      console.log(`[integration] ${window} window ${code === 0 ? 'passed' : 'FAILED'} in ${seconds(windowStarted)}`);
      if (code !== 0) failed++;
    }
    // Each window ran its columns of the fault matrix: all of them, side by side.
    const matrix = readMatrixParts();
    if (matrix.length > 0) console.log(`[integration] fault matrix (fault x surface):\n${formatMatrix(matrix, '  ')}`);
    // Whatever the tests did, in every window: the server a workspace named never saw a key.
    const withKey = recorder.requests.filter((request) => request.withKey).length;
    console.log(`[integration] the workspace-named server received ${recorder.requests.length} request(s), ${withKey} with a key`);
    if (withKey > 0) failed++;
  } finally {
    await recorder.close();
    await browser?.close();
    await server.stop();
  }
  console.log(`[integration] ${failed === 0 ? 'passed' : `${failed} window(s) failed`} in ${seconds(started)}`);
  console.log(`[integration] code-server and full window logs: ${path.join(RESULTS_DIR, 'integration')}`);
  return failed === 0 ? 0 : 1;
}

main()
  .then((code) => {
    process.exitCode = code;
  })
  .catch(async (error: unknown) => {
    console.error(`[integration] ${error instanceof ProvisionError ? error.message : String(error instanceof Error ? error.stack : error)}`);
    await stopAll();
    process.exitCode = 1;
  });
