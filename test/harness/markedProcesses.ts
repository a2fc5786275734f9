import * as fs from 'node:fs';

/**
 * The processes of one tier of `npm test`, found by a mark: an environment variable that every
 * process the tier starts inherits, those in process groups of their own (code-server, so that its
 * own stop reaches its extension hosts) or whose parent died included, where the process tree no
 * longer finds them. A process whose environment was replaced on the way (Chromium's zygote and the
 * renderers it forks) belongs to the tier of its nearest marked ancestor. Linux only (/proc);
 * elsewhere none are found.
 */
interface ProcessEntry {
  pid: number;
  parent: number;
  /** Identifies the process with its pid: a pid is reused, with another start time. */
  key: string;
  cpuMs: number;
  /** Z: a zombie, ended (its CPU time final, its command line empty) but not yet waited for by its parent. */
  state: string;
  /** The mark in its own environment, if any. */
  ownMark: string | undefined;
}

/** Marks already read, by process key: a process's initial environment never changes. */
const ownMarks = new Map<string, string | undefined>();

/** Every process but this one, with the tier each belongs to (its own mark or its nearest marked ancestor's). */
function processTable(variable: string): { entry: ProcessEntry; mark: string | undefined }[] {
  let names: string[];
  try {
    names = fs.readdirSync('/proc');
  } catch {
    return [];
  }
  const entries = new Map<number, ProcessEntry>();
  for (const name of names) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    const stat = readStat(name);
    if (!stat) continue;
    const key = `${name}:${stat.started}`;
    if (!ownMarks.has(key)) ownMarks.set(key, readMark(name, variable));
    entries.set(Number(name), { pid: Number(name), parent: stat.parent, key, cpuMs: stat.cpuMs, state: stat.state, ownMark: ownMarks.get(key) });
  }
  const live = new Set([...entries.values()].map((entry) => entry.key));
  for (const key of ownMarks.keys()) if (!live.has(key)) ownMarks.delete(key);
  const markOf = (entry: ProcessEntry | undefined, depth = 0): string | undefined =>
    !entry || depth > 64 ? undefined : entry.ownMark ?? markOf(entries.get(entry.parent), depth + 1);
  return [...entries.values()].map((entry) => ({ entry, mark: markOf(entry) }));
}

/** The running processes of the tier marked `variable=value` (this one excepted), with the start of their command lines. */
export function processesMarked(variable: string, value: string): { pid: number; command: string }[] {
  return processTable(variable).filter(({ entry, mark }) => mark === value && entry.state !== 'Z').map(({ entry }) => ({ pid: entry.pid, command: commandLine(entry.pid) }));
}

function commandLine(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim().slice(0, 120);
  } catch {
    return '';
  }
}

/**
 * CPU time per mark: a sample every few seconds finds the processes of each mark and keeps the last
 * CPU time seen of each. What a process spends after the last sample before it ends, and a process
 * that lives and dies between two samples, are missed: the figures are a floor.
 */
export class MarkedCpu {
  /** mark → process key → the last CPU time seen (ms). */
  private readonly seen = new Map<string, Map<string, number>>();
  readonly available = fs.existsSync('/proc/self/stat');

  constructor(private readonly variable: string) {}

  sample(): void {
    if (!this.available) return;
    for (const { entry, mark } of processTable(this.variable)) {
      if (mark === undefined) continue;
      let byProcess = this.seen.get(mark);
      if (!byProcess) this.seen.set(mark, (byProcess = new Map()));
      byProcess.set(entry.key, entry.cpuMs);
    }
  }

  /** The CPU time seen of every process of `mark`. */
  cpuMs(mark: string): number | undefined {
    if (!this.available) return undefined;
    let total = 0;
    for (const cpu of this.seen.get(mark)?.values() ?? []) total += cpu;
    return total;
  }
}

/** The parent, utime + stime (ms) and start time of one process, from /proc/<pid>/stat. */
function readStat(pid: string): { state: string; parent: number; cpuMs: number; started: string } | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (in parentheses, may hold spaces) start at field 3, the state; the
    // parent is field 4, utime and stime fields 14 and 15 in clock ticks (USER_HZ, 100 on Linux), the start time field 22.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0], parent: Number(fields[1]), cpuMs: (Number(fields[11]) + Number(fields[12])) * 10, started: fields[19] };
  } catch {
    return undefined;
  }
}

function readMark(pid: string, variable: string): string | undefined {
  try {
    const environment = fs.readFileSync(`/proc/${pid}/environ`, 'latin1');
    const at = environment.indexOf(`\0${variable}=`);
    const from = at >= 0 ? at + variable.length + 2 : environment.startsWith(`${variable}=`) ? variable.length + 1 : -1;
    if (from < 0) return undefined;
    const end = environment.indexOf('\0', from);
    return environment.slice(from, end < 0 ? undefined : end);
  } catch {
    return undefined;
  }
}

/** The machine's busy CPU time (ms, all cores) since boot, from /proc/stat: the run's total, whatever ran it. */
export function machineBusyMs(): number | undefined {
  try {
    const fields = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal: busy is all but idle and iowait.
    const [user, nice, system, , , irq, softirq, steal] = fields;
    return (user + nice + system + irq + softirq + (steal ?? 0)) * 10;
  } catch {
    return undefined;
  }
}
