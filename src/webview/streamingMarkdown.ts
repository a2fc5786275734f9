import type { MarkdownIt } from 'markdown-it';
import { splitTail } from './blocks';
import { decorateCodeBlocks } from './codeBlocks';
import { el } from './dom';
import type { FrameScheduler, FrameTask } from './frames';
import { renderTokens } from './markdown';
import { sanitizeToFragment } from './sanitize';

/** A reference definition anywhere can change links in blocks already committed before it. */
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]\n]+\]:/m;

/**
 * Renders one assistant answer while it streams, in time linear in its length: finished markdown
 * blocks are rendered, sanitised and highlighted once and never touched again; only the open tail
 * is re-parsed, at most once per animation frame however many appends arrived in between.
 */
export class StreamingMarkdown implements FrameTask {
  readonly element: HTMLElement;
  private readonly tail: HTMLElement;
  private readonly committedParts: string[] = [];
  private tailText = '';
  private final = false;
  private hasReferences = false;

  constructor(
    private readonly md: MarkdownIt,
    private readonly frames: FrameScheduler,
    /** Called with the plain text of newly committed blocks (for the screen-reader live region). */
    private readonly onCommitted: (text: string) => void = () => {},
  ) {
    this.tail = el('div', { className: 'md-tail' });
    this.element = el('div', { className: 'markdown' }, [this.tail]);
  }

  get text(): string {
    return this.committedParts.join('') + this.tailText;
  }

  append(text: string): void {
    if (!text) return;
    this.tailText += text;
    this.frames.request(this);
  }

  /** Replaces everything (a snapshot, or a host correction); renders from scratch on the next frame. */
  reset(text: string, final: boolean): void {
    this.clear(text, final);
    this.frames.request(this);
  }

  private clear(text: string, final: boolean): void {
    for (const child of Array.from(this.element.childNodes)) if (child !== this.tail) child.remove();
    this.committedParts.length = 0;
    this.tailText = text;
    this.final = final;
    this.hasReferences = false;
  }

  finish(): void {
    this.final = true;
    this.frames.request(this);
  }

  renderFrame(): void {
    if (this.final && (this.hasReferences || REFERENCE_DEFINITION.test(this.tailText)) && this.committedParts.length) {
      // Rare: re-render the whole answer once so references resolve exactly as a one-shot render.
      this.clear(this.text, true);
    }
    const split = splitTail(this.md, this.tailText, this.final);
    if (split.finalLength > 0 || split.finalTokens.length > 0) {
      const html = renderTokens(this.md, split.finalTokens, { highlight: true });
      const fragment = sanitizeToFragment(html);
      const nodes = Array.from(fragment.childNodes);
      decorateCodeBlocks(nodes);
      this.element.insertBefore(fragment, this.tail);
      const committed = this.tailText.slice(0, split.finalLength);
      this.committedParts.push(committed);
      if (!this.final && REFERENCE_DEFINITION.test(committed)) this.hasReferences = true;
      this.tailText = this.tailText.slice(split.finalLength);
      this.onCommitted(nodes.map((n) => n.textContent ?? '').join(' ').trim());
    }
    const tailHtml = split.openTokens.length ? renderTokens(this.md, split.openTokens, { highlight: false }) : '';
    this.tail.replaceChildren(sanitizeToFragment(tailHtml));
  }
}
