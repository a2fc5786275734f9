import { decorateCodeBlocks } from '../codeBlocks';
import { el } from '../../shared/dom';
import { whenIdle } from '../frames';
import { appendCodeLines, closeFence, GROWING_FENCE } from './growingFence';
import { highlightedToFragment, PendingSanitiser, tokensToFragment } from './pendingSanitiser';
import type { ContainerKind, RenderOp } from './renderOp';
import { lastTextHolder } from './provisionalText';
import { sanitizeRowsToFragment, sanitizeShellToFragment, sanitizeToFragment } from './sanitize';

/**
 * Committed blocks go into segments of this many elements, each `content-visibility: auto`
 * (chat.css). Without them every frame of a stream laid out and walked the whole answer: the
 * frame floor (one character added) was ~30 ms with 1 MB on screen, ~3 ms in segments. The rule
 * depends only on the blocks' order, so a stream and a one-shot render build the same segments.
 */
const SEGMENT_ELEMENTS = 32;

/**
 * A segment's blocks sit in parts of this many elements, each `content-visibility: auto` too: an
 * answer coming into view is laid out a part at a time as its parts come near, not whole (a 20 KB
 * answer, ~3,000 px, cost one scrolled frame 20–40 ms here). Parts inside a segment that is
 * skipped are not checked against the viewport, so a 1 MB answer adds the few parts of the
 * segments in view to the checks Chromium runs per frame, not all ~400.
 */
const PART_ELEMENTS = 8;

/**
 * From this many segments an answer's segments skip layout and paint on their own (`segmented`,
 * chat.css); a shorter answer is skipped whole with its message, and a segment that can be skipped
 * costs Chromium an intersection check on every scrolled frame.
 */
const SEGMENTED_FROM = 3;

interface OpenContainer {
  kind: ContainerKind;
  /** The container's top-level nodes (a fence's include its toolbar wrapper). */
  nodes: Node[];
  /** Where its children go: the list, the table body, the fence's <code>. */
  slot: Element;
}

/**
 * The DOM of one rendered answer, the half of StreamingMarkdown that touches the document: it
 * applies IncrementalMarkdown's operations, placing committed blocks in segments, growing the open
 * container (list, table, fence) and showing the unfinished part provisionally after them. New
 * blocks show first from their tokens; what stays is equal to the sanitiser's DOM, checked in idle
 * time and when the answer ends (pendingSanitiser.ts).
 */
export class AnswerDom {
  readonly element: HTMLElement;
  readonly #tail: HTMLElement;
  #container: OpenContainer | undefined;
  /** Provisional nodes inside the open container's slot (the root tail holds the others). */
  #provisional: Node[] = [];
  /** Committed pieces shown from their tokens, waiting for the sanitiser. */
  readonly #unsanitised = new PendingSanitiser<OpenContainer>();
  /** A full batch waits for idle time: its check changes no DOM when it passes, so no frame needs it. */
  #sanitiserCheckScheduled = false;
  /** Where the last cheap frame put its text (the next one goes right after it). */
  #lastProvisionalText: Text | undefined;

  constructor() {
    this.#tail = el('div', { className: 'md-tail' });
    this.element = el('div', { className: 'markdown' }, [this.#tail]);
  }

  /** Removes everything rendered so far. */
  clear(): void {
    for (const child of Array.from(this.element.childNodes)) if (child !== this.#tail) child.remove();
    this.element.classList.remove('segmented');
    this.#tail.replaceChildren();
    this.#container = undefined;
    this.#provisional = [];
    this.#lastProvisionalText = undefined;
    this.#unsanitised.clear();
  }

  /**
   * Applies one operation; committed top-level nodes are added to `committed`. While `streaming`,
   * new blocks show from their tokens and are sanitised later (sanitise()).
   */
  apply(op: RenderOp, committed: Node[], streaming: boolean): void {
    switch (op.op) {
      case 'append': {
        if (!op.html) return;
        const rows = this.#container?.kind === 'table';
        const fence = this.#container?.kind === 'fence';
        // While streaming, built now from its tokens (never code: nothing to decorate) or a fence's
        // highlighted lines, and checked against the sanitiser's DOM with the next batch.
        const built = !streaming ? undefined : op.tokens ? tokensToFragment(op.tokens) : fence ? highlightedToFragment(op.html) : undefined;
        const fragment = built ?? (rows ? sanitizeRowsToFragment(op.html) : sanitizeToFragment(op.html));
        const nodes = Array.from(fragment.childNodes);
        if (built && nodes.length) this.#unsanitised.add(op.html, nodes, rows, this.#container);
        if (!built && !fence) decorateCodeBlocks(nodes);
        if (this.#container?.kind === 'fence') appendCodeLines(this.#container.slot, fragment);
        else if (this.#container) this.#container.slot.append(fragment);
        else this.#place(fragment);
        if (this.#container?.kind !== 'fence') committed.push(...nodes);
        return;
      }
      case 'open': {
        const fragment = sanitizeShellToFragment(op.prefix + op.suffix);
        decorateCodeBlocks(Array.from(fragment.childNodes));
        // After decoration: a fence's top node is its toolbar wrapper.
        const nodes = Array.from(fragment.childNodes);
        const top = fragment.firstElementChild;
        const slot = op.kind === 'list' ? top : top?.querySelector(op.kind === 'table' ? 'tbody' : 'code');
        this.#place(fragment);
        // A sanitiser that refused the container would leave no slot: render its children in the answer.
        this.#container = slot ? { kind: op.kind, nodes, slot } : undefined;
        if (this.#container?.kind === 'fence') (top as Element).classList.add(GROWING_FENCE);
        return;
      }
      case 'close':
        if (this.#container?.kind === 'fence') closeFence(this.#container.slot, this.#container.nodes[0] as Element);
        this.#container = undefined;
        return;
      case 'discard':
        for (const node of this.#container?.nodes ?? []) node.parentNode?.removeChild(node);
        this.#unsanitised.drop(this.#container);
        this.#container = undefined;
        return;
      case 'tail': {
        const inSlot = this.#container?.slot;
        const inner = op.text !== undefined ? document.createTextNode(op.text) : op.tokens?.length ? tokensToFragment(op.tokens) : undefined;
        if (inSlot) {
          if (inner) {
            this.#provisional = inner instanceof DocumentFragment ? Array.from(inner.childNodes) : [inner];
            inSlot.append(inner);
          }
          if (op.after?.length) this.#tail.replaceChildren(tokensToFragment(op.after));
        } else if (inner) {
          this.#tail.replaceChildren(inner);
        }
        return;
      }
      case 'tailText':
        return this.appendProvisionalText(op.text);
    }
  }

  /**
   * Checks the blocks shown from their tokens against the sanitiser: now when the answer ended,
   * else in idle time once a batch is due.
   */
  sanitise(now: boolean): void {
    if (now) this.#unsanitised.flush();
    else if (this.#unsanitised.due && !this.#sanitiserCheckScheduled) {
      this.#sanitiserCheckScheduled = true;
      whenIdle(() => {
        this.#sanitiserCheckScheduled = false;
        this.#unsanitised.flush();
      });
    }
  }

  /** Puts committed top-level nodes at the end of the answer, in parts (PART_ELEMENTS) of segments (SEGMENT_ELEMENTS). */
  #place(fragment: DocumentFragment): void {
    for (const node of Array.from(fragment.childNodes)) {
      let segment = this.#tail.previousElementSibling;
      let part = segment?.lastElementChild;
      if (!segment || !part || (node.nodeType === Node.ELEMENT_NODE && part.childElementCount >= PART_ELEMENTS)) {
        if (!segment || segment.childElementCount * PART_ELEMENTS >= SEGMENT_ELEMENTS) {
          segment = el('div', { className: 'md-segment' });
          this.element.insertBefore(segment, this.#tail);
          // The segments and the tail.
          if (this.element.childElementCount > SEGMENTED_FROM) this.element.classList.add('segmented');
        }
        part = el('div', { className: 'md-part' });
        segment.appendChild(part);
      }
      part.appendChild(node);
    }
  }

  removeProvisional(): void {
    this.#lastProvisionalText = undefined;
    for (const node of this.#provisional) node.parentNode?.removeChild(node);
    this.#provisional = [];
    this.#tail.replaceChildren();
  }

  /**
   * Cheap frame: new text goes at the end of the provisional rendering until the next parse, as a
   * text node of its own: Chromium lays out a new short text node several times faster than a text
   * node that grew (appendData on a painted node cost ~180 µs a frame, a new node ~25 µs).
   */
  appendProvisionalText(text: string): void {
    const node = document.createTextNode(text);
    let after = this.#lastProvisionalText;
    if (!after) {
      // At the visual end: the container's provisional item or row (a fence's provisional lines),
      // unless the root tail shows what follows the container; else the root tail itself (a new
      // row or item shows as text below the container until the next parse).
      const inContainer = this.#tail.hasChildNodes() ? undefined
        : this.#provisional.findLast((n) => n.nodeType === Node.ELEMENT_NODE) ?? (this.#container?.kind === 'fence' ? this.#provisional[0] : undefined);
      const holder = lastTextHolder(inContainer ?? this.#tail);
      if (holder.nodeType === Node.TEXT_NODE) after = holder as Text;
      else holder.appendChild(node);
    }
    if (after) {
      after.after(node);
      // A sibling of a provisional node in the container's slot is provisional too (a fence's lines).
      if (this.#provisional.includes(after)) this.#provisional.push(node);
    }
    this.#lastProvisionalText = node;
  }
}
