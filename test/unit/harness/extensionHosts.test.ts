import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { extensionHosts, processGroupMembers } from '../../harness/processes';
import { waitFor } from '../../harness/wait';

describe('UI tests: the extension hosts in code-server\'s process group', function () {
  before(function () {
    if (process.platform !== 'linux') this.skip();
  });

  it('are the processes with the extension host\'s command line whose parent is not one: a child it forked and has not exec\'d yet shows the same line', async () => {
    // An "extension host" (by its command line) that starts a child with the very same command line,
    // as a fork shows until it execs; both wait until killed.
    const code = "if (!process.env.FORKED) require('node:child_process').spawn(process.execPath, process.argv.slice(1).length ? ['-e', process.env.CODE, '--', ...process.argv.slice(1)] : [], { stdio: 'ignore', env: { ...process.env, FORKED: '1' } }); setInterval(() => undefined, 1000);";
    const host = spawn(process.execPath, ['-e', code, '--', '--type=extensionHost'], { detached: true, stdio: 'ignore', env: { ...process.env, CODE: code } });
    try {
      const members = await waitFor('the host and its look-alike child in the group', () => {
        const found = processGroupMembers(host.pid!).filter((member) => member.command.includes('--type=extensionHost'));
        return found.length === 2 ? found : undefined;
      }, { timeoutMs: 10_000, intervalMs: 50 });
      assert.equal(members.filter((member) => member.parent === host.pid).length, 1, 'the child is the host\'s');
      assert.deepEqual(extensionHosts(host.pid!).map((member) => member.pid), [host.pid]);
    } finally {
      process.kill(-host.pid!, 'SIGKILL');
    }
  });
});
