import type { AttachmentView } from './protocol/chatProtocol';
import { imageAttachments, isImageAttachment, type Attachment, type Conversation, type ImageAttachment } from './conversation';
import { attachmentView } from './conversationView';

/**
 * What goes with the next message (the composer's chips). Attaching the same context again replaces
 * its chip: a selection or file by kind and label, an image by its content (two pasted `image.png`
 * are two chips, the same picture twice is one).
 */
export class PendingAttachments {
  #items: Attachment[] = [];

  readonly #forgetImages: (conversationId: string, files: string[]) => void;

  /** `forgetImages`: deletes written image files (ConversationSaver.forgetImages). */
  constructor(forgetImages: (conversationId: string, files: string[]) => void) {
    this.#forgetImages = forgetImages;
  }

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

  /** Drops a chip; its image, if no chip or message of `conversation` names it, is forgotten. */
  remove(id: string, conversation: Conversation): void {
    const dropped = this.images().filter((attachment) => attachment.id === id);
    this.#items = this.#items.filter((a) => a.id !== id);
    this.#forgetDropped(dropped, conversation);
  }

  /** Drops every chip (another conversation shown, the session ended), their images as `remove` does. */
  discard(conversation: Conversation): void {
    this.#forgetDropped(this.take().filter(isImageAttachment), conversation);
  }

  /**
   * Images the composer dropped that neither a chip nor a message of the conversation names: a
   * question taken back had written them, and the store deletes those its saved log does not name either.
   */
  #forgetDropped(dropped: readonly ImageAttachment[], conversation: Conversation): void {
    const named = new Set([...this.images(), ...imageAttachments(conversation.messages)].map((attachment) => attachment.image.file));
    const files = new Set(dropped.filter(({ image }) => !named.has(image.file)).map(({ image }) => image.file));
    if (files.size) this.#forgetImages(conversation.id, [...files]);
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
