/**
 * The "Answering…" icon of a streaming answer spins while the answer waits for text, and holds still
 * while text flows: the growing answer shows that it is alive, and a spinning icon is a frame drawn
 * all through the stream (the render benchmark's whole stream of 1 MB took 1.28x the browser's
 * reveal with it, 1.0x without; test/bench/README.md). After QUIET_SPIN_MS without text it spins
 * again, so a stream that stalls still shows that it is waiting.
 */
export const QUIET_SPIN_MS = 1000;

/** On the status line while text flows: media/chat.css stops the icon's animation under it. */
const TEXT_FLOWING_CLASS = 'text-flowing';

export class AnsweringMotion {
  readonly #status: HTMLElement;
  #lastTextAt = 0;
  /** One timer for the whole stream, set again only when it fires early: not one per append. */
  #quietTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(status: HTMLElement) {
    this.#status = status;
  }

  /** Text arrived: the icon holds still until QUIET_SPIN_MS pass without more. */
  textArrived(): void {
    this.#lastTextAt = performance.now();
    if (this.#quietTimer !== undefined) return;
    this.#status.classList.add(TEXT_FLOWING_CLASS);
    this.#quietTimer = setTimeout(() => this.#checkQuiet(), QUIET_SPIN_MS);
  }

  #checkQuiet(): void {
    const quietMs = performance.now() - this.#lastTextAt;
    if (quietMs < QUIET_SPIN_MS) {
      this.#quietTimer = setTimeout(() => this.#checkQuiet(), QUIET_SPIN_MS - quietMs);
      return;
    }
    this.#quietTimer = undefined;
    this.#status.classList.remove(TEXT_FLOWING_CLASS);
  }
}
