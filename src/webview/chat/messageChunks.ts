import { el } from '../shared/dom';

/**
 * Messages per chunk. 8, 16 and 32 scrolled the rendered 5 MB conversation (896 messages) at the
 * same main-thread CPU (~2.2 ms a frame against ~5.5 ms without chunks); 8 keeps a chunk near the
 * viewport from holding many screens of answers (lazyMessages.ts looks inside the near ones).
 */
const MESSAGES_PER_CHUNK = 8;

/** A message's height before it was ever laid out, when it has no estimate of its own (chat.css, `.message`). */
const DEFAULT_MESSAGE_PX = 120;

/**
 * The list's messages in chunks of a few consecutive messages (`.message-chunk`), each chunk
 * `content-visibility: auto` like the messages in it (chat.css).
 *
 * Chromium checks every `content-visibility: auto` element's intersection with the viewport on each
 * scrolled frame; with one per message that check was the largest item of scrolling a long
 * conversation (~3 ms of a frame's ~5.5 ms of main-thread CPU on the development machine for 896
 * messages). Elements inside a chunk that is skipped are not checked: about a hundred chunks and
 * the messages of the few chunks near the viewport are. The messages keep their own
 * `content-visibility: auto`, so that an answer not rendered yet (a long plain-text placeholder) is
 * still not laid out while its chunk is on screen.
 */
export class MessageChunks {
  /** The estimated height of each answer not rendered yet (MessageElement.placeholderHeight), for its chunk's. */
  readonly #estimates = new Map<Element, number>();

  readonly #list: HTMLElement;

  constructor(list: HTMLElement) {
    this.#list = list;
  }

  /** Puts `message` before `before` (a message in the list), or at the end. */
  insert(message: HTMLElement, estimatedHeight: number | undefined, before?: HTMLElement): void {
    if (estimatedHeight !== undefined) this.#estimates.set(message, estimatedHeight);
    let chunk: HTMLElement;
    if (!before) {
      const last = this.#list.lastElementChild;
      chunk = isChunk(last) && last.childElementCount < MESSAGES_PER_CHUNK ? last : this.#newChunk(null);
      chunk.append(message);
    } else {
      chunk = before.parentElement!;
      // Older messages come in parts, each message put before the first: the chunk before fills up.
      if (before === chunk.firstElementChild && chunk.childElementCount >= MESSAGES_PER_CHUNK) chunk = this.#roomBefore(chunk);
      chunk.insertBefore(message, chunk === before.parentElement ? before : null);
    }
    this.#estimate(chunk);
  }

  remove(message: HTMLElement): void {
    const chunk = message.parentElement;
    message.remove();
    this.#estimates.delete(message);
    if (!isChunk(chunk)) return;
    if (chunk.childElementCount === 0) chunk.remove();
    else this.#estimate(chunk);
  }

  /** The chunk right before `chunk` if it has room, else a new one there. */
  #roomBefore(chunk: HTMLElement): HTMLElement {
    const previous = chunk.previousElementSibling;
    return isChunk(previous) && previous.childElementCount < MESSAGES_PER_CHUNK ? previous : this.#newChunk(chunk);
  }

  #newChunk(before: Element | null): HTMLElement {
    const chunk = el('div', { className: 'message-chunk' });
    this.#list.insertBefore(chunk, before);
    return chunk;
  }

  /**
   * A chunk never laid out (off screen since it was made) is as tall as its messages' estimates;
   * once laid out, the browser remembers its real height (`contain-intrinsic-size: auto`). Only
   * answers not rendered yet have an estimate: a chunk of rendered messages (the latest, on screen
   * when shown) gets none, and so no style attribute, as the rendered messages have none.
   */
  #estimate(chunk: HTMLElement): void {
    let height = 0;
    let estimated = false;
    for (const message of chunk.children) {
      const estimate = this.#estimates.get(message);
      estimated ||= estimate !== undefined;
      height += estimate ?? DEFAULT_MESSAGE_PX;
    }
    if (estimated) chunk.style.setProperty('contain-intrinsic-size', `auto ${height}px`);
    else chunk.removeAttribute('style');
  }
}

function isChunk(element: Element | null | undefined): element is HTMLElement {
  return element?.classList.contains('message-chunk') ?? false;
}
