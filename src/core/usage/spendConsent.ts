/**
 * The user's consent to send a stated number of requests of one environment past its spending limits,
 * given once for all of them (a comparison asks once for its N columns). It travels with those
 * requests (BilledCall's `consent`, the guard's `open`), so no other request slips through on it:
 * the guard's `allowOnce` (Send Anyway on one card) is per environment, and the next request of any
 * path would take it. Each request that the guard checks against the environment's limits uses one.
 */
export class SpendConsent {
  #left: number;

  constructor(readonly environment: string, requests: number) {
    this.#left = Math.max(0, Math.floor(requests));
  }

  /** How many of its requests have not been sent yet. */
  get left(): number {
    return this.#left;
  }

  /** Uses one for a request of `environment`; false when none is left or it is another environment's. */
  take(environment: string): boolean {
    if (environment !== this.environment || this.#left === 0) return false;
    this.#left--;
    return true;
  }
}
