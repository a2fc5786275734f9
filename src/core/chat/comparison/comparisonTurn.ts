import * as l10n from '@vscode/l10n';
import type { SpendNotMeasured } from '../protocol/chatProtocol';
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

/** A column that has not been sent yet: it waits for a slot (the comparison's bounded concurrency). */
export function isWaiting(column: ComparisonColumn): boolean {
  return column.answer.status === 'streaming' && column.answer.meta?.startedAt === undefined;
}

/** What a column's card and the export's table show of one answer. */
export interface ColumnFigures {
  /** The model that answered (the resolved id when the service reported one), else the one asked. */
  model: string;
  status: NonNullable<ConversationMessage['status']>;
  /** From its request's sending to its first text; undefined until text arrived. */
  timeToFirstTokenMs?: number;
  /** From its request's sending to its end. */
  totalMs?: number;
  /**
   * Output characters per second over the generation (first text to end): the wait before the first
   * token is its own figure, so that a slow start does not hide a fast model, nor the reverse.
   */
  charsPerSecond?: number;
  outputChars: number;
  /** Measured credits, or why there are none; undefined while not known (streaming, being measured, never billed). */
  spend?: { credits: number } | { notMeasured: SpendNotMeasured };
}

export function columnFigures(column: ComparisonColumn): ColumnFigures {
  const { answer } = column;
  const meta = answer.meta ?? {};
  const figures: ColumnFigures = { model: meta.model ?? column.model, status: answer.status ?? 'done', outputChars: answer.text.length };
  const sentAt = meta.startedAt;
  if (sentAt !== undefined && meta.firstDeltaAt !== undefined) figures.timeToFirstTokenMs = meta.firstDeltaAt - sentAt;
  if (sentAt !== undefined && meta.finishedAt !== undefined) figures.totalMs = meta.finishedAt - sentAt;
  const generationMs = meta.finishedAt !== undefined && meta.firstDeltaAt !== undefined ? meta.finishedAt - meta.firstDeltaAt : 0;
  // One burst of text in no measurable time has no rate worth showing.
  if (generationMs > 0 && answer.text.length > 0) figures.charsPerSecond = Math.round((answer.text.length / generationMs) * 1000 * 10) / 10;
  if (meta.creditsSpent !== undefined) figures.spend = { credits: meta.creditsSpent };
  else if (meta.spendNotMeasured !== undefined) figures.spend = { notMeasured: meta.spendNotMeasured };
  return figures;
}

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
