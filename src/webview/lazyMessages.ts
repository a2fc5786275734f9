import type { MessageElement } from './messageView';

/**
 * Long conversations open at once: only the latest answers are rendered when a conversation is shown
 * (`eagerFrom`, core/chat/snapshotParts.ts); the others wait as plain-text placeholders (messageView.ts) and are rendered when
 * they come within NEAR_PX of the visible part of the list, nearest first, a few per frame.
 *
 * Rendering a 5 MB conversation whole took seconds before its first paint (the one-shot render of
 * 1 MB of mixed markdown is ~1 s here); the placeholders cost a text node each, and off-screen
 * messages are not laid out (`content-visibility: auto`).
 */

/** How far outside the visible part of the list a message starts rendering (about two screens). */
const NEAR_PX = 1600;

/** A frame renders waiting messages until this much of its time is spent (always one at least). */
const FRAME_BUDGET_MS = 6;

export class LazyMessages {
  private readonly observer: IntersectionObserver;
  private readonly watched = new Map<Element, MessageElement>();
  /** Deferred messages within NEAR_PX, with their distance from the visible part when last seen. */
  private readonly near = new Map<MessageElement, number>();
  private scheduled = false;
  /**
   * The deferred message whose placeholder holds the selection (find-in-page put its match there):
   * not rendered while it does, which would drop the match's highlight.
   */
  private holdingSelection: MessageElement | undefined;

  constructor(private readonly list: HTMLElement) {
    document.addEventListener('selectionchange', () => this.followSelection());
    this.observer = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        const message = this.watched.get(entry.target);
        if (!message) continue;
        if (!entry.isIntersecting) {
          this.near.delete(message);
          continue;
        }
        const root = entry.rootBounds;
        const box = entry.boundingClientRect;
        this.near.set(message, root ? Math.max(0, root.top - box.bottom, box.top - root.bottom) : 0);
      }
      this.schedule();
    }, { root: list, rootMargin: `${NEAR_PX}px 0px` });
  }

  /** Renders `message` when it comes near the visible part, if it is deferred. */
  watch(message: MessageElement): void {
    if (!message.deferred) return;
    this.watched.set(message.root, message);
    this.observer.observe(message.root);
  }

  /** Renders `message` at once if it is deferred (it is about to be scrolled to). */
  renderNow(message: MessageElement): void {
    this.unwatch(message);
    message.render();
  }

  unwatch(message: MessageElement): void {
    if (!this.watched.delete(message.root)) return;
    this.observer.unobserve(message.root);
    this.near.delete(message);
  }

  /**
   * Find-in-page selects a match inside a placeholder but does not scroll to it: the message is off
   * screen and not laid out (`content-visibility: auto`). This lays that one message out and scrolls
   * the match to the middle of the list, and keeps the placeholder (and so the highlight) until the
   * selection leaves it.
   */
  private followSelection(): void {
    const selection = document.getSelection();
    const holder = selection?.focusNode?.parentElement?.closest('.md-placeholder')?.closest('.message');
    const message = holder ? this.watched.get(holder) : undefined;
    const previous = this.holdingSelection;
    this.holdingSelection = message;
    if (previous && previous !== message) {
      previous.root.style.removeProperty('content-visibility');
      this.schedule();
    }
    if (!message || !selection?.rangeCount || previous === message) return;
    message.root.style.setProperty('content-visibility', 'visible');
    const match = selection.getRangeAt(0).getBoundingClientRect();
    const list = this.list.getBoundingClientRect();
    this.list.scrollTop += match.top - list.top - (list.height - match.height) / 2;
  }

  private schedule(): void {
    if (this.scheduled || ![...this.near.keys()].some((message) => message !== this.holdingSelection)) return;
    this.scheduled = true;
    requestAnimationFrame(() => this.renderSome());
  }

  private renderSome(): void {
    this.scheduled = false;
    const started = performance.now();
    const nearestFirst = [...this.near].sort((a, b) => a[1] - b[1]).map(([message]) => message);
    for (const message of nearestFirst) {
      if (message === this.holdingSelection) continue;
      this.renderNow(message);
      if (performance.now() - started >= FRAME_BUDGET_MS) break;
    }
    this.schedule();
  }
}
