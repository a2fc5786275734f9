import vscode = require('vscode');
import type { BalanceReading } from '../../core/usage/answerSpend';
import { readRawSetting } from './config';
import type { Services } from './services';

/** The model list's response carries the balance into the account; the log takes a failed reading. */
export type SettledBalanceServices = Pick<Services, 'models' | 'account' | 'log'>;

/**
 * The balance after an answer was billed, read with one model-list request (a streamed answer
 * reports the balance before it is billed), when readBalanceAfterAnswer() says so.
 * The contract promises the balance header on chat and image calls only: the model list may carry
 * none, and then the reading is the older one (which `answerSpend` refuses). `quiet`: a 429 fails at
 * once instead of showing a retry countdown, for readings nobody is watching.
 */
export async function readSettledBalance(services: SettledBalanceServices, env: string, who: string, quiet = false): Promise<BalanceReading | undefined> {
  if (!readBalanceAfterAnswer()) return undefined;
  try {
    await services.models.list('chat', env, { refresh: true, quiet });
  } catch (error) {
    services.log.warn(`${who}: could not read the balance after an answer: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
  const { balanceCredits, balanceAt } = services.account.get(env);
  return balanceCredits !== undefined && balanceAt !== undefined ? { credits: balanceCredits, at: balanceAt } : undefined;
}

/** `inference.readBalanceAfterAnswer`, or while it is not set, the deprecated `inference.chat.refreshBalanceAfterAnswer` it replaced; on by default. */
export function readBalanceAfterAnswer(): boolean {
  const configuration = vscode.workspace.getConfiguration();
  for (const id of ['inference.readBalanceAfterAnswer', 'inference.chat.refreshBalanceAfterAnswer'] as const) {
    const value = readRawSetting(id, configuration);
    if (typeof value === 'boolean') return value;
  }
  return true;
}
