const STICK_TO_BOTTOM_PX = 48;

/**
 * Keeps a scrolling list at its bottom while content grows there, until the user scrolls up.
 *
 * The scroll happens in a ResizeObserver callback, which the browser runs after its own layout of
 * the frame: reading the height there costs nothing, where reading `scrollHeight` in the frame's
 * render callback forced a second, synchronous layout of the whole conversation on every frame.
 * While following, the browser's scroll anchoring is off (`following` class): it searched the
 * conversation for an anchor node on every frame only for this class to scroll away from it; once
 * the user scrolls up it is on again, so that what they read stays put while blocks above them
 * (rendered lazily, see `content-visibility` in chat.css) change height.
 */
export class BottomFollower {
  #following = true;
  /**
   * Released (a message was revealed) and not yet scrolled away from the bottom: the scroll event of
   * an earlier automatic scroll to the bottom can arrive after the release, and must not read as the
   * user returning to the bottom.
   */
  #releasedAtBottom = false;
  /** Where the last automatic scroll put the list. */
  #autoScrollTop = 0;
  readonly #resize: ResizeObserver;
  /**
   * The messages whose growth is followed. Observed only while following: Chromium checks every
   * observed element's size on each frame (~0.5 ms a scrolled frame with the ~900 messages of a 5 MB
   * conversation), for a callback that does nothing once the user has scrolled up.
   */
  readonly #watched = new Set<Element>();

  readonly #list: HTMLElement;

  constructor(list: HTMLElement) {
    this.#list = list;
    list.classList.add('following');
    list.addEventListener('scroll', () => {
      const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < STICK_TO_BOTTOM_PX;
      if (this.#releasedAtBottom) {
        this.#releasedAtBottom = atBottom;
        return;
      }
      // The scroll event of our own scroll can arrive after more content did: only scrolling up
      // (above where we put it) means the user left the bottom.
      this.#setFollowing(atBottom || (this.#following && list.scrollTop >= this.#autoScrollTop));
    });
    this.#resize = new ResizeObserver(() => this.#scrollToBottom());
    this.#resize.observe(list);
  }

  /** Follows the growth of `element` (a message) while it is in the list. */
  watch(element: Element): void {
    this.#watched.add(element);
    if (this.#following) this.#resize.observe(element);
  }

  unwatch(element: Element): void {
    this.#watched.delete(element);
    this.#resize.unobserve(element);
  }

  /** Back to the bottom (the user sent a message, or a new conversation was shown). */
  follow(): void {
    this.#releasedAtBottom = false;
    this.#setFollowing(true);
    requestAnimationFrame(() => this.#scrollToBottom());
  }

  /** Stops following: something else decides where the list is (a message was revealed). */
  release(): void {
    this.#releasedAtBottom = true;
    this.#setFollowing(false);
  }

  #scrollToBottom(): void {
    if (!this.#following) return;
    this.#list.scrollTop = this.#list.scrollHeight;
    this.#autoScrollTop = this.#list.scrollTop;
  }

  #setFollowing(following: boolean): void {
    if (following === this.#following) return;
    this.#following = following;
    this.#list.classList.toggle('following', following);
    for (const element of this.#watched) {
      if (following) this.#resize.observe(element);
      else this.#resize.unobserve(element);
    }
  }
}
