import * as l10n from '@vscode/l10n';
import type { MessageView } from './chatProtocol';
import { formatCredits, SPEND_DIGITS } from '../../credits';
import { roundCredits } from '../../credits';

/** What a conversation's answers cost together, as its header shows it. */
export interface ConversationSpend {
  /** The sum of the measured answers' credits. */
  credits: number;
  /** Answers whose cost was measured. */
  measured: number;
  /** Answers the service answered (so billed) whose cost could not be measured: not in `credits`. */
  notMeasured: number;
}

/** What the sum reads of a message: the same fields in the engine's messages and the webview's views. */
export type SpendFacts = Pick<MessageView, 'role' | 'meta'>;

/**
 * The total of the answers' credits. Measured: the answer has its credits. Not measured: the engine
 * said why it has none (an answer the service responded to, so billed, whose spend could not be
 * read: streamingAnswer.ts). An answer still streaming or still being measured counts in neither
 * yet, and a request that failed before a response was not billed and counts nowhere.
 */
export function conversationSpend(messages: readonly SpendFacts[]): ConversationSpend {
  let credits = 0;
  let measured = 0;
  let notMeasured = 0;
  for (const { role, meta } of messages) {
    if (role !== 'assistant') continue;
    if (meta?.creditsSpent !== undefined) {
      credits += meta.creditsSpent;
      measured++;
    } else if (meta?.spendNotMeasured !== undefined) {
      notMeasured++;
    }
  }
  return { credits: roundCredits(credits), measured, notMeasured };
}

/** The header's text and its hover; undefined while no answer was billed. */
export function conversationSpendLabel(spend: ConversationSpend): { text: string; title: string } | undefined {
  const { measured, notMeasured } = spend;
  if (measured + notMeasured === 0) return undefined;
  const credits = formatCredits(spend.credits, SPEND_DIGITS);
  // "0 credits" beside unmeasured answers would read as "free": without a measured one, only the count.
  const text = notMeasured === 0 ? l10n.t('{0} credits', credits)
    : measured === 0 ? (notMeasured === 1 ? l10n.t('1 answer, credits not measured') : l10n.t('{0} answers, credits not measured', notMeasured))
      : notMeasured === 1 ? l10n.t('{0} credits, and 1 answer not measured', credits)
        : l10n.t('{0} credits, and {1} answers not measured', credits, notMeasured);
  const title = notMeasured === 0
    ? l10n.t('This conversation so far: the credits of its answers, each measured from the balance after it.')
    : l10n.t('This conversation so far: the measured credits of its answers. An answer is not measured when another request to the same environment ran at the same time, or when no balance could be read before and after it; those are not in the total.');
  return { text, title };
}
