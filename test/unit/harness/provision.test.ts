import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { OUT_DIR } from '../../harness/paths';

/**
 * The provisioning that `npm test` and `npm run demo` run first, as separate processes against fake
 * `apt-get`, `dpkg-query` and `npm` commands on the PATH and an empty cache folder. The fake apt-get
 * holds a lock while it "installs" and fails at once when another apt-get holds it, as dpkg does:
 * the race a fresh machine saw when two tiers provisioned side by side.
 */
const FAKE_COMMANDS: Record<string, string> = {
  'apt-get': `#!/bin/sh
echo "apt-get $*" >> "$FAKE_STATE/calls.log"
if ! mkdir "$FAKE_STATE/dpkg.lock" 2>/dev/null; then
  echo "E: Could not get lock $FAKE_STATE/dpkg.lock. It is held by another apt-get" >&2
  exit 100
fi
trap 'rmdir "$FAKE_STATE/dpkg.lock"' EXIT
sleep 0.3
case " $* " in *" install "*)
  if [ "$FAKE_APT_FAIL" = 1 ]; then echo "E: Unable to locate package" >&2; exit 100; fi
  for arg; do touch "$FAKE_STATE/installed-$arg"; done
esac
exit 0
`,
  'dpkg-query': `#!/bin/sh
for last; do :; done
if [ -e "$FAKE_STATE/installed-$last" ]; then printf installed; else exit 1; fi
`,
  npm: `#!/bin/sh
echo "npm $*" >> "$FAKE_STATE/calls.log"
sleep 0.3
mkdir -p node_modules/code-server/out/node && : > node_modules/code-server/out/node/entry.js
`,
};

interface Run {
  code: number | null;
  output: string;
}

describe('provisioning (fake apt-get, dpkg-query and npm; separate processes)', function () {
  this.timeout(30_000);
  let root: string;
  let env: NodeJS.ProcessEnv;

  before(function () {
    // apt-get is only run as root (as CI runs); elsewhere provisioning prints what to install instead.
    if (process.getuid?.() !== 0) this.skip();
  });

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'provision-test-'));
    const bin = path.join(root, 'bin');
    fs.mkdirSync(bin);
    fs.mkdirSync(path.join(root, 'state'));
    for (const [name, script] of Object.entries(FAKE_COMMANDS)) fs.writeFileSync(path.join(bin, name), script, { mode: 0o755 });
    env = { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`, FAKE_STATE: path.join(root, 'state'), INFERENCE_VSCODE_TEST_CACHE: path.join(root, 'cache') };
    for (const name of ['INFERENCE_CHROMIUM_PATH', 'CHROMIUM_PATH', 'INFERENCE_NO_APT']) delete env[name];
  });

  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  function provisionProcess(extra: NodeJS.ProcessEnv = {}): Promise<Run> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [path.join(OUT_DIR, 'test', 'harness', 'provision.js')], { env: { ...env, ...extra }, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('close', (code) => resolve({ code, output }));
    });
  }

  function calls(): string[] {
    const file = path.join(root, 'state', 'calls.log');
    return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim().split('\n') : [];
  }

  const installs = (): string[] => calls().filter((call) => / install /.test(` ${call} `));

  it('two processes started at once install exactly once, and both succeed', async () => {
    const [first, second] = await Promise.all([provisionProcess(), provisionProcess()]);
    assert.equal(first.code, 0, first.output);
    assert.equal(second.code, 0, second.output);
    const aptInstalls = installs().filter((call) => call.startsWith('apt-get'));
    assert.equal(aptInstalls.length, 1, calls().join('\n'));
    assert.match(aptInstalls[0], /\bchromium chromium-headless-shell\b.*\blibxkbfile-dev\b/, 'Chromium, its headless shell and the build packages in one apt-get call');
    assert.equal(installs().filter((call) => call.startsWith('npm')).length, 1, calls().join('\n'));
    assert.equal([first, second].filter((run) => /waiting for process \d+/.test(run.output)).length, 1);
    assert.ok(!/Could not get lock/.test(first.output + second.output));
  });

  it('a later run installs nothing', async () => {
    assert.equal((await provisionProcess()).code, 0);
    const before = calls().length;
    const again = await provisionProcess();
    assert.equal(again.code, 0, again.output);
    assert.equal(calls().length, before, 'no apt-get or npm call when everything is there');
  });

  it('a failing apt-get fails both processes with one line each, and is tried once', async () => {
    const runs = await Promise.all([provisionProcess({ FAKE_APT_FAIL: '1' }), provisionProcess({ FAKE_APT_FAIL: '1' })]);
    for (const run of runs) {
      assert.notEqual(run.code, 0);
      const failures = run.output.split('\n').filter((line) => line.startsWith('[provision] FAILED: '));
      assert.equal(failures.length, 1, run.output);
      assert.match(failures[0], /apt-get install -y chromium .*libxkbfile-dev/, 'the line says what to install');
    }
    assert.equal(installs().filter((call) => call.startsWith('apt-get')).length, 1, 'the process that waited does not try again at once');
  });

  it('a lock left by a process that died is taken over', async () => {
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const lock = path.join(root, 'cache', 'provision.lock');
    fs.mkdirSync(path.dirname(lock), { recursive: true });
    fs.writeFileSync(lock, JSON.stringify({ pid: Number(dead.stdout), host: os.hostname(), started: Date.now(), what: 'provisioning' }));
    const run = await provisionProcess();
    assert.equal(run.code, 0, run.output);
    assert.match(run.output, new RegExp(`lock left by process ${dead.stdout} .* is taken over`));
    assert.equal(installs().filter((call) => call.startsWith('apt-get')).length, 1);
    assert.ok(!fs.existsSync(lock), 'the lock is released');
  });
});
