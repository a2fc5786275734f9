import type { AnswerMeta, AnswerStatus, SpendNotMeasured } from './chatProtocol';

/**
 * A comparison column's figures, as its card, the export and the integration tests read them: pure,
 * on the fields the engine's column (conversation.ts ComparisonColumn) and the webview's (ColumnView,
 * its text as rendered so far) share.
 */

/** What the figures read of a column: the model asked, and its answer's text, status and meta. */
export interface ColumnFacts {
  model: string;
  answer: { text: string; status?: AnswerStatus | undefined; meta?: AnswerMeta | undefined };
}

/** A column that has not been sent yet: it waits for a slot (the comparison's bounded concurrency). */
export function isWaiting(column: ColumnFacts): boolean {
  return column.answer.status === 'streaming' && column.answer.meta?.startedAt === undefined;
}

/** What a column's card and the export's table show of one answer. */
export interface ColumnFigures {
  /** The model that answered (the resolved id when the service reported one), else the one asked. */
  model: string;
  status: AnswerStatus;
  /**
   * From its request's sending to its first text; undefined until text arrived. The request that was
   * answered: a 429 waited out before it, or a wait for a free slot, is not counted.
   */
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

export function columnFigures(column: ColumnFacts): ColumnFigures {
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
