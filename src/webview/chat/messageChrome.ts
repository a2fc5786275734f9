import * as l10n from '@vscode/l10n';
import { answerDetails } from '../../core/chat/protocol/answerDetails';
import type { AnswerMeta, AttachmentView, ErrorCardView, MessageView } from '../../core/chat/protocol/chatProtocol';
import { formatCredits, SPEND_DIGITS } from '../../core/credits';
import { attachmentChip } from './attachmentChips';
import { codicon, el } from '../shared/dom';
import type { ImageThumbnails } from './imageThumbnails';

/** The parts of a message around its text: the status line, the meta line, attachment chips, the error card. */

export type StatusLabel = { icon: string; text: string };

/** Built when shown, not at module load: the bundle is configured after the modules are loaded. */
export function statusLabel(status: MessageView['status']): StatusLabel | undefined {
  switch (status) {
    case 'streaming': return { icon: 'loading codicon-modifier-spin', text: l10n.t('Answering…') };
    case 'stopped': return { icon: 'debug-stop', text: l10n.t('Stopped — partial answer') };
    case 'interrupted': return { icon: 'warning', text: l10n.t('Interrupted — the answer may be incomplete') };
    default: return undefined;
  }
}

/**
 * One formatter for every message's time: `toLocaleTimeString` with options builds a new one per
 * call (V8 caches only the option-less form), which was most of a restored message's chrome.
 */
const TIME_OF_DAY = new Intl.DateTimeFormat([], { hour: '2-digit', minute: '2-digit' });

/** A complete answer the service cut at the conversation's (or the setting's) Max tokens. */
export const cutAtLimit = (): StatusLabel => ({ icon: 'warning', text: l10n.t('Cut off at the Max tokens limit') });

export function metaParts(meta: AnswerMeta | undefined, createdAt: number): Node[] {
  const parts: Node[] = [];
  const time = new Date(meta?.finishedAt ?? createdAt);
  parts.push(el('time', { text: TIME_OF_DAY.format(time), attrs: { datetime: time.toISOString() } }));
  if (meta?.model) parts.push(el('span', { className: 'meta-model', text: meta.model }));
  if (meta?.creditsSpent !== undefined) parts.push(el('span', { className: 'meta-credits', text: l10n.t('{0} credits', formatCredits(meta.creditsSpent, SPEND_DIGITS)) }));
  if (meta?.spendNotMeasured !== undefined) {
    const why = meta.spendNotMeasured === 'overlapped'
      ? l10n.t('Another request to this environment ran at the same time: the balance difference holds both, so neither is counted. The status bar shows the balance.')
      : l10n.t('No balance could be read before and after this answer (see the setting inference.readBalanceAfterAnswer), so its cost is not known.');
    parts.push(el('span', { className: 'meta-credits-unknown', text: l10n.t('credits not measured'), attrs: { title: why } }));
  }
  for (const detail of answerDetails(meta)) {
    parts.push(el('span', { className: `meta-${detail.kind}`, text: detail.text, attrs: { title: detail.title } }));
  }
  if (meta?.requestId) {
    const title = meta.host ? l10n.t('Request ID {0}, served by {1}', meta.requestId, meta.host) : l10n.t('Request ID {0}', meta.requestId);
    parts.push(el('span', { className: 'meta-request', text: l10n.t('id {0}', meta.requestId.slice(0, 8)), attrs: { title } }));
  }
  return parts;
}

export function attachmentList(attachments: AttachmentView[] | undefined, thumbnails: ImageThumbnails): HTMLElement {
  return el('div', { className: 'attachments' }, (attachments ?? []).map((a) => attachmentChip(a, thumbnails, false)));
}

export function errorCard(error: ErrorCardView): HTMLElement {
  const actions = el('div', { className: 'error-actions' });
  for (const action of error.actions) {
    const button = el('button', {
      className: 'error-action',
      text: action.label,
      attrs: { type: 'button', 'data-action': 'errorAction', 'data-error-action': action.id },
    });
    actions.append(button);
  }
  return el('div', { className: 'error-card', attrs: { role: 'alert', 'data-error-kind': error.kind } }, [
    el('div', { className: 'error-title' }, [codicon('error'), el('span', { text: error.message })]),
    ...(error.requestId ? [el('div', { className: 'error-request', text: l10n.t('Request ID: {0}', error.requestId) })] : []),
    actions,
  ]);
}
