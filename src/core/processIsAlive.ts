/**
 * Whether a process still runs: the files several windows share (history journals, spending
 * reservations, billing markers) name their process, and a dead one's are a crash's leftovers.
 */
export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, but belongs to someone else.
    return (error as { code?: unknown }).code === 'EPERM';
  }
}
