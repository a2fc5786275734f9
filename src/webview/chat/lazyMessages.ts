import type { MessageElement } from './messageView';

/**
 * Long conversations open at once: only the latest answers are rendered when a conversation is shown
 * (`eagerFrom`, core/chat/protocol/snapshotParts.ts); the others wait as plain-text placeholders (messageView.ts) and are rendered when
 * they come within NEAR_PX of the visible part of the list, nearest first, a few per frame.
 *
 * Rendering a 5 MB conversation whole took seconds before its first paint (the one-shot render of
 * 1 MB of mixed markdown is ~1 s here); the placeholders cost a text node each, and off-screen
 * messages are not laid out (`content-visibility: auto`).
 *
 * What is near is found from the scroll position, once per frame that scrolled: a binary search of
 * the list's children by position, then a walk over the few within NEAR_PX. An IntersectionObserver
 * watching every deferred message did the same in Chromium's frame for all ~900 messages of a 5 MB
 * conversation on every scrolled frame: ~2 ms a frame, 3–6 ms in the slowest (with the one
 * `content-visibility` keeps itself, a fifth of the main thread's time while scrolling).
 */

/** How far outside the visible part of the list a message starts rendering (about two screens). */
const NEAR_PX = 1600;

/**
 * A frame renders waiting messages until this much of its time is spent (one slice of blocks at
 * least): the rest of the frame (style, layout and paint of what scrolled in) must fit in a 60 Hz
 * frame too. 3 ms against 6 ms, alternated runs of the longConversation bench: our script's p99 in
 * a scrolled frame 4.0–4.3 ms against 6.4–6.6 ms, nothing more left unrendered.
 */
const FRAME_BUDGET_MS = 3;

export class LazyMessages {
  /** Deferred messages by their root element. */
  readonly #watched = new Map<Element, MessageElement>();
  #scheduled = false;
  /**
   * The deferred message whose placeholder holds the selection (find-in-page put its match there):
   * not rendered while it does, which would drop the match's highlight.
   */
  #holdingSelection: MessageElement | undefined;
  /**
   * Parts of answers rendered here, not laid out yet (layOutSome). Chromium lays out a part when it
   * finds it near the viewport, in that frame: a frame scrolling onto a just-rendered answer paid its
   * style, text shaping and layout at once (20–40 ms for a 20 KB answer here).
   */
  readonly #toLayOut: Element[] = [];

  readonly #list: HTMLElement;

  constructor(list: HTMLElement) {
    this.#list = list;
    document.addEventListener('selectionchange', () => this.#followSelection());
    list.addEventListener('scroll', () => this.#schedule(), { passive: true });
    // A wider or narrower panel changes what is near.
    new ResizeObserver(() => this.#schedule()).observe(list);
  }

  /** Renders `message` when it comes near the visible part, if it is deferred. */
  watch(message: MessageElement): void {
    if (!message.deferred) return;
    this.#watched.set(message.root, message);
    this.#scheduleAfterLayout();
  }

  /** Renders `message` at once if it is deferred (it is about to be scrolled to). */
  renderNow(message: MessageElement): void {
    this.unwatch(message);
    message.render();
  }

  unwatch(message: MessageElement): void {
    this.#watched.delete(message.root);
  }

  /**
   * Find-in-page selects a match inside a placeholder but does not scroll to it: the message is off
   * screen and not laid out (`content-visibility: auto`). This lays that one message out and scrolls
   * the match to the middle of the list, and keeps the placeholder (and so the highlight) until the
   * selection leaves it.
   */
  #followSelection(): void {
    const selection = document.getSelection();
    const holder = selection?.focusNode?.parentElement?.closest('.md-placeholder')?.closest('.message');
    const message = holder ? this.#watched.get(holder) : undefined;
    const previous = this.#holdingSelection;
    this.#holdingSelection = message;
    if (previous && previous !== message) {
      previous.root.style.removeProperty('content-visibility');
      this.#schedule();
    }
    if (!message || !selection?.rangeCount || previous === message) return;
    message.root.style.setProperty('content-visibility', 'visible');
    const match = selection.getRangeAt(0).getBoundingClientRect();
    const list = this.#list.getBoundingClientRect();
    this.#list.scrollTop += match.top - list.top - (list.height - match.height) / 2;
  }

  #schedule(): void {
    if (this.#scheduled || (this.#watched.size === 0 && !this.#toLayOut.length)) return;
    this.#scheduled = true;
    requestAnimationFrame(() => this.#renderSome());
  }

  /**
   * From the frame after the next: messages just added are laid out by the next frame, where
   * measuring them would force that layout early, and rendering some would lengthen the frame that
   * first shows the conversation.
   */
  #scheduleAfterLayout(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    requestAnimationFrame(() => requestAnimationFrame(() => this.#renderSome()));
  }

  #renderSome(): void {
    this.#scheduled = false;
    const started = performance.now();
    const nearestFirst = this.#nearDeferred().filter((message) => message !== this.#holdingSelection);
    // A long answer is built over several frames (MessageElement.render), nearest first.
    for (const message of nearestFirst) {
      if (message.render(started + FRAME_BUDGET_MS)) {
        this.unwatch(message);
        this.#toLayOut.push(...Array.from(message.root.querySelectorAll('.md-part')));
      }
      if (performance.now() - started >= FRAME_BUDGET_MS) break;
    }
    this.#layOutSome(started);
    // Looked at again next frame: the rest, and what a rendered answer's real height brought near.
    if (nearestFirst.length || this.#toLayOut.length) this.#schedule();
  }

  /**
   * Lays out rendered parts with what is left of the frame's budget, before they come into view.
   * Reading a part's last block's box lays out that part alone, even inside a message the browser
   * skips (its other parts stay skipped), and Chromium keeps that layout for when it comes near:
   * scrolled into view, such a message took 1–3 ms against 9–38 ms. With the parts and the
   * placeholders' slices, longConversation bench runs alternated with the commit before the three:
   * p99 scrolled frame 14–16 ms against 21–26 ms.
   */
  #layOutSome(started: number): void {
    while (this.#toLayOut.length && performance.now() - started < FRAME_BUDGET_MS) {
      const part = this.#toLayOut.shift();
      if (part?.isConnected) part.lastElementChild?.getBoundingClientRect();
    }
  }

  /**
   * The deferred messages within NEAR_PX of the visible part, nearest first. Read at the start of a
   * frame, the layout is the last frame's (scrolling does not dirty it): no layout is forced.
   * Messages are in chunks (messageChunks.ts): the chunks near, then their messages near.
   */
  #nearDeferred(): MessageElement[] {
    const view = this.#list.getBoundingClientRect();
    const top = view.top - NEAR_PX;
    const bottom = view.bottom + NEAR_PX;
    const near: Array<{ message: MessageElement; distance: number }> = [];
    for (const [chunk] of laidOutWithin(this.#list.children, top, bottom)) {
      for (const [child, box] of laidOutWithin(chunk.children, top, bottom)) {
        const message = this.#watched.get(child);
        if (message) near.push({ message, distance: Math.max(0, view.top - box.bottom, box.top - view.bottom) });
      }
    }
    return near.sort((a, b) => a.distance - b.distance).map((entry) => entry.message);
  }
}

/** The elements of `children` (laid out top to bottom) whose box reaches between `top` and `bottom`, with their box. */
function* laidOutWithin(children: HTMLCollection, top: number, bottom: number): Generator<[Element, DOMRect]> {
  // The first child whose bottom is below `top`.
  let low = 0;
  let high = children.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (children[middle].getBoundingClientRect().bottom < top) low = middle + 1;
    else high = middle;
  }
  for (let index = low; index < children.length; index++) {
    const box = children[index].getBoundingClientRect();
    if (box.top > bottom) return;
    yield [children[index], box];
  }
}
