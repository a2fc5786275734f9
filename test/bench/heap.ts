import * as v8 from 'node:v8';
import * as vm from 'node:vm';

/** The heap as benchmarks measure it: `gc` is exposed at run time, so a bench runs with plain `node`. */
v8.setFlagsFromString('--expose-gc');
export const gc = vm.runInNewContext('gc') as () => void;

/** Live heap after two full collections (what is held, not garbage). */
export function heapUsed(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** Samples the heap (garbage included) every few milliseconds until stopped; returns the highest seen. */
export function heapPeak(intervalMs = 5): { stop(): number } {
  let peak = v8.getHeapStatistics().used_heap_size;
  const sample = () => {
    peak = Math.max(peak, v8.getHeapStatistics().used_heap_size);
  };
  const timer = setInterval(sample, intervalMs);
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}
