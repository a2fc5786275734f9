import type { MarkdownIt } from 'markdown-it';
import { decorateCodeBlocks } from '../codeBlocks';
import { el } from '../dom';
import { whenIdle, type FrameScheduler, type FrameTask } from '../frames';
import { IncrementalMarkdown } from './incremental';
import { appendCodeLines, closeFence, GROWING_FENCE } from './growingFence';
import { PendingSanitiser, tokensToFragment } from './pendingSanitiser';
import type { ContainerKind, RenderOp } from './renderOp';
import { lastTextHolder } from './provisionalText';
import { sanitizeRowsToFragment, sanitizeShellToFragment, sanitizeToFragment } from './sanitize';

/** A reference definition anywhere can change links in blocks already committed before it. */
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]\n]+\]:/m;

/**
 * Committed blocks go into segments of this many elements, each `content-visibility: auto`
 * (chat.css). Without them every frame of a stream laid out and walked the whole answer: the
 * frame floor (one character added) was ~30 ms with 1 MB on screen, ~3 ms in segments. The rule
 * depends only on the blocks' order, so a stream and a one-shot render build the same segments.
 */
const SEGMENT_ELEMENTS = 32;

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

interface OpenContainer {
  kind: ContainerKind;
  /** The container's top-level nodes (a fence's include its toolbar wrapper). */
  nodes: Node[];
  /** Where its children go: the list, the table body, the fence's <code>. */
  slot: Element;
}

/**
 * Renders one assistant answer while it streams, in time linear in its length: IncrementalMarkdown
 * decides what is final; this applies its operations to the DOM at most once per animation frame
 * however many appends arrived in between. New blocks show first from their tokens; what stays is
 * equal to the sanitiser's DOM, checked in idle time and when the answer ends (pendingSanitiser.ts).
 */
export class StreamingMarkdown implements FrameTask {
  readonly element: HTMLElement;
  private readonly tail: HTMLElement;
  private readonly engine: IncrementalMarkdown;
  private fullText = '';
  private final = false;
  private committedAny = false;
  /** The final text is rendered: nothing is left to do until the next reset. */
  private rendered = false;
  private container: OpenContainer | undefined;
  /** Provisional nodes inside the open container's slot (the root tail holds the others). */
  private provisional: Node[] = [];
  /** Committed pieces shown from their tokens, waiting for the sanitiser. */
  private readonly unsanitised = new PendingSanitiser<OpenContainer>();
  /** A full batch waits for idle time: its check changes no DOM when it passes, so no frame needs it. */
  private sanitiserCheckScheduled = false;
  /** Where the last cheap frame put its text (the next one goes right after it). */
  private lastProvisionalText: Text | undefined;
  /** Characters appended since the last frame. */
  private arrivedSinceFrame = 0;
  /** When the last append came, and how long after the one before it. */
  private lastAppendAt = -Infinity;
  private appendGapMs = Infinity;
  /** The unfinished part a fast frame did not show (FAST_FRAME_CHARS), and its stall timer. */
  private hiddenTail: { op: RenderOp; stall: ReturnType<typeof setTimeout> } | undefined;

  constructor(
    md: MarkdownIt,
    private readonly frames: FrameScheduler,
    /** Called with the plain text of newly committed blocks (for the screen-reader live region). */
    private readonly onCommitted: (text: string) => void = () => {},
  ) {
    this.engine = new IncrementalMarkdown(md);
    this.tail = el('div', { className: 'md-tail' });
    this.element = el('div', { className: 'markdown' }, [this.tail]);
  }

  get text(): string {
    return this.fullText;
  }

  append(text: string): void {
    if (!text) return;
    this.fullText += text;
    this.arrivedSinceFrame += text.length;
    const now = performance.now();
    this.appendGapMs = now - this.lastAppendAt;
    this.lastAppendAt = now;
    this.engine.append(text);
    this.frames.request(this);
  }

  /** Replaces everything (a snapshot, or a host correction); renders from scratch on the next frame. */
  reset(text: string, final: boolean): void {
    this.clear(text, final);
    this.frames.request(this);
  }

  private clear(text: string, final: boolean): void {
    for (const child of Array.from(this.element.childNodes)) if (child !== this.tail) child.remove();
    this.tail.replaceChildren();
    this.container = undefined;
    this.provisional = [];
    this.lastProvisionalText = undefined;
    this.forgetHiddenTail();
    this.arrivedSinceFrame = 0;
    this.lastAppendAt = -Infinity;
    this.appendGapMs = Infinity;
    this.unsanitised.clear();
    this.committedAny = false;
    this.rendered = false;
    this.fullText = text;
    this.final = final;
    this.engine.reset(text);
  }

  finish(): void {
    this.final = true;
    this.frames.request(this);
  }

  renderFrame(): void {
    if (this.rendered) return;
    if (this.final && this.committedAny && REFERENCE_DEFINITION.test(this.fullText)) {
      // Rare: re-render the whole answer once so references resolve exactly as a one-shot render.
      this.clear(this.fullText, true);
    }
    const fast = this.arrivedSinceFrame >= FAST_FRAME_CHARS && this.appendGapMs < STALL_MS;
    this.arrivedSinceFrame = 0;
    const ops = this.engine.update(this.final);
    this.rendered = this.final;
    // Nothing new (the stall timer's frame), or text for the unfinished part: it shows first.
    if (!ops.length) return this.showHiddenTail();
    if (ops.length === 1 && ops[0].op === 'tailText') {
      this.showHiddenTail();
      return this.appendProvisionalText(ops[0].text);
    }
    this.removeProvisional();
    const tail = ops[ops.length - 1];
    const hide = fast && !this.final && tail.op === 'tail' && hasContent(tail) && this.engine.openChars <= HIDDEN_TAIL_MAX_CHARS;
    const committed: Node[] = [];
    for (const op of hide ? ops.slice(0, -1) : ops) this.apply(op, committed);
    if (hide) this.hiddenTail = { op: tail, stall: setTimeout(() => this.frames.request(this), STALL_MS) };
    if (committed.length) {
      this.committedAny = true;
      this.onCommitted(committed.map((n) => n.textContent ?? '').join(' ').trim());
    }
    if (this.final) this.unsanitised.flush();
    else if (this.unsanitised.full && !this.sanitiserCheckScheduled) {
      this.sanitiserCheckScheduled = true;
      whenIdle(() => {
        this.sanitiserCheckScheduled = false;
        this.unsanitised.flush();
      });
    }
  }

  private apply(op: RenderOp, committed: Node[]): void {
    switch (op.op) {
      case 'append': {
        if (!op.html) return;
        const rows = this.container?.kind === 'table';
        // While streaming, shown from its tokens now (never code: nothing to decorate) and sanitised with the next batch.
        const fromTokens = op.tokens !== undefined && !this.final;
        const fragment = fromTokens ? tokensToFragment(op.tokens ?? []) : rows ? sanitizeRowsToFragment(op.html) : sanitizeToFragment(op.html);
        const nodes = Array.from(fragment.childNodes);
        if (fromTokens && nodes.length) this.unsanitised.add(op.html, nodes, rows, this.container);
        if (!fromTokens && this.container?.kind !== 'fence') decorateCodeBlocks(nodes);
        if (this.container?.kind === 'fence') appendCodeLines(this.container.slot, fragment);
        else if (this.container) this.container.slot.append(fragment);
        else this.place(fragment);
        if (this.container?.kind !== 'fence') committed.push(...nodes);
        return;
      }
      case 'open': {
        const fragment = sanitizeShellToFragment(op.prefix + op.suffix);
        decorateCodeBlocks(Array.from(fragment.childNodes));
        // After decoration: a fence's top node is its toolbar wrapper.
        const nodes = Array.from(fragment.childNodes);
        const top = fragment.firstElementChild;
        const slot = op.kind === 'list' ? top : top?.querySelector(op.kind === 'table' ? 'tbody' : 'code');
        this.place(fragment);
        // A sanitiser that refused the container would leave no slot: render its children in the answer.
        this.container = slot ? { kind: op.kind, nodes, slot } : undefined;
        if (this.container?.kind === 'fence') (top as Element).classList.add(GROWING_FENCE);
        return;
      }
      case 'close':
        if (this.container?.kind === 'fence') closeFence(this.container.slot, this.container.nodes[0] as Element);
        this.container = undefined;
        return;
      case 'discard':
        for (const node of this.container?.nodes ?? []) node.parentNode?.removeChild(node);
        this.unsanitised.drop(this.container);
        this.container = undefined;
        return;
      case 'tail': {
        const inSlot = this.container?.slot;
        const inner = op.text !== undefined ? document.createTextNode(op.text) : op.tokens?.length ? tokensToFragment(op.tokens) : undefined;
        if (inSlot) {
          if (inner) {
            this.provisional = inner instanceof DocumentFragment ? Array.from(inner.childNodes) : [inner];
            inSlot.append(inner);
          }
          if (op.after?.length) this.tail.replaceChildren(tokensToFragment(op.after));
        } else if (inner) {
          this.tail.replaceChildren(inner);
        }
        return;
      }
      case 'tailText':
        return this.appendProvisionalText(op.text);
    }
  }

  /** Puts committed top-level nodes at the end of the answer, in segments (SEGMENT_ELEMENTS). */
  private place(fragment: DocumentFragment): void {
    for (const node of Array.from(fragment.childNodes)) {
      let segment = this.tail.previousElementSibling;
      if (!segment || (node.nodeType === Node.ELEMENT_NODE && segment.childElementCount >= SEGMENT_ELEMENTS)) {
        segment = el('div', { className: 'md-segment' });
        this.element.insertBefore(segment, this.tail);
      }
      segment.appendChild(node);
    }
  }

  private showHiddenTail(): void {
    const hidden = this.hiddenTail;
    this.forgetHiddenTail();
    if (hidden) this.apply(hidden.op, []);
  }

  private forgetHiddenTail(): void {
    if (this.hiddenTail) clearTimeout(this.hiddenTail.stall);
    this.hiddenTail = undefined;
  }

  private removeProvisional(): void {
    this.lastProvisionalText = undefined;
    this.forgetHiddenTail();
    for (const node of this.provisional) node.parentNode?.removeChild(node);
    this.provisional = [];
    this.tail.replaceChildren();
  }

  /**
   * Cheap frame: new text goes at the end of the provisional rendering until the next parse, as a
   * text node of its own: Chromium lays out a new short text node several times faster than a text
   * node that grew (appendData on a painted node cost ~180 µs a frame, a new node ~25 µs).
   */
  private appendProvisionalText(text: string): void {
    const node = document.createTextNode(text);
    let after = this.lastProvisionalText;
    if (!after) {
      // At the visual end: the container's provisional item or row (a fence's provisional lines),
      // unless the root tail shows what follows the container; else the root tail itself (a new
      // row or item shows as text below the container until the next parse).
      const inContainer = this.tail.hasChildNodes() ? undefined
        : this.provisional.findLast((n) => n.nodeType === Node.ELEMENT_NODE) ?? (this.container?.kind === 'fence' ? this.provisional[0] : undefined);
      const holder = lastTextHolder(inContainer ?? this.tail);
      if (holder.nodeType === Node.TEXT_NODE) after = holder as Text;
      else holder.appendChild(node);
    }
    if (after) {
      after.after(node);
      // A sibling of a provisional node in the container's slot is provisional too (a fence's lines).
      if (this.provisional.includes(after)) this.provisional.push(node);
    }
    this.lastProvisionalText = node;
  }
}

function hasContent(tail: RenderOp & { op: 'tail' }): boolean {
  return Boolean(tail.text || tail.tokens?.length || tail.after?.length);
}
