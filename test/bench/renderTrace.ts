import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { RESULTS_DIR } from '../harness/paths';
import { percentile, stats } from './benchReport';

/**
 * Where a streamed render's time goes on the renderer's main thread, from a Chromium trace (the JS
 * profiler alone cannot see style, layout and paint): self time per trace event, and layout split
 * into what script forced (a layout read such as `scrollHeight` inside a frame callback) and what
 * the frame's own rendering step did.
 */

/** `tdur`: the event's thread CPU time, where `dur` is wall time: the rest the thread waited for a core. */
interface TraceEvent { name: string; ph: string; ts: number; dur?: number; tdur?: number; pid: number; tid: number; args?: { name?: string } }

const CATEGORIES = ['-*', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink', 'cc', 'viz', 'gpu', 'toplevel'].join(',');

/** Script entry points: a Layout or UpdateLayoutTree inside one of these was forced by script. */
const SCRIPT = new Set(['FunctionCall', 'FireAnimationFrame', 'EventDispatch', 'v8.callFunction', 'TimerFire', 'RunMicrotasks']);

export async function traceRun(page: Page, label: string, run: () => Promise<void>): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (data) => {
    events.push(...(data.value as unknown as TraceEvent[]));
  });
  const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.start', { categories: CATEGORIES, transferMode: 'ReportEvents' });
  await run();
  await cdp.send('Tracing.end');
  await complete;
  await cdp.detach();
  const dir = path.join(RESULTS_DIR, 'bench');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `render-${label.replace(/[^\w]+/g, '-')}.trace.json`);
  // In pieces: a whole trace (GPU and compositor threads included) is longer than a string can be.
  const fd = fs.openSync(file, 'w');
  fs.writeSync(fd, '{"traceEvents":[\n');
  for (let i = 0; i < events.length; i += 10_000) {
    fs.writeSync(fd, `${i ? ',\n' : ''}${events.slice(i, i + 10_000).map((e) => JSON.stringify(e)).join(',\n')}`);
  }
  fs.writeSync(fd, '\n]}\n');
  fs.closeSync(fd);
  return [`trace of "${label}" (${file}, open in chrome://tracing or the Performance panel):`, ...summariseTrace(events)];
}

/** Self time per event name on the renderer main thread, with forced layout counted apart. */
export function summariseTrace(events: TraceEvent[]): string[] {
  const main = events.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  if (!main) return ['(no renderer main thread in the trace)'];
  const spans = events
    .filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur !== undefined)
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const self = new Map<string, number>();
  const stack: { event: TraceEvent; end: number; children: number }[] = [];
  let busy = 0;
  let busyCpu = 0;
  const close = (until: number) => {
    while (stack.length && stack[stack.length - 1].end <= until) {
      const done = stack.pop()!;
      const key = keyOf(done.event, stack);
      self.set(key, (self.get(key) ?? 0) + Math.max(0, (done.event.dur ?? 0) - done.children));
    }
  };
  for (const event of spans) {
    close(event.ts);
    const parent = stack[stack.length - 1];
    if (parent) parent.children += event.dur ?? 0;
    else {
      busy += event.dur ?? 0;
      busyCpu += event.tdur ?? event.dur ?? 0;
    }
    stack.push({ event, end: event.ts + (event.dur ?? 0), children: 0 });
  }
  close(Number.POSITIVE_INFINITY);
  const total = busy || 1;
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 14)
    .map(([name, us]) => `${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${name}`)
    .concat(`main thread busy ${(busy / 1000).toFixed(0)} ms, of which on a core ${(busyCpu / 1000).toFixed(0)} ms (the rest it waited for one)`, frameLine(spans), threadLine(events));
}

/** Each traced thread's CPU time in its outermost events (the compositor's, the GPU's and raster's included). */
function threadLine(events: TraceEvent[]): string {
  const names = new Map<string, string>();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, e.args?.name ?? '?');
  const byThread = new Map<string, TraceEvent[]>();
  for (const e of events) {
    if (e.ph !== 'X' || e.dur === undefined) continue;
    const key = `${e.pid}:${e.tid}`;
    const list = byThread.get(key) ?? [];
    list.push(e);
    byThread.set(key, list);
  }
  const cpu: [string, number][] = [];
  for (const [key, list] of byThread) {
    list.sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
    let end = -1;
    let total = 0;
    for (const e of list) {
      if (e.ts < end) continue;
      end = e.ts + (e.dur ?? 0);
      total += e.tdur ?? e.dur ?? 0;
    }
    cpu.push([`${names.get(key) ?? key}(${key.split(':')[0]})`, total]);
  }
  return 'threads on a core: ' + cpu.sort((a, b) => b[1] - a[1]).slice(0, 10).map(([name, us]) => `${name} ${(us / 1000).toFixed(0)} ms`).join(', ');
}

/**
 * The rendering frames (BeginMainFrame: frame callbacks, style, layout, paint) in wall time, and how
 * much of the slowest 1% was spent on a core (thread CPU time, `tdur`): the rest the thread waited
 * for one, which on a loaded 2-core machine is the machine's, whatever the page runs.
 */
function frameLine(spans: TraceEvent[]): string {
  const frames = spans.filter((e) => e.name === 'ProxyMain::BeginMainFrame');
  if (!frames.length) return '(no frames in the trace)';
  const walls = frames.map((e) => (e.dur ?? 0) / 1000);
  const p99 = percentile(walls, 99);
  const slowest = frames.filter((e) => (e.dur ?? 0) / 1000 >= p99);
  const ms = (values: number[]) => (values.reduce((a, b) => a + b, 0) / 1000).toFixed(1);
  const cpus = frames.map((e) => (e.tdur ?? e.dur ?? 0) / 1000);
  return `${frames.length} frames: wall median ${stats(walls).median.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms; on a core median ${stats(cpus).median.toFixed(2)} ms, p99 ${percentile(cpus, 99).toFixed(2)} ms; `
    + `the slowest 1% (${slowest.length}): ${ms(slowest.map((e) => e.dur ?? 0))} ms wall, ${ms(slowest.map((e) => e.tdur ?? e.dur ?? 0))} ms on a core`;
}

function keyOf(event: TraceEvent, ancestors: { event: TraceEvent }[]): string {
  if (event.name !== 'Layout' && event.name !== 'UpdateLayoutTree') return event.name;
  return ancestors.some((a) => SCRIPT.has(a.event.name)) ? `${event.name} (forced by script)` : event.name;
}
