import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { MarkedCpu, processesMarked } from '../../harness/markedProcesses';
import { waitFor } from '../../harness/wait';

const MARK = 'INFERENCE_TEST_MARK_PROBE';

describe('npm test: the processes of a tier, found by its mark (Linux /proc)', function () {
  before(function () {
    if (process.platform !== 'linux') this.skip();
  });

  it('finds every process started with the mark, one whose environment was replaced on the way too, and stops none of another mark', async () => {
    const value = `probe-${process.pid}`;
    // A shell that starts a process with an empty environment (as Chromium's zygote has), and busies itself.
    const marked = spawn('sh', ['-c', 'env -i /bin/sleep 30 & i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done; wait'], { env: { ...process.env, [MARK]: value }, detached: true, stdio: 'ignore' });
    const other = spawn('sleep', ['30'], { env: { ...process.env, [MARK]: 'another' }, stdio: 'ignore' });
    try {
      // The shell forks, then the child execs env, which execs sleep with no environment: until then
      // the child shows the shell's command line, so the wait is for the sleep itself.
      const found = await waitFor('the unmarked sleep the shell started', () => {
        const processes = processesMarked(MARK, value);
        return processes.some(({ command }) => command === '/bin/sleep 30') ? processes.map(({ pid }) => pid) : undefined;
      }, { timeoutMs: 10_000, intervalMs: 50 });
      assert.ok(found.includes(marked.pid!), 'the marked shell');
      assert.ok(!found.includes(other.pid!), 'not a process of another mark');
      assert.ok(!found.includes(process.pid), 'never the process that asks');
      const cpu = new MarkedCpu(MARK);
      await waitFor('the shell to have spent CPU time', () => {
        cpu.sample();
        return (cpu.cpuMs(value) ?? 0) > 0;
      }, { timeoutMs: 10_000, intervalMs: 100 });
      assert.equal(cpu.cpuMs('nobody'), 0);
    } finally {
      process.kill(-marked.pid!, 'SIGKILL');
      other.kill('SIGKILL');
    }
  });
});
