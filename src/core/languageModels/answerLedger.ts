import { BilledCall, type BillingMeter } from '../usage/billedCall';

const WHO = 'Language models';

/** One answer in flight: its billed call, and what the response said of it. */
export interface AnswerInFlight {
  readonly call: BilledCall;
  /** From the response: set once the service took the request. */
  requestId?: string;
  model?: string;
}

/**
 * Records what each answer given through VS Code's language model API cost, as the chat panel does
 * (BilledCall): the balance before it and one reading after it was billed (which also puts the
 * settled balance in the status bar); the spend goes into the usage ledger with its request id.
 * Readings are taken one after the other.
 */
export class AnswerLedger {
  #readings: Promise<void> = Promise.resolve();

  readonly #meter: BillingMeter;
  readonly #warn: (message: string) => void;

  constructor(meter: BillingMeter, warn: (message: string) => void) {
    this.#meter = meter;
    this.#warn = warn;
  }

  /** Before sending: waits for the readings of calls that have ended and notes the balance this one starts from. */
  async start(env: string): Promise<AnswerInFlight> {
    return { call: await BilledCall.open(this.#meter, WHO, env) };
  }

  /** After the answer (complete, failed or cancelled): once the service took it, reads the settled balance and records the spend. */
  end(answer: AnswerInFlight): void {
    if (answer.requestId === undefined) return answer.call.notBilled();
    const entry = { requestId: answer.requestId, model: answer.model ?? '', environment: answer.call.env, kind: 'chat' as const };
    this.#readings = answer.call.billedStream(entry, this.#readings).then(() => undefined, (error: unknown) => {
      this.#warn(`${WHO}: spend of request ${answer.requestId ?? ''} not recorded: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  /** Resolves once every reading asked for so far is in (tests wait for it). */
  settled(): Promise<void> {
    return this.#readings;
  }
}
