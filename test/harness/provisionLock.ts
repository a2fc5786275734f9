import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { delay } from './wait';

/**
 * A lock that several processes on one machine take before they provision (apt-get, the code-server
 * install): `npm test`'s tiers, a demo started beside it, a second checkout. The lock is a file
 * created whole with link(2), which fails when the file exists, so exactly one process holds it. It
 * names its holder; a holder that died (its pid is gone) leaves a stale lock that the next process
 * takes over, so a run killed mid-install never blocks the next one.
 */
export interface LockOwner {
  pid: number;
  host: string;
  started: number;
  what: string;
}

export interface LockOptions {
  /** What the holder is doing, shown to the processes that wait. */
  what: string;
  /** How long to wait for another holder before giving up. */
  timeoutMs: number;
  /** Called once when the lock is held by another process, and once when a stale lock is taken over. */
  onWait?: (message: string) => void;
  /** Poll interval while waiting. */
  intervalMs?: number;
}

/** What a holder that failed leaves beside the lock, so that those who waited for it fail the same way. */
interface FailureRecord {
  owner: LockOwner;
  message: string;
}

export class LockTimeoutError extends Error {}

/** The error a waiter gets when the holder it waited for failed: the same one line, not a second attempt. */
export class HolderFailedError extends Error {}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

function sameOwner(a: LockOwner | undefined, b: LockOwner | undefined): boolean {
  return !!a && !!b && a.pid === b.pid && a.host === b.host && a.started === b.started;
}

/** Creates `file` holding `owner`, atomically and only if it does not exist. */
function tryCreate(file: string, owner: LockOwner): boolean {
  const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  fs.writeFileSync(temporary, JSON.stringify(owner));
  try {
    fs.linkSync(temporary, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    fs.rmSync(temporary, { force: true });
  }
}

/**
 * A stale lock is removed by one process only: it first takes a short-lived breaker lock, then
 * removes the lock file only if it still names the dead owner it saw (another process may have
 * taken over and created a fresh lock meanwhile).
 */
function breakStaleLock(file: string, stale: LockOwner): void {
  const breaker = `${file}.break`;
  const me: LockOwner = { pid: process.pid, host: os.hostname(), started: Date.now(), what: 'breaking a stale lock' };
  if (!tryCreate(breaker, me)) {
    const holder = readJson<LockOwner>(breaker);
    // A breaker whose process died (it only lives for a few file operations) is removed outright.
    if (holder && !isAlive(holder.pid)) fs.rmSync(breaker, { force: true });
    return;
  }
  try {
    if (sameOwner(readJson<LockOwner>(file), stale)) fs.rmSync(file, { force: true });
  } finally {
    fs.rmSync(breaker, { force: true });
  }
}

/**
 * Runs `task` while holding the lock at `file`. Waits (bounded) while another live process holds
 * it; takes over a lock whose holder died. When the holder this process waited for failed, throws
 * its message as a HolderFailedError instead of trying again at once.
 */
export async function withLock<T>(file: string, options: LockOptions, task: () => Promise<T>): Promise<T> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const failureFile = `${file}.failed`;
  const owner: LockOwner = { pid: process.pid, host: os.hostname(), started: Date.now(), what: options.what };
  const deadline = Date.now() + options.timeoutMs;
  let waitedFor: LockOwner | undefined;
  let told = false;
  while (!tryCreate(file, owner)) {
    const holder = readJson<LockOwner>(file);
    if (holder && holder.host === owner.host && !isAlive(holder.pid)) {
      options.onWait?.(`a lock left by process ${holder.pid} (${holder.what}), which is gone, is taken over`);
      breakStaleLock(file, holder);
      continue;
    }
    if (holder) waitedFor = holder;
    if (!told && holder) {
      told = true;
      options.onWait?.(`waiting for process ${holder.pid}, which is ${holder.what} (lock: ${file})`);
    }
    if (Date.now() > deadline) {
      throw new LockTimeoutError(`Gave up after ${Math.round(options.timeoutMs / 1000)} s waiting for process ${holder?.pid ?? '?'} (${holder?.what ?? 'unknown'}); remove ${file} if no such process is running.`);
    }
    await delay(options.intervalMs ?? 500);
  }
  try {
    const failure = waitedFor && readJson<FailureRecord>(failureFile);
    try {
      // Passed on under this process's name too, so that a process that waited for this one fails alike.
      if (failure && sameOwner(failure.owner, waitedFor)) throw new HolderFailedError(failure.message);
      fs.rmSync(failureFile, { force: true });
      return await task();
    } catch (error) {
      const record: FailureRecord = { owner, message: error instanceof Error ? error.message : String(error) };
      fs.writeFileSync(failureFile, JSON.stringify(record));
      throw error;
    }
  } finally {
    if (sameOwner(readJson<LockOwner>(file), owner)) fs.rmSync(file, { force: true });
  }
}
