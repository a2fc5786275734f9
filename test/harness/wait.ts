export const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The wait a test is in now, with when it began: a test that runs out of its own time (mocha's
 * timeout, which knows nothing of the steps) is told which step it was waiting for.
 */
let currentWait: { what: string; since: number } | undefined;

/** What the test was waiting for when it ran out of time, e.g. `the answer to finish (for 12.3 s)`. */
export function waitInProgress(): string | undefined {
  return currentWait && `${currentWait.what} (for ${seconds(currentWait.since)})`;
}

/** Runs `wait` as the current wait, so that a test's timeout names it. */
async function asCurrentWait<T>(what: string, wait: () => Promise<T>): Promise<T> {
  const mine = { what, since: Date.now() };
  currentWait = mine;
  try {
    return await wait();
  } finally {
    if (currentWait === mine) currentWait = undefined;
  }
}

/** Polls `probe` until it returns a value other than undefined/false; throws after `timeoutMs`. */
export function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  options: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  return asCurrentWait(what, () => poll(what, probe, options));
}

async function poll<T>(
  what: string,
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  { timeoutMs = 30_000, intervalMs = 250 }: { timeoutMs?: number; intervalMs?: number },
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const cause = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}${cause}`);
    }
    await delay(intervalMs);
  }
}

/** Rejects with a clear message when `promise` does not settle in time. */
export function withTimeout<T>(what: string, promise: Promise<T>, timeoutMs: number): Promise<T> {
  return asCurrentWait(what, () => settleInTime(what, promise, timeoutMs));
}

async function settleInTime<T>(what: string, promise: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Timed out after ${timeoutMs} ms: ${what}`)), timeoutMs);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export function seconds(sinceMs: number): string {
  return `${((Date.now() - sinceMs) / 1000).toFixed(1)} s`;
}
