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

  constructor(list: HTMLElement) {
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

  unwatch(message: MessageElement): void {
    if (!this.watched.delete(message.root)) return;
    this.observer.unobserve(message.root);
    this.near.delete(message);
  }

  private schedule(): void {
    if (this.scheduled || this.near.size === 0) return;
    this.scheduled = true;
    requestAnimationFrame(() => this.renderSome());
  }

  private renderSome(): void {
    this.scheduled = false;
    const started = performance.now();
    const nearestFirst = [...this.near].sort((a, b) => a[1] - b[1]).map(([message]) => message);
    for (const message of nearestFirst) {
      this.unwatch(message);
      message.render();
      if (performance.now() - started >= FRAME_BUDGET_MS) break;
    }
    this.schedule();
  }
}
