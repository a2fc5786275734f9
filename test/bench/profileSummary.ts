import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { RESULTS_DIR } from '../harness/paths';
import { arg, percentile, stats } from './benchReport';

/** The parts of a V8 / Chromium `.cpuprofile` that a self-time summary needs. */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }; children?: number[] }[];
  samples?: number[];
  timeDeltas?: number[];
  startTime: number;
  endTime: number;
}

/** The functions with the most self time, as "share  ms  name (file:line:column)" lines. */
export function summariseProfile(profile: CpuProfile, top: number): string[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    const next = deltas[i + 1] ?? 0;
    selfUs.set(samples[i], (selfUs.get(samples[i]) ?? 0) + next);
  }
  const byName = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const frame = byId.get(id)?.callFrame;
    if (!frame) continue;
    const file = frame.url.split('/').pop() || '(native)';
    const key = `${frame.functionName || '(anonymous)'} (${file}:${frame.lineNumber + 1}:${frame.columnNumber + 1})`;
    byName.set(key, (byName.get(key) ?? 0) + us);
  }
  const total = [...byName.values()].reduce((a, b) => a + b, 0) || 1;
  return [...byName.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, us]) => `${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${name}`);
}

/**
 * The calls of one function, told apart as runs of consecutive samples with it on the stack: how
 * long they took, and how much of the slowest (at or above their p99) fell in gaps between two
 * samples longer than `stallMs`, in which the sampler did not run either: the thread was stopped
 * (descheduled by the OS, or a pause outside V8), not running our code.
 */
export function summariseCalls(profile: CpuProfile, functionName: string, stallMs = 2): string {
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const nameOf = new Map(profile.nodes.map((n) => [n.id, n.callFrame.functionName]));
  const onStack = new Map<number, boolean>();
  const inFunction = (id: number): boolean => {
    let known = onStack.get(id);
    if (known === undefined) {
      const up = parent.get(id);
      known = nameOf.get(id) === functionName || (up !== undefined && inFunction(up));
      onStack.set(id, known);
    }
    return known;
  };
  const calls: { ms: number; stalledMs: number }[] = [];
  let current: { ms: number; stalledMs: number } | undefined;
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    if (!inFunction(samples[i])) {
      current = undefined;
      continue;
    }
    if (!current) calls.push((current = { ms: 0, stalledMs: 0 }));
    const ms = (deltas[i + 1] ?? 0) / 1000;
    current.ms += ms;
    if (ms >= stallMs) current.stalledMs += ms;
  }
  if (!calls.length) return `${functionName}: no calls sampled`;
  const times = calls.map((c) => c.ms);
  const p99 = percentile(times, 99);
  const slowest = calls.filter((c) => c.ms >= p99);
  const stalled = slowest.filter((c) => c.stalledMs > 0);
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  return `${functionName}: ${calls.length} calls, median ${stats(times).median.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms; `
    + `${stalled.length} of the ${slowest.length} at or above p99 held a gap of >= ${stallMs} ms between samples (the thread stopped), `
    + `${sum(slowest.map((c) => c.stalledMs)).toFixed(1)} ms of their ${sum(slowest.map((c) => c.ms)).toFixed(1)} ms`;
}

/**
 * `run` under Chromium's sampling profiler (`--sampling-us`, 200 by default): writes the
 * .cpuprofile and returns its top self times, and the calls of `callsOf` when given.
 */
export async function profileRun(page: Page, label: string, run: () => Promise<void>, callsOf?: string): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: arg('sampling-us', 200) });
  await cdp.send('Profiler.start');
  await run();
  const { profile } = await cdp.send('Profiler.stop');
  await cdp.detach();
  const dir = path.join(RESULTS_DIR, 'bench');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `render-${label.replace(/[^\w]+/g, '-')}.cpuprofile`);
  fs.writeFileSync(file, JSON.stringify(profile));
  const lines = [`profile of "${label}" (${file}):`, ...summariseProfile(profile as CpuProfile, 15).map((line) => `  ${line}`)];
  if (callsOf) lines.push(`  ${summariseCalls(profile as CpuProfile, callsOf)}`);
  return lines;
}
