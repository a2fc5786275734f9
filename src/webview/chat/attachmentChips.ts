import * as l10n from '@vscode/l10n';
import type { AttachmentView, MentionRefusal } from '../../core/chat/protocol/chatProtocol';
import { describeBytes } from '../../core/byteSize';
import { formatChars } from '../../core/chat/mentions/sizes';
import { actionButton, codicon, el } from '../shared/dom';
import type { ImageThumbnails } from './imageThumbnails';

const ICONS: Record<AttachmentView['kind'], string> = {
  selection: 'selection',
  file: 'file',
  image: 'file-media',
  problems: 'warning',
  terminal: 'terminal',
  changes: 'git-compare',
};

/**
 * One attachment's chip, in the composer (removable) or under a sent message, with its size: an
 * image shows its thumbnail and bytes, text context its characters.
 */
export function attachmentChip(attachment: AttachmentView, thumbnails: ImageThumbnails, removable: boolean): HTMLElement {
  const { image, chars } = attachment;
  const size = image ? describeBytes(image.bytes) : chars === undefined ? undefined : formatChars(chars);
  const children: Node[] = [
    image ? thumbnails.image(attachment.id, attachment.label) : codicon(ICONS[attachment.kind]),
    el('span', { className: 'chip-label', text: attachment.label }),
  ];
  if (size !== undefined) children.push(el('span', { className: 'chip-size', text: size }));
  if (removable) {
    const remove = actionButton('removeAttachment', 'close', l10n.t('Remove {0}', attachment.label));
    remove.dataset.attachmentId = attachment.id;
    children.push(remove);
  }
  const where = attachment.detail ?? attachment.label;
  const title = image ? `${where} · ${image.mime} · ${size}` : size === undefined ? where : `${where} · ${size}`;
  return el('span', { className: image ? 'chip image-chip' : 'chip', attrs: { title, 'data-kind': attachment.kind } }, children);
}

/** A mention that attached nothing: why, until the user removes it. */
export function refusalChip(refusal: MentionRefusal, remove: () => void): HTMLElement {
  const label = l10n.t('Remove {0}', refusal.label);
  const button = el('button', { className: 'action', attrs: { type: 'button', title: label, 'aria-label': label } }, [codicon('close')]);
  button.addEventListener('click', remove);
  // The message names what was refused (the host's refusals start with the label), so the label is not repeated.
  return el('span', { className: 'chip chip-error', attrs: { role: 'alert', 'data-label': refusal.label } }, [
    codicon('error'), el('span', { className: 'chip-error-message', text: refusal.message }), button,
  ]);
}
