import type { AnswerMeta } from '../chatProtocol';

/** The timing and token facts of an answer, as short labels for its meta line (credits and model are shown apart). */
export interface AnswerDetail {
  /** `tokens`, `firstToken`, `duration`: also the CSS class suffix. */
  kind: 'tokens' | 'firstToken' | 'duration';
  text: string;
  /** The longer form, for the hover. */
  title: string;
}

function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

export function answerDetails(meta: AnswerMeta | undefined): AnswerDetail[] {
  if (!meta) return [];
  const details: AnswerDetail[] = [];
  const usage = meta.usage;
  if (usage?.completionTokens !== undefined || usage?.totalTokens !== undefined) {
    const parts = [
      usage.promptTokens !== undefined && `${usage.promptTokens} in`,
      usage.completionTokens !== undefined && `${usage.completionTokens} out`,
      usage.totalTokens !== undefined && `${usage.totalTokens} total`,
    ].filter((part): part is string => typeof part === 'string');
    const shown = usage.completionTokens ?? usage.totalTokens;
    details.push({ kind: 'tokens', text: `${shown} tokens`, title: `Tokens reported by the service: ${parts.join(', ')}` });
  }
  const { startedAt, firstDeltaAt, finishedAt } = meta;
  if (startedAt !== undefined && firstDeltaAt !== undefined && firstDeltaAt >= startedAt) {
    details.push({ kind: 'firstToken', text: `first token ${seconds(firstDeltaAt - startedAt)}`, title: 'Time from sending the request to the first text of the answer' });
  }
  if (startedAt !== undefined && finishedAt !== undefined && finishedAt >= startedAt) {
    details.push({ kind: 'duration', text: seconds(finishedAt - startedAt), title: 'Time from sending the request to the end of the answer' });
  }
  return details;
}
