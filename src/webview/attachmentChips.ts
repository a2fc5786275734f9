import * as l10n from '@vscode/l10n';
import type { AttachmentView } from '../core/chat/chatProtocol';
import { describeBytes } from '../core/byteSize';
import { actionButton, codicon, el } from './dom';
import type { ImageThumbnails } from './imageThumbnails';

const ICONS: Record<AttachmentView['kind'], string> = { selection: 'selection', file: 'file', image: 'file-media' };

/** One attachment's chip, in the composer (removable) or under a sent message; an image shows its thumbnail and size. */
export function attachmentChip(attachment: AttachmentView, thumbnails: ImageThumbnails, removable: boolean): HTMLElement {
  const { image } = attachment;
  const children: Node[] = image
    ? [thumbnails.image(attachment.id, attachment.label), el('span', { text: attachment.label }), el('span', { className: 'chip-size', text: describeBytes(image.bytes) })]
    : [codicon(ICONS[attachment.kind]), el('span', { text: attachment.label })];
  if (removable) {
    const remove = actionButton('removeAttachment', 'close', l10n.t('Remove {0}', attachment.label));
    remove.dataset.attachmentId = attachment.id;
    children.push(remove);
  }
  const title = image ? `${attachment.detail ?? attachment.label} · ${image.mime} · ${describeBytes(image.bytes)}` : attachment.detail ?? attachment.label;
  return el('span', { className: image ? 'chip image-chip' : 'chip', attrs: { title } }, children);
}
