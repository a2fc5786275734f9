import * as l10n from '@vscode/l10n';
import { newId, type ComparisonColumn, type ConversationMessage } from '../conversation';

/**
 * A comparison as the conversation holds it: one assistant turn after the question, whose columns are
 * the models' answers (conversation.ts, `Comparison`). Pure helpers the run, the engine and later the
 * view and the export read.
 */

export { MAX_COMPARED_MODELS, MIN_COMPARED_MODELS } from '../protocol/chatProtocol';

/** The turn for a question asked of `models` (distinct ids, in the order picked), every column waiting to be sent. */
export function newComparisonTurn(models: readonly string[], now: number): ConversationMessage {
  const columns: ComparisonColumn[] = models.map((model) => ({
    model,
    // No startedAt yet: it is set when the column's request goes (a column may wait for a slot).
    answer: { id: newId(), role: 'assistant', text: '', createdAt: now, status: 'streaming', meta: { model } },
  }));
  return { id: newId(), role: 'assistant', text: '', createdAt: now, status: 'streaming', meta: { startedAt: now }, comparison: { columns } };
}

export { columnFigures, isWaiting, type ColumnFigures } from '../protocol/columnFigures';

/** Every column has ended (done, stopped, error or interrupted). */
export function comparisonEnded(message: ConversationMessage): boolean {
  return (message.comparison?.columns ?? []).every((column) => column.answer.status !== 'streaming');
}

/**
 * Why the conversation cannot go on with `columnId` of `message`, or undefined when it can: once every
 * column has ended, with an answer that later requests would carry (text, no error: requestMessages).
 * A stopped answer is one: the user read it and chose it.
 */
export function continueRefusal(message: ConversationMessage | undefined, columnId: string): string | undefined {
  const column = message?.comparison?.columns.find((c) => c.answer.id === columnId);
  if (!message || !column) return l10n.t('That answer is not part of a comparison in this conversation.');
  if (!comparisonEnded(message)) return l10n.t('The comparison is still streaming: wait for it, or stop it first.');
  if (column.answer.error !== undefined || !column.answer.text) return l10n.t('That model gave no answer to go on with.');
  return undefined;
}
