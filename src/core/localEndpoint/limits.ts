/**
 * What the local endpoint accepts from its clients, and for how long it waits for them: its own
 * choices (the spec says nothing about a local endpoint), each an option of LocalEndpointServer with
 * this default, and listed in the README. Node's own defaults (no connection cap, 60 s for headers,
 * 300 s for a request) suit a public server with slow clients, not a loopback port that any process
 * or page on the machine can reach.
 */
import { NUMBER_PARAMS } from '../numberParams';

export interface EndpointLimits {
  /** Request bodies: generous for long conversations, bounded so a client cannot exhaust the host. */
  maxRequestBytes: number;
  /** Upstream answers that are read whole to be translated (non-streamed Anthropic answers, model lists). */
  maxTranslatedBytes: number;
  /** Connections open at once; more are closed as they arrive. SDK clients keep a few each. */
  maxConnections: number;
  /** From a connection's start (or its previous request) to the end of a request's headers. */
  headersTimeoutMs: number;
  /** From the same start to the end of the request's body; answering takes as long as it takes. */
  requestTimeoutMs: number;
  /**
   * `max_tokens` above this is refused with 400 in the client's protocol (it would be sent as is): the
   * chat's own bound (core/numberParams.ts), since no model writes that much in one answer.
   */
  maxTokens: number;
  /** Refusals before authentication (Host, Origin, path, token) reported per window; the rest are counted. */
  refusalsReported: number;
  refusalWindowMs: number;
}

export const DEFAULT_ENDPOINT_LIMITS: Readonly<EndpointLimits> = {
  maxRequestBytes: 4 * 1024 * 1024,
  maxTranslatedBytes: 16 * 1024 * 1024,
  maxConnections: 64,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  maxTokens: Math.max(...NUMBER_PARAMS.filter((param) => param.wire === 'max_tokens').map((param) => param.max)),
  refusalsReported: 10,
  refusalWindowMs: 60_000,
};

/** How often Node checks the two timeouts: at its default (30 s), a 10 s timeout could take 40. */
export const TIMEOUT_CHECK_INTERVAL_MS = 1_000;

/**
 * Limits what refused, unauthenticated requests put into the log and the request count: a page or a
 * process that found the port cannot flood either. The first few of each window are reported; the
 * rest only counted, and the next one reported says how many were not.
 */
export class RefusalReports {
  #windowStart = Number.NEGATIVE_INFINITY;
  #reportedInWindow = 0;
  #unreported = 0;

  readonly #limits: Pick<EndpointLimits, 'refusalsReported' | 'refusalWindowMs'>;
  readonly #now: () => number;

  constructor(limits: Pick<EndpointLimits, 'refusalsReported' | 'refusalWindowMs'>, now: () => number = () => performance.now()) {
    this.#limits = limits;
    this.#now = now;
  }

  /** Undefined: not reported. Otherwise what the report adds to the line (possibly nothing). */
  next(): string | undefined {
    const now = this.#now();
    if (now - this.#windowStart >= this.#limits.refusalWindowMs) {
      this.#windowStart = now;
      this.#reportedInWindow = 0;
    }
    if (this.#reportedInWindow >= this.#limits.refusalsReported) {
      this.#unreported += 1;
      return undefined;
    }
    this.#reportedInWindow += 1;
    const notes: string[] = [];
    if (this.#unreported > 0) notes.push(`${this.#unreported} refused request(s) before this one were not logged`);
    if (this.#reportedInWindow === this.#limits.refusalsReported) {
      notes.push(`further refusals in the next ${Math.round(this.#limits.refusalWindowMs / 1000)} s are counted, not logged`);
    }
    this.#unreported = 0;
    return notes.join('; ');
  }
}
