import type { AttachmentView } from './protocol/chatProtocol';
import { isImageAttachment, type Attachment, type ImageAttachment } from './conversation';
import { attachmentView } from './conversationView';

/**
 * What goes with the next message (the composer's chips). Attaching the same context again replaces
 * its chip: a selection or file by kind and label, an image by its content (two pasted `image.png`
 * are two chips, the same picture twice is one).
 */
export class PendingAttachments {
  #items: Attachment[] = [];

  /** Every chip, for what the next message would send (an estimate). */
  all(): readonly Attachment[] {
    return this.#items;
  }

  images(): ImageAttachment[] {
    return this.#items.filter(isImageAttachment);
  }

  add(attachment: Attachment): void {
    const same = (a: Attachment) => (isImageAttachment(attachment)
      ? isImageAttachment(a) && a.image.file === attachment.image.file
      : a.kind === attachment.kind && a.label === attachment.label);
    this.#items = [...this.#items.filter((a) => !same(a)), attachment];
  }

  remove(id: string): void {
    this.#items = this.#items.filter((a) => a.id !== id);
  }

  /** Hands the chips to a message; `restore` gives them back when the message was not taken. */
  take(): Attachment[] {
    const taken = this.#items;
    this.#items = [];
    return taken;
  }

  restore(attachments: readonly Attachment[]): void {
    this.#items = [...attachments];
  }

  views(): AttachmentView[] {
    return this.#items.map(attachmentView);
  }
}
