import * as l10n from '@vscode/l10n';
import type { AnswerMeta } from './chatProtocol';
import { formatChars } from '../mentions/sizes';

/** The timing and token facts of an answer, as short labels for its meta line (credits and model are shown apart). */
export interface AnswerDetail {
  /** `context`, `tokens`, `firstToken`, `duration`, `continued`: also the CSS class suffix. */
  kind: 'context' | 'tokens' | 'firstToken' | 'duration' | 'continued';
  text: string;
  /** The longer form, for the hover. */
  title: string;
}

/** A duration as the chat's details and the comparison's figures show it: tenths of a second under 10 s. */
export function formatSeconds(ms: number): string {
  return l10n.t('{0} s', ms < 10_000 ? (ms / 1000).toFixed(1) : Math.round(ms / 1000));
}

export function answerDetails(meta: AnswerMeta | undefined): AnswerDetail[] {
  if (!meta) return [];
  const details: AnswerDetail[] = [];
  if (meta.context?.length) {
    const chars = meta.context.reduce((sum, c) => sum + c.chars, 0);
    const list = meta.context.map((c) => l10n.t('{0} ({1})', c.label, formatChars(c.chars))).join('\n');
    details.push({ kind: 'context', text: l10n.t('context: {0}', formatChars(chars)), title: l10n.t('Context sent with the question:\n{0}', list) });
  }
  const usage = meta.usage;
  if (usage?.completionTokens !== undefined || usage?.totalTokens !== undefined) {
    const parts = [
      usage.promptTokens !== undefined && l10n.t('{0} in', usage.promptTokens),
      usage.completionTokens !== undefined && l10n.t('{0} out', usage.completionTokens),
      usage.totalTokens !== undefined && l10n.t('{0} total', usage.totalTokens),
    ].filter((part): part is string => typeof part === 'string');
    const shown = usage.completionTokens ?? usage.totalTokens;
    details.push({ kind: 'tokens', text: l10n.t('{0} tokens', String(shown)), title: l10n.t('Tokens reported by the service: {0}', parts.join(', ')) });
  }
  // Before the timings, which show only on hover: it says what the text is.
  if (meta.continuations) {
    details.push({ kind: 'continued', text: l10n.t('continued'), title: l10n.t('Cut short and continued {0} time(s): each continuation was one request, billed on its own.', meta.continuations) });
  }
  const { startedAt, firstDeltaAt, finishedAt } = meta;
  if (startedAt !== undefined && firstDeltaAt !== undefined && firstDeltaAt >= startedAt) {
    details.push({ kind: 'firstToken', text: l10n.t('first token {0}', formatSeconds(firstDeltaAt - startedAt)), title: l10n.t('Time from sending the request to the first text of the answer') });
  }
  if (startedAt !== undefined && finishedAt !== undefined && finishedAt >= startedAt) {
    details.push({ kind: 'duration', text: formatSeconds(finishedAt - startedAt), title: l10n.t('Time from sending the request to the end of the answer') });
  }
  return details;
}
