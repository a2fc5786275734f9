import * as assert from 'node:assert/strict';
import { summariseCalls, type CpuProfile } from '../../bench/profileSummary';
import { summariseTrace } from '../../bench/renderTrace';

/** A profile of root → renderFrame → parse, and root → other; `run` is [node id, µs until the next sample]. */
function profile(run: [number, number][]): CpuProfile {
  const frame = (functionName: string) => ({ functionName, url: 'main.js', lineNumber: 0, columnNumber: 0 });
  return {
    nodes: [
      { id: 1, callFrame: frame('(root)'), children: [2, 4] },
      { id: 2, callFrame: frame('renderFrame'), children: [3] },
      { id: 3, callFrame: frame('parse') },
      { id: 4, callFrame: frame('other') },
    ],
    samples: run.map(([id]) => id),
    // timeDeltas[i] is the time before sample i: each sample lasts until the next one's delta.
    timeDeltas: [0, ...run.map(([, us]) => us)],
    startTime: 0,
    endTime: run.reduce((sum, [, us]) => sum + us, 0),
  };
}

describe('benchmark profile and trace summaries', () => {
  it('tells a slow call that held a stall (a long gap between samples) from one that ran', () => {
    const stalled = summariseCalls(profile([[2, 100], [3, 100], [2, 100], [4, 100], [3, 100], [2, 5000], [4, 100]]), 'renderFrame');
    assert.match(stalled, /^renderFrame: 2 calls,/);
    assert.match(stalled, /p99 5\.10 ms/);
    assert.match(stalled, /1 of the 1 at or above p99 held a gap of >= 2 ms/);
    assert.match(stalled, /5\.0 ms of their 5\.1 ms$/);

    // The same time spent in many samples: our code running, no stall.
    const running = summariseCalls(profile([[2, 100], [3, 100], [2, 100], [4, 100], ...Array.from({ length: 51 }, (): [number, number] => [3, 100]), [4, 100]]), 'renderFrame');
    assert.match(running, /p99 5\.10 ms/);
    assert.match(running, /0 of the 1 at or above p99 held a gap/);
    assert.match(summariseCalls(profile([[4, 100]]), 'renderFrame'), /no calls sampled/);
  });

  it('splits the main thread\'s frames into wall time and time on a core', () => {
    const main = { pid: 7, tid: 7 };
    const lines = summariseTrace([
      { ...main, ph: 'M', name: 'thread_name', ts: 0, args: { name: 'CrRendererMain' } },
      { ...main, ph: 'X', name: 'ProxyMain::BeginMainFrame', ts: 0, dur: 4000, tdur: 1000 },
      { ...main, ph: 'X', name: 'ProxyMain::BeginMainFrame', ts: 10_000, dur: 2000, tdur: 2000 },
      // Another thread's frame is not the main thread's.
      { pid: 7, tid: 8, ph: 'X', name: 'ProxyMain::BeginMainFrame', ts: 0, dur: 90_000, tdur: 90_000 },
    ]);
    assert.ok(lines.includes('main thread busy 6 ms, of which on a core 3 ms (the rest it waited for one)'), lines.join('\n'));
    assert.ok(lines.includes('2 frames: wall median 3.00 ms, p99 4.00 ms; on a core median 1.50 ms, p99 2.00 ms; the slowest 1% (1): 4.0 ms wall, 1.0 ms on a core'), lines.join('\n'));
  });
});
