/**
 * Which of an environment's equivalent hosts a request tries, and in what order. A host that failed is
 * set aside for a backoff that doubles with each failure in a row (bounded); the next request prefers
 * the host that last answered; a host whose backoff ran out gets one request at a time (its probe)
 * until it answers again; when every host is set aside the least recently failed is tried anyway,
 * never a request refused without trying. One per window and environment (the host keeps them).
 */

export interface BackoffSettings {
  /** The first failure sets a host aside for this long; each further one in a row doubles it. */
  firstMs: number;
  longestMs: number;
}

export const DEFAULT_BACKOFF: Readonly<BackoffSettings> = { firstMs: 5_000, longestMs: 300_000 };

export interface HostState {
  origin: string;
  /** Failures in a row; 0 when the host last answered (or was never tried). */
  failures: number;
  /** Until when it is set aside (epoch ms); 0 when it is not. */
  setAsideUntil: number;
  lastFailedAt?: number;
  /** Why it last failed, as the log and the account menu tell it. */
  lastError?: string;
  /** A request is probing it now (it had failed and its backoff ran out). */
  probing: boolean;
}

/** A host chosen for one request: report how it went exactly once. */
export interface HostTurn {
  readonly origin: string;
  succeeded(): void;
  failed(reason: string): void;
  /** The request ended without telling anything about the host (cancelled, or an answer about the request). */
  released(): void;
}

export class HostHealth {
  readonly #hosts: HostState[];
  #lastHealthy: HostState | undefined;

  readonly #now: () => number;
  readonly #backoff: BackoffSettings;

  constructor(
    origins: readonly string[],
    now: () => number = Date.now,
    backoff: BackoffSettings = DEFAULT_BACKOFF,
  ) {
    this.#now = now;
    this.#backoff = backoff;
    this.#hosts = origins.map((origin) => ({ origin, failures: 0, setAsideUntil: 0, probing: false }));
  }

  get origins(): string[] {
    return this.#hosts.map((host) => host.origin);
  }

  /** A copy of each host's state, in configured order. */
  states(): HostState[] {
    return this.#hosts.map((host) => ({ ...host }));
  }

  /** The host that answered last, if any has. */
  get lastHealthy(): string | undefined {
    return this.#lastHealthy?.origin;
  }

  /**
   * The hosts one request may try, in order: a set-aside host whose backoff ran out and that nobody is
   * probing (this request probes it), then the last healthy host, then the other hosts that are not set
   * aside. When that leaves none, the least recently failed host. Takes the probe at once, so that a
   * second request at the same moment does not probe too.
   */
  plan(): HostTurn[] {
    const now = this.#now();
    const probe = this.#hosts.find((host) => host.failures > 0 && !host.probing && host.setAsideUntil <= now);
    const healthy = this.#hosts.filter((host) => host.failures === 0);
    if (this.#lastHealthy && this.#lastHealthy.failures === 0) healthy.sort((a, b) => Number(b === this.#lastHealthy) - Number(a === this.#lastHealthy));
    const order = [...(probe ? [probe] : []), ...healthy];
    if (order.length === 0) {
      const oldest = this.#hosts.reduce((best, host) => ((host.lastFailedAt ?? 0) < (best.lastFailedAt ?? 0) ? host : best));
      order.push(oldest);
    }
    if (probe) probe.probing = true;
    return order.map((host) => this.#turn(host, host === probe));
  }

  #turn(host: HostState, probing: boolean): HostTurn {
    let reported = false;
    const report = (update: () => void) => {
      if (reported) return;
      reported = true;
      if (probing) host.probing = false;
      update();
    };
    return {
      origin: host.origin,
      succeeded: () => report(() => {
        host.failures = 0;
        host.setAsideUntil = 0;
        this.#lastHealthy = host;
      }),
      failed: (reason) => report(() => {
        const now = this.#now();
        host.failures += 1;
        host.lastFailedAt = now;
        host.lastError = reason;
        host.setAsideUntil = now + Math.min(this.#backoff.firstMs * 2 ** (host.failures - 1), this.#backoff.longestMs);
        if (this.#lastHealthy === host) this.#lastHealthy = undefined;
      }),
      released: () => report(() => undefined),
    };
  }
}
