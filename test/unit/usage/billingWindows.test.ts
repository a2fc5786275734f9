import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BillingWindows, SETTLE_WAIT_MS } from '../../../src/core/usage/billingWindows';
import { FileBillingActivity } from '../../../src/core/usage/sharedBillingActivity';

describe('billing windows: which calls\' balance differences measure one call', () => {
  it('marks both of two calls of one environment that were in flight at the same time', async () => {
    const windows = new BillingWindows();
    const first = await windows.open('production');
    assert.equal(first.overlapped, false, 'alone so far');
    const second = await windows.open('production');
    assert.equal(second.overlapped, true);
    assert.equal(first.overlapped, true, 'the first learns of the second while it is still open');
    second.close();
    first.close();
    assert.equal(first.overlapped, true, 'and stays marked once closed');
  });

  it('leaves calls one after the other, and calls of other environments (other wallets), unmarked', async () => {
    const windows = new BillingWindows();
    const first = await windows.open('production');
    const elsewhere = await windows.open('preview');
    first.close();
    first.close();
    const next = await windows.open('production');
    next.close();
    elsewhere.close();
    assert.deepEqual([first.overlapped, elsewhere.overlapped, next.overlapped], [false, false, false]);
  });

  it('marks a call that started while another was still running, even after that one closed', async () => {
    const windows = new BillingWindows();
    const long = await windows.open('production');
    const short = await windows.open('production');
    short.close();
    const later = await windows.open('production');
    assert.deepEqual([long.overlapped, short.overlapped, later.overlapped], [true, true, true]);
    long.close();
    later.close();
    assert.equal((await windows.open('production')).overlapped, false);
  });

  it('measures a group as a whole: its calls overlap one another, never the group; a call outside it marks the group, even in a gap between its calls', async () => {
    const windows = new BillingWindows();
    const group = await windows.openGroup('production');
    const a = await windows.open('production', group);
    const b = await windows.open('production', group);
    assert.deepEqual([a.overlapped, b.overlapped, group.overlapped], [true, true, false], 'side by side: each call unmeasured, the group measured');
    a.close();
    b.close();
    const alone = await windows.open('production', group);
    alone.close();
    assert.equal(alone.overlapped, false, 'one at a time, a call of the group is measured on its own');
    assert.equal(group.overlapped, false);
    // Another path's call between the group's calls is inside the group's difference.
    const outside = await windows.open('production');
    outside.close();
    assert.equal(outside.overlapped, true);
    assert.equal(group.overlapped, true);
    group.close();
    const after = await windows.open('production');
    after.close();
    assert.equal(after.overlapped, false, 'a closed group holds nothing');
  });

  it('marks a group whose call overlaps a call outside it that was already in flight', async () => {
    const windows = new BillingWindows();
    const outside = await windows.open('production');
    const group = await windows.openGroup('production');
    assert.equal(group.overlapped, true);
    outside.close();
    group.close();
  });

  it('holds a call back while an ended call takes its last reading, so that neither overlaps', async () => {
    const windows = new BillingWindows();
    const answer = await windows.open('production');
    answer.settling();
    let opened = false;
    const next = windows.open('production').then((window) => {
      opened = true;
      return window;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(opened, false, 'waits for the reading');
    answer.close();
    const window = await next;
    assert.equal(window.overlapped, false);
    assert.equal(answer.overlapped, false);
  });

  it('waits at most its limit for a reading that never comes, and then counts the overlap', async () => {
    const windows = new BillingWindows(30);
    const stuck = await windows.open('production');
    stuck.settling();
    const started = Date.now();
    const next = await windows.open('production');
    assert.ok(Date.now() - started >= 25, 'it waited');
    assert.equal(next.overlapped, true);
    assert.equal(stuck.overlapped, true);
  });

  describe('two windows (two processes) on one storage folder (issue 37: a charge counted by both)', () => {
    let dir: string;
    const alive = new Set([101, 202]);
    const window = (pid: number) => new BillingWindows(SETTLE_WAIT_MS, new FileBillingActivity(dir, pid, (p) => alive.has(p)));
    beforeEach(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'billing-activity-'));
    });
    afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('marks both calls when one window\'s call opens while the other\'s is open', async () => {
      const [first, second] = [window(101), window(202)];
      const a = await first.open('production');
      assert.equal(a.overlapped, false, 'alone so far');
      const b = await second.open('production');
      assert.equal(b.overlapped, true, 'the other window\'s call was open when it opened');
      assert.equal(a.overlapped, true, 'a call opened elsewhere while it was open');
      a.close();
      b.close();
    });

    it('marks a call that another window\'s call began and ended inside', async () => {
      const [first, second] = [window(101), window(202)];
      const long = await first.open('production');
      const short = await second.open('production');
      short.close();
      assert.equal(long.overlapped, true);
      long.close();
    });

    it('leaves calls one after the other, of other environments, and this window\'s later calls to the window\'s own rule', async () => {
      const [first, second] = [window(101), window(202)];
      const a = await first.open('production');
      a.close();
      await new Promise((resolve) => setTimeout(resolve, 10)); // the marker's removal is not awaited
      const b = await second.open('production');
      const other = await first.open('preview');
      b.close();
      other.close();
      const c = await first.open('production');
      c.close();
      const d = await first.open('production');
      d.close();
      assert.deepEqual([a.overlapped, b.overlapped, other.overlapped, c.overlapped, d.overlapped], [false, false, false, false, false]);
    });

    it('ignores, and removes, the marker of a window that died mid-call', async () => {
      const dead = await window(303).open('production');
      assert.equal(dead.overlapped, false);
      const next = await window(101).open('production');
      assert.equal(next.overlapped, false, 'a dead process\'s call is over');
      assert.deepEqual(fs.readdirSync(path.join(dir, 'production')).filter((name) => name.startsWith('303-')), []);
      next.close();
    });
  });
});
