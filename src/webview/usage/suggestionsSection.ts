import * as l10n from '@vscode/l10n';
import type { SuggestionsSummary } from '../../core/usage/report';
import { el } from '../shared/dom';
import { formatSpend } from './chart';

/** A ledger kind as the view names it (the CSV and the protocol keep the stored word). */
export function kindLabel(kind: string): string {
  switch (kind) {
    case 'chat': return l10n.t('Chat');
    case 'image': return l10n.t('Image');
    case 'suggestion': return l10n.t('Inline suggestions');
    default: return kind;
  }
}

/**
 * Inline suggestions over the days shown: what they cost and how many were requested, shown and
 * accepted (cancelled beside them), with what one accepted suggestion cost: whether ghost text pays.
 */
export function suggestionsSection(summary: SuggestionsSummary, days: number): HTMLElement {
  const { counts } = summary;
  const rows: Array<[string, string, string?]> = [
    [l10n.t('Spent'), l10n.t('{0} credits', formatSpend(summary.credits)), summary.unmeasured ? l10n.t('{0} more requests not measured', summary.unmeasured) : undefined],
    [l10n.t('Requested'), String(counts.requested), l10n.t('sent to the service')],
    [l10n.t('Shown'), String(counts.shown)],
    [l10n.t('Accepted'), String(counts.accepted), counts.shown ? l10n.t('{0}% of those shown', Math.round((counts.accepted / counts.shown) * 100)) : undefined],
    [l10n.t('Cancelled'), String(counts.cancelled), l10n.t('stopped before they were shown')],
    [l10n.t('Credits per accepted suggestion'), summary.creditsPerAccepted === null ? '—' : formatSpend(summary.creditsPerAccepted)],
  ];
  return el('section', { className: 'suggestions' }, [
    el('h2', { text: l10n.t('Inline suggestions over the last {0} days', days) }),
    el('table', {}, [
      el('tbody', {}, rows.map(([name, value, note]) => el('tr', {}, [
        el('th', { text: name, attrs: { scope: 'row' } }),
        el('td', { className: 'number', text: value }),
        el('td', { className: 'note-cell', text: note ?? '' }),
      ]))),
    ]),
  ]);
}
