import { execFileSync, spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { once } from 'node:events';
import { waitFor } from './wait';

/**
 * Every process a test run starts is registered here, so that it is stopped when the run ends,
 * fails, or is interrupted: a test run must never leave code-server, Chromium or the emulator behind.
 */
type Cleanup = { name: string; stopNow: () => void; stop: () => Promise<void> };

const cleanups = new Set<Cleanup>();
let handlersInstalled = false;
let stopping = false;

/** True once a signal asked this process to stop everything it started. */
export function stoppingOnSignal(): boolean {
  return stopping;
}

function stopAllNow(): void {
  for (const cleanup of [...cleanups].reverse()) {
    try {
      cleanup.stopNow();
    } catch {
      // Already gone.
    }
  }
  cleanups.clear();
}

function installHandlers(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  // 'exit' (also reached after an uncaught exception) allows only synchronous work: kill outright.
  process.on('exit', stopAllNow);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      stopping = true;
      void stopAll().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
    });
  }
}

/** Registers something to stop at exit; returns a function that unregisters it. */
export function registerCleanup(cleanup: Cleanup): () => void {
  installHandlers();
  cleanups.add(cleanup);
  return () => cleanups.delete(cleanup);
}

/** Stops everything registered, last registered first (a process before the folder it uses). */
export async function stopAll(): Promise<void> {
  const pending = [...cleanups].reverse();
  cleanups.clear();
  for (const cleanup of pending) {
    await cleanup.stop().catch((error: unknown) => console.error(`Could not stop ${cleanup.name}:`, error));
  }
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group has already exited.
  }
}

export interface GroupProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  /** Resolves with the exit code (or signal name) when the leader exits. */
  readonly exited: Promise<number | string>;
  /** SIGTERM to the whole group, then SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Spawns a process as the leader of its own process group, so that stopping it also stops every
 * child it started (code-server starts an extension host, a file watcher and more).
 */
export function spawnGroup(name: string, command: string, args: string[], options: SpawnOptions): GroupProcess {
  const child = spawn(command, args, { ...options, detached: true });
  if (child.pid === undefined) throw new Error(`Could not start ${name} (${command}).`);
  const pid = child.pid;
  const exited = (async () => {
    const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
    return code ?? signal ?? 'unknown';
  })();
  let leaderGone = false;
  void exited.then(() => {
    leaderGone = true;
  });

  const stop = async (graceMs = 5000): Promise<void> => {
    unregister();
    killGroup(pid, 'SIGTERM');
    if (!leaderGone) {
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, graceMs))]);
    }
    // Children may outlive the leader; the group is killed regardless.
    killGroup(pid, 'SIGKILL');
  };
  const unregister = registerCleanup({ name, stop: () => stop(), stopNow: () => killGroup(pid, 'SIGKILL') });
  return { child, pid, exited, stop };
}

/** The processes of a process group (from `ps`), e.g. the extension hosts code-server forked. */
export function processGroupMembers(groupId: number): { pid: number; parent: number; command: string }[] {
  const listing = execFileSync('ps', ['-eo', 'pid=,ppid=,pgid=,args='], { encoding: 'utf8' });
  return listing.split('\n').map((line) => /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(.*)$/.exec(line)).filter((m): m is RegExpExecArray => m !== null && Number(m[3]) === groupId)
    .map((m) => ({ pid: Number(m[1]), parent: Number(m[2]), command: m[4] }));
}

/**
 * The extension hosts code-server started in its process group. A process an extension host has
 * just forked (the git extension runs git) shows its parent's command line until it execs, so only
 * a process whose parent is not an extension host itself is one.
 */
export function extensionHosts(groupId: number): { pid: number; command: string }[] {
  const candidates = processGroupMembers(groupId).filter((member) => /--type=extensionHost/.test(member.command));
  const pids = new Set(candidates.map((member) => member.pid));
  return candidates.filter((member) => !pids.has(member.parent));
}

/**
 * Kills the extension hosts of code-server's group and waits until they are gone: code-server keeps a
 * closed window's extension host for hours, in case it reconnects, and the next window should neither
 * share the machine with it nor have it write into storage the next window reads.
 */
export async function stopExtensionHosts(groupId: number): Promise<void> {
  for (const { pid } of extensionHosts(groupId)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone meanwhile.
    }
  }
  await waitFor('the closed window\'s extension host to end', () => extensionHosts(groupId).length === 0, { timeoutMs: 15_000, intervalMs: 100 });
}

/**
 * When the process reading this one's output is gone (its tier was stopped), a write fails with
 * EPIPE: end at once, quietly and as failed, instead of dying on an unhandled error event.
 */
export function exitWhenOutputCloses(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
      process.exit(1);
    });
  }
}
