import type { MarkdownIt } from 'markdown-it';
import type { FrameScheduler, FrameTask } from '../frames';
import { AnswerDom } from './answerDom';
import { AnswerSlices } from './answerSlices';
import { IncrementalMarkdown } from './incremental';
import type { RenderOp } from './renderOp';

/** A reference definition anywhere can change links in blocks already committed before it. */
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]\n]+\]:/m;

/**
 * A frame that brings this many characters or more, less than STALL_MS after the append before,
 * is a fast model's (the host's batcher sends ~256 at a time, ~16 times a second), and the
 * unfinished block it ends with is usually finished by the next append, ~60 ms later. Rendering it
 * provisionally as well (built as DOM, then styled, laid out, shaped and painted by Chromium, only
 * to be replaced a frame later) was 15–20% of the renderer's main-thread CPU for a fast model's
 * mixed answer (a bundle that never showed it, 7 alternated rounds). So in such a frame an
 * unfinished part of up to HIDDEN_TAIL_MAX_CHARS is not shown: it shows with the next frame
 * (committed, or provisionally when that frame is not fast), or after STALL_MS when no text comes,
 * so a model that pauses never leaves text unseen for longer. A slow model's frames are never fast,
 * nor are a medium one's (its batches fill the batcher's 250 ms window: hiding would only show each
 * block STALL_MS late), and a longer unfinished part (a long paragraph) keeps growing on screen.
 */
const FAST_FRAME_CHARS = 128;
const HIDDEN_TAIL_MAX_CHARS = 1024;
const STALL_MS = 150;

/**
 * Renders one assistant answer while it streams, in time linear in its length: IncrementalMarkdown
 * decides what is final; this applies its operations to the DOM (answerDom.ts) at most once per
 * animation frame however many appends arrived in between.
 */
export class StreamingMarkdown implements FrameTask {
  readonly #dom = new AnswerDom();
  readonly #engine: IncrementalMarkdown;
  #fullText = '';
  #final = false;
  #committedAny = false;
  /** The final text is rendered: nothing is left to do until the next reset. */
  #rendered = false;
  /** Characters appended since the last frame. */
  #arrivedSinceFrame = 0;
  /** When the last append came, and how long after the one before it. */
  #lastAppendAt = -Infinity;
  #appendGapMs = Infinity;
  /** The unfinished part a fast frame did not show (FAST_FRAME_CHARS), and when it was hidden. */
  #hiddenTail: { op: RenderOp; at: number } | undefined;
  /**
   * One stall timer (STALL_MS) for all hidden parts: set when one is hidden and none runs, set again
   * when it fires before the latest one waited long enough. A timer set and cleared every frame was
   * 5% of a fast model's renderFrame.
   */
  #stallTimer: ReturnType<typeof setTimeout> | undefined;
  /** A final render a slice at a time (renderSlice), while it is built. */
  #slices: AnswerSlices | undefined;

  readonly #md: MarkdownIt;
  readonly #frames: FrameScheduler;
  /** Called with the plain text of newly committed blocks (for the screen-reader live region). */
  readonly #onCommitted: (text: string) => void;

  constructor(
    md: MarkdownIt,
    frames: FrameScheduler,
    onCommitted: (text: string) => void = () => {},
  ) {
    this.#md = md;
    this.#frames = frames;
    this.#onCommitted = onCommitted;
    this.#engine = new IncrementalMarkdown(md);
  }

  get element(): HTMLElement {
    return this.#dom.element;
  }

  get text(): string {
    return this.#fullText;
  }

  append(text: string): void {
    if (!text) return;
    this.#fullText += text;
    this.#arrivedSinceFrame += text.length;
    const now = performance.now();
    this.#appendGapMs = now - this.#lastAppendAt;
    this.#lastAppendAt = now;
    this.#engine.append(text);
    this.#frames.request(this);
  }

  /** Replaces everything (a snapshot, or a host correction); renders from scratch on the next frame. */
  reset(text: string, final: boolean): void {
    this.#clear(text, final);
    this.#frames.request(this);
  }

  #clear(text: string, final: boolean): void {
    this.#dom.clear();
    this.#forgetHiddenTail();
    this.#arrivedSinceFrame = 0;
    this.#lastAppendAt = -Infinity;
    this.#appendGapMs = Infinity;
    this.#slices = undefined;
    this.#committedAny = false;
    this.#rendered = false;
    this.#fullText = text;
    this.#final = final;
    this.#engine.reset(text);
  }

  finish(): void {
    this.#final = true;
    this.#frames.request(this);
  }

  renderFrame(): void {
    if (this.#rendered) return;
    if (this.#final && this.#committedAny && REFERENCE_DEFINITION.test(this.#fullText)) {
      // Rare: re-render the whole answer once so references resolve exactly as a one-shot render.
      this.#clear(this.#fullText, true);
    }
    const fast = this.#arrivedSinceFrame >= FAST_FRAME_CHARS && this.#appendGapMs < STALL_MS;
    this.#arrivedSinceFrame = 0;
    const ops = this.#engine.update(this.#final);
    this.#rendered = this.#final;
    // Nothing new (the stall timer's frame), or text for the unfinished part: it shows first.
    if (!ops.length) return this.#showHiddenTail();
    if (ops.length === 1 && ops[0].op === 'tailText') {
      this.#showHiddenTail();
      return this.#dom.appendProvisionalText(ops[0].text);
    }
    this.#forgetHiddenTail();
    this.#dom.removeProvisional();
    const tail = ops[ops.length - 1];
    const hide = fast && !this.#final && tail.op === 'tail' && hasContent(tail) && this.#engine.openChars <= HIDDEN_TAIL_MAX_CHARS;
    const committed: Node[] = [];
    for (const op of hide ? ops.slice(0, -1) : ops) this.#dom.apply(op, committed, !this.#final);
    if (hide) {
      this.#hiddenTail = { op: tail, at: performance.now() };
      this.#stallIn(STALL_MS);
    }
    this.#committed(committed);
    this.#dom.sanitise(this.#final);
  }

  /**
   * Renders the final `text` a slice at a time (answerSlices.ts) until `deadline` (a
   * `performance.now()` time; one slice at least); true once all of it is rendered. The first call
   * takes the text; a later call with another text starts again.
   */
  renderSlice(text: string, deadline: number): boolean {
    if (!this.#slices || this.#fullText !== text || !this.#final) {
      this.#clear(text, true);
      // Everything is committed here: text appended after this is new blocks, as after a stream.
      this.#engine.reset('');
      this.#rendered = true;
      this.#slices = new AnswerSlices(this.#md, text);
    }
    if (!this.#slices.renderUntil(this.#dom, deadline)) return false;
    this.#committed(this.#slices.committed);
    this.#slices = undefined;
    return true;
  }

  #committed(nodes: Node[]): void {
    if (!nodes.length) return;
    this.#committedAny = true;
    this.#onCommitted(nodes.map((n) => n.textContent ?? '').join(' ').trim());
  }

  #showHiddenTail(): void {
    const hidden = this.#hiddenTail;
    this.#forgetHiddenTail();
    if (hidden) this.#dom.apply(hidden.op, [], !this.#final);
  }

  /** Leaves the stall timer running: it finds nothing hidden and does nothing. */
  #forgetHiddenTail(): void {
    this.#hiddenTail = undefined;
  }

  #stallIn(ms: number): void {
    if (this.#stallTimer !== undefined) return;
    this.#stallTimer = setTimeout(() => {
      this.#stallTimer = undefined;
      if (!this.#hiddenTail) return;
      const wait = this.#hiddenTail.at + STALL_MS - performance.now();
      if (wait > 1) this.#stallIn(wait);
      else this.#frames.request(this);
    }, ms);
  }
}

function hasContent(tail: RenderOp & { op: 'tail' }): boolean {
  return Boolean(tail.text || tail.tokens?.length || tail.after?.length);
}
