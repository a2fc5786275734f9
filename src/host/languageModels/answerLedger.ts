import { answerSpend } from '../../core/usage/answerSpend';
import type { Services } from '../services';
import { readSettledBalance } from '../settledBalance';

/** One answer in flight: what its spend is computed from. */
export interface AnswerInFlight {
  readonly env: string;
  readonly balanceBefore: number | undefined;
  /** Another answer ran at the same time: the balance readings then mix both, so no spend is computed. */
  overlapped: boolean;
  /** From the response: set once the service took the request. */
  requestId?: string;
  model?: string;
}

/**
 * Records what each answer given through VS Code's language model API cost, as the chat panel does:
 * the balance before it and one reading after it was billed (which also puts the settled balance in
 * the status bar); the spend goes into the usage ledger with its request id. The next answer starts
 * only once the previous one's reading is in, so that the reading does not include its reserve.
 */
export class AnswerLedger {
  #readings: Promise<void> = Promise.resolve();
  readonly #running = new Set<AnswerInFlight>();

  constructor(private readonly services: Services) {}

  /** Before sending: waits for the previous answer's reading and notes the balance this one starts from. */
  async start(env: string): Promise<AnswerInFlight> {
    await this.#readings;
    const answer: AnswerInFlight = { env, balanceBefore: this.services.account.get(env).balanceCredits, overlapped: this.#running.size > 0 };
    for (const other of this.#running) other.overlapped = true;
    this.#running.add(answer);
    return answer;
  }

  /** After the answer (complete, failed or cancelled): once the service took it, reads the settled balance and records the spend. */
  end(answer: AnswerInFlight): void {
    const answeredAt = Date.now();
    this.#running.delete(answer);
    if (answer.requestId === undefined) return;
    this.#readings = this.#readings.then(() => this.#record(answer, answeredAt)).catch((error: unknown) => {
      this.services.log.warn(`Language models: spend of request ${answer.requestId ?? ''} not recorded: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  /** Resolves once every reading asked for so far is in (tests wait for it). */
  settled(): Promise<void> {
    return this.#readings;
  }

  async #record(answer: AnswerInFlight, answeredAt: number): Promise<void> {
    const settled = await readSettledBalance(this.services, answer.env, 'Language models', true);
    if (answer.balanceBefore === undefined || answer.overlapped) {
      this.services.log.info(`Language models: no spend recorded for request ${answer.requestId ?? ''}: ${answer.overlapped ? 'another answer ran at the same time' : 'no balance was known before it'}.`);
      return;
    }
    const credits = answerSpend(answer.balanceBefore, settled, answeredAt);
    if (credits === undefined) return;
    this.services.usage.record({ requestId: answer.requestId ?? '', model: answer.model ?? '', environment: answer.env, kind: 'chat', credits });
  }
}
