import * as assert from 'node:assert/strict';
import { BillingWindows } from '../../../src/core/usage/billingWindows';

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
});
