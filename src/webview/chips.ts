import * as l10n from '@vscode/l10n';
import type { AttachmentKind, AttachmentView, MentionRefusal } from '../core/chat/chatProtocol';
import { formatChars } from '../core/chat/mentions/sizes';
import { actionButton, codicon, el } from './dom';

const ICONS: Record<AttachmentKind, string> = {
  selection: 'selection',
  file: 'file',
  problems: 'warning',
  terminal: 'terminal',
  changes: 'git-compare',
};

/** One attachment as a chip, with its size; in the composer with a remove button, in a sent message without. */
export function attachmentChip(a: AttachmentView, removable: boolean): HTMLElement {
  const children: HTMLElement[] = [codicon(ICONS[a.kind]), el('span', { className: 'chip-label', text: a.label })];
  if (a.chars !== undefined) children.push(el('span', { className: 'chip-size', text: formatChars(a.chars) }));
  if (removable) {
    const remove = actionButton('removeAttachment', 'close', l10n.t('Remove {0}', a.label));
    remove.dataset.attachmentId = a.id;
    children.push(remove);
  }
  const title = a.chars === undefined ? a.detail ?? a.label : l10n.t('{0} ({1})', a.detail ?? a.label, formatChars(a.chars));
  return el('span', { className: 'chip', attrs: { title, 'data-kind': a.kind } }, children);
}

/** A mention that attached nothing: what and why, until the user removes it. */
export function refusalChip(refusal: MentionRefusal, remove: () => void): HTMLElement {
  const button = el('button', { className: 'action', attrs: { type: 'button', title: l10n.t('Remove {0}', refusal.label), 'aria-label': l10n.t('Remove {0}', refusal.label) } }, [codicon('close')]);
  button.addEventListener('click', remove);
  // The message names what was refused (the host's refusals start with the label), so the label is not repeated.
  return el('span', { className: 'chip chip-error', attrs: { role: 'alert', 'data-label': refusal.label } }, [
    codicon('error'), el('span', { className: 'chip-error-message', text: refusal.message }), button,
  ]);
}
