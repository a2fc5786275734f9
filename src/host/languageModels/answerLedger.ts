import { answerSpend } from '../../core/usage/answerSpend';
import { recordBilledCall } from '../../core/usage/billedCall';
import type { BillingWindow } from '../../core/usage/billingWindows';
import type { Services } from '../shared/services';
import { readSettledBalance } from '../account/settledBalance';

/** One answer in flight: what its spend is computed from. */
export interface AnswerInFlight {
  readonly env: string;
  readonly balanceBefore: number | undefined;
  /** When another call of the environment overlapped it, the balance readings mix both: no spend is computed. */
  readonly billing: BillingWindow;
  /** From the response: set once the service took the request. */
  requestId?: string;
  model?: string;
}

/**
 * Records what each answer given through VS Code's language model API cost, as the chat panel does:
 * the balance before it and one reading after it was billed (which also puts the settled balance in
 * the status bar); the spend goes into the usage ledger with its request id. Like every billed call,
 * the next answer starts only once the readings in progress are in (billingWindows.ts), so that a
 * reading does not include its reserve.
 */
export class AnswerLedger {
  #readings: Promise<void> = Promise.resolve();

  constructor(private readonly services: Services) {}

  /** Before sending: waits for the readings of calls that have ended and notes the balance this one starts from. */
  async start(env: string): Promise<AnswerInFlight> {
    const billing = await this.services.billing.open(env);
    return { env, billing, balanceBefore: this.services.account.get(env).balanceCredits };
  }

  /** After the answer (complete, failed or cancelled): once the service took it, reads the settled balance and records the spend. */
  end(answer: AnswerInFlight): void {
    const answeredAt = Date.now();
    if (answer.requestId === undefined) return answer.billing.close();
    answer.billing.settling();
    this.#readings = this.#readings.then(() => this.#record(answer, answeredAt)).catch((error: unknown) => {
      this.services.log.warn(`Language models: spend of request ${answer.requestId ?? ''} not recorded: ${error instanceof Error ? error.message : String(error)}`);
    }).finally(() => answer.billing.close());
  }

  /** Resolves once every reading asked for so far is in (tests wait for it). */
  settled(): Promise<void> {
    return this.#readings;
  }

  async #record(answer: AnswerInFlight, answeredAt: number): Promise<void> {
    const settled = await readSettledBalance(this.services, answer.env, 'Language models', true);
    const credits = answer.balanceBefore === undefined ? undefined : answerSpend(answer.balanceBefore, settled, answeredAt);
    const entry = { requestId: answer.requestId ?? '', model: answer.model ?? '', environment: answer.env, kind: 'chat' as const };
    recordBilledCall(this.services.usage, 'Language models', entry, answer.billing.overlapped, credits);
  }
}
