import { el } from '../shared/dom';

const FLUSH_MS = 1200;
const MAX_CHARS = 600;

/**
 * A polite live region for streamed answers. Screen readers cannot follow a token stream, so we
 * announce whole committed blocks, coalesced to at most one announcement per ~second.
 */
export class LiveRegion {
  readonly element: HTMLElement;
  #queued: string[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    this.element = el('div', { className: 'sr-only', attrs: { role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true' } });
  }

  announce(text: string): void {
    const trimmed = text.trim();
    if (!trimmed) return;
    this.#queued.push(trimmed);
    this.#timer ??= setTimeout(() => this.#flush(), FLUSH_MS);
  }

  /** Announces now (status changes such as "Answer stopped" should not wait behind text). */
  announceNow(text: string): void {
    this.#flush();
    this.element.textContent = text;
  }

  #flush(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (!this.#queued.length) return;
    const text = this.#queued.join(' ');
    this.#queued = [];
    this.element.textContent = text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS)}…` : text;
  }
}
