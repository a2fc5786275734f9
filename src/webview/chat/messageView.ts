import * as l10n from '@vscode/l10n';
import type { MessagePatch, MessageView } from '../../core/chat/protocol/chatProtocol';
import { actionButton, codicon, el } from '../shared/dom';
import type { FrameScheduler } from './frames';
import type { MarkdownIt } from 'markdown-it';
import { StreamingMarkdown } from './markdown/streamingMarkdown';
import type { ImageThumbnails } from './imageThumbnails';
import { fillPlaceholder } from './placeholder';
import { attachmentList, cutAtLimit, errorCard, metaParts, statusLabel } from './messageChrome';
import { ComparisonColumns } from './comparisonColumns';
import { AnsweringMotion } from './answeringMotion';

export interface MessageContext {
  md: MarkdownIt;
  thumbnails: ImageThumbnails;
  frames: FrameScheduler;
  announce: (text: string) => void;
}

/** What a message element keeps of its view besides the text and the thinking, which it holds once (see `text`). */
type MessageFacts = Omit<MessageView, 'text' | 'reasoning'>;

/**
 * One message in the conversation, and the one holder of its text in the webview: an answer's
 * renderer holds it once rendered (StreamingMarkdown, which streamed appends go to), the element
 * itself until then (a user's message, an answer waiting for render()). The thinking lives in its
 * block's DOM. Assistant text goes through StreamingMarkdown; user text is plain.
 */
export class MessageElement {
  readonly root: HTMLElement;
  readonly #metaLine: HTMLElement;
  readonly #body: HTMLElement;
  readonly #status: HTMLElement;
  readonly #errorSlot: HTMLElement;
  readonly #actions: HTMLElement;
  /** Whether the status line's "Answering…" icon spins: not while text flows. */
  readonly #motion: AnsweringMotion;
  #markdown: StreamingMarkdown | undefined;
  /**
   * An answer not rendered yet (lazyMessages.ts): its text as plain text, so that find-in-page and a
   * selection see it, in a box of the rendered answer's estimated height; no chrome yet.
   */
  #placeholder: HTMLElement | undefined;
  /** A deferred answer's renderer while it is built off the page, a slice at a time (render). */
  #building: StreamingMarkdown | undefined;
  /** The collapsed Thinking block, made when the first thinking arrives. */
  #thinking: { root: HTMLDetailsElement; text: HTMLElement } | undefined;
  #facts: MessageFacts;
  /** The text while no renderer holds it: a user's message, or an answer waiting for render(). */
  #plainText: string | undefined;
  /** What the chrome was last asked to show (renderChrome). */
  #chrome = { isLast: false, busy: false };
  /** The answer ended and its last frame is pending: the chrome waits for it (patch()). */
  #endingFrame = false;
  /** A deferred answer's estimated height in px (its placeholder's), for its chunk's (messageChunks.ts). */
  placeholderHeight: number | undefined;
  /** A comparison turn's columns (comparisonColumns.ts): the turn has no text of its own. */
  readonly #comparison: ComparisonColumns | undefined;

  readonly #ctx: MessageContext;

  /** With `deferred`, an answer's markdown is rendered only by render() (off-screen answers of a long conversation). */
  constructor(view: MessageView, ctx: MessageContext, deferred = false) {
    this.#ctx = ctx;
    const { text, reasoning, ...facts } = view;
    this.#facts = facts;
    const assistant = view.role === 'assistant';
    const comparison = assistant && view.comparison ? view.comparison : undefined;
    this.#metaLine = el('span', { className: 'message-meta' });
    const header = el('div', { className: 'message-header' }, [
      codicon(comparison ? 'split-horizontal' : assistant ? 'sparkle' : 'account'),
      el('span', { className: 'message-role', text: comparison ? l10n.t('Comparison') : assistant ? l10n.t('Assistant') : l10n.t('You') }),
      this.#metaLine,
    ]);
    this.#body = el('div', { className: 'message-body' });
    this.#status = el('div', { className: 'message-status' });
    this.#motion = new AnsweringMotion(this.#status);
    this.#errorSlot = el('div', { className: 'message-error' });
    this.#actions = el('div', { className: 'message-actions', attrs: { role: 'toolbar', 'aria-label': l10n.t('Message actions') } });
    this.root = el('article', {
      className: `message role-${view.role}`,
      attrs: { 'data-message-id': view.id, 'aria-label': assistant ? l10n.t('Assistant message') : l10n.t('Your message') },
    }, [header, this.#body, this.#status, this.#errorSlot, this.#actions]);
    if (comparison) {
      // Rendered at once, deferred or not: its columns are a few answers side by side, not one long text.
      this.#comparison = new ComparisonColumns({ ...view, comparison }, ctx);
      this.root.classList.add('is-comparison');
      this.#body.append(this.#comparison.root);
    } else if (assistant) {
      if (deferred && view.status !== 'streaming') this.#showPlaceholder(text);
      else this.#startMarkdown(text);
      if (reasoning) this.#thinkingBlock().text.textContent = reasoning;
    } else {
      this.#plainText = text;
      this.#body.append(el('div', { className: 'user-text', text }), attachmentList(view.attachments, this.#ctx.thumbnails));
    }
    this.renderChrome(false, false);
  }

  get id(): string {
    return this.#facts.id;
  }

  get role(): MessageView['role'] {
    return this.#facts.role;
  }

  get meta(): MessageView['meta'] {
    return this.#facts.meta;
  }

  /** An answer whose markdown waits for render(). */
  get deferred(): boolean {
    return this.#placeholder !== undefined;
  }

  /**
   * Renders a deferred answer: its markdown is built off the page until `deadline` (a
   * `performance.now()` time; by default in one go), the rest on later calls; true once it is shown.
   * Until then the placeholder stays, so find-in-page, a selection and the layout see the whole answer
   * as before, and the text stays in `plainText`: the renderer holds it only once it is shown. The
   * same DOM as when it was never deferred.
   */
  render(deadline = Infinity): boolean {
    if (!this.#placeholder) return true;
    if (this.streaming) {
      // Rendered as it streams, so that the appends have a renderer to go to.
      this.#building = undefined;
      this.#startMarkdown(this.#plainText ?? '').renderFrame();
    } else {
      this.#building ??= this.#newMarkdown();
      if (!this.#building.renderSlice(this.#plainText ?? '', deadline)) return false;
      this.#markdown = this.#building;
      this.#building = undefined;
      this.#plainText = undefined;
      this.#body.append(this.#markdown.element);
    }
    // The estimate stays: until the browser lays the answer out (it may still be off screen), its
    // `auto` size is that estimate; after, the size it was laid out at.
    this.#placeholder.remove();
    this.#placeholder = undefined;
    this.renderChrome(this.#chrome.isLast, this.#chrome.busy);
    return true;
  }

  /** Hands the text to a new renderer, which holds it from now on. */
  #startMarkdown(text: string): StreamingMarkdown {
    const markdown = this.#newMarkdown();
    this.#markdown = markdown;
    this.#plainText = undefined;
    this.#body.append(markdown.element);
    markdown.reset(text, this.#facts.status !== 'streaming');
    return markdown;
  }

  #newMarkdown(): StreamingMarkdown {
    return new StreamingMarkdown(this.#ctx.md, this.#ctx.frames, (committed) => {
      if (this.#facts.status === 'streaming') this.#ctx.announce(committed);
    });
  }

  #showPlaceholder(text: string): void {
    if (this.#placeholder && this.#plainText === text) return;
    this.#plainText = text;
    // A build under way was of the text before.
    this.#building = undefined;
    if (!this.#placeholder) {
      this.#placeholder = el('div', { className: 'md-placeholder' });
      this.#body.append(this.#placeholder);
    }
    this.placeholderHeight = fillPlaceholder(this.#placeholder, text);
    this.root.style.setProperty('contain-intrinsic-size', `auto ${this.placeholderHeight}px`);
  }

  get streaming(): boolean {
    return this.#facts.status === 'streaming';
  }

  /** The text as received so far (what Copy copies, what Edit starts from). */
  get text(): string {
    return this.#markdown?.text ?? this.#plainText ?? '';
  }

  append(text: string): void {
    this.#markdown?.append(text);
    this.#motion.textArrived();
  }

  /** A comparison turn (its columns hold the answers). */
  get comparison(): boolean {
    return this.#comparison !== undefined;
  }

  /** Streamed text of one of a comparison's columns (its index in the turn). */
  appendColumn(index: number, text: string, reasoning: boolean): void {
    this.#comparison?.append(index, text, reasoning);
  }

  /** A comparison column's text as received so far; undefined when this turn has no such column. */
  columnText(columnId: string): string | undefined {
    return this.#comparison?.textOf(columnId);
  }

  /** A comparison column's end (or any change but its text); returns its model when it ended. */
  patchColumn(columnId: string, patch: MessagePatch): string | undefined {
    const ended = this.#comparison?.patchColumn(columnId, patch);
    this.renderChrome(this.#chrome.isLast, this.#chrome.busy);
    return ended;
  }

  /** The model's thinking so far; not part of the answer (Copy leaves it out). */
  get reasoning(): string | undefined {
    return this.#thinking?.text.textContent ?? undefined;
  }

  appendReasoning(text: string): void {
    this.#thinkingBlock().text.append(text);
    this.#motion.textArrived();
  }

  /**
   * Thinking is shown as plain text (never rendered as markup), collapsed by default, above the
   * answer, so that reading the answer and copying it are not disturbed by it.
   */
  #thinkingBlock(): { root: HTMLDetailsElement; text: HTMLElement } {
    if (!this.#thinking) {
      const text = el('div', { className: 'thinking-text' });
      const root = el('details', { className: 'thinking' }, [el('summary', { text: l10n.t('Thinking') }), text]);
      this.#body.prepend(root);
      this.#thinking = { root, text };
    }
    return this.#thinking;
  }

  /** The whole message again (the host's upsert): its text replaces what this element holds when it differs. */
  update(view: MessageView, isLast: boolean, busy: boolean): void {
    const { text, reasoning, ...facts } = view;
    const wasStreaming = this.streaming;
    this.#facts = facts;
    if (this.#comparison) {
      this.#comparison.update(view);
    } else if (this.#placeholder && !this.streaming) {
      this.#showPlaceholder(text);
    } else if (this.#placeholder) {
      // It streams: rendered now, so that the appends have a renderer to go to.
      this.#plainText = text;
      this.render();
    } else if (this.#markdown) {
      // A finished answer that streams again (Continue) takes the appends from where its text ends.
      if (this.#markdown.text !== text || (!wasStreaming && this.streaming)) this.#markdown.reset(text, !this.streaming);
      else if (wasStreaming && !this.streaming) this.#markdown.finish();
    } else {
      this.#plainText = text;
      this.#body.replaceChildren(el('div', { className: 'user-text', text }), attachmentList(view.attachments, this.#ctx.thumbnails));
    }
    if (this.role === 'assistant' && reasoning !== undefined && this.reasoning !== reasoning) this.#thinkingBlock().text.textContent = reasoning;
    this.renderChrome(isLast, busy);
  }

  /**
   * The end of an answer (the host's patch): status, meta and error change; the text is what the
   * appends built. Its chrome changes in the frame that renders its last words, after them.
   */
  patch(patch: MessagePatch, isLast: boolean, busy: boolean): void {
    const wasStreaming = this.streaming;
    this.#facts = { ...this.#facts, status: patch.status, meta: patch.meta, error: patch.error };
    this.#comparison?.patchTurn(patch);
    if (wasStreaming && !this.streaming && this.#markdown) {
      this.#markdown.finish();
      this.#endingFrame = true;
      this.#ctx.frames.request({
        renderFrame: () => {
          this.#endingFrame = false;
          this.renderChrome(this.#chrome.isLast, this.#chrome.busy);
        },
      });
    }
    this.renderChrome(isLast, busy);
  }

  renderChrome(isLast: boolean, busy: boolean): void {
    this.#chrome = { isLast, busy };
    // A deferred answer is off screen: its header, status and buttons are built with its markdown.
    if (this.#placeholder || this.#endingFrame) return;
    const view = this.#facts;
    if (this.#comparison) {
      // Its total is in its own bar; each column has its model, figures and buttons.
      this.#metaLine.replaceChildren(...metaParts(undefined, view.meta?.finishedAt ?? view.createdAt));
      this.#comparison.render(isLast && !busy);
      return;
    }
    this.#metaLine.replaceChildren(...metaParts(view.meta, view.createdAt));
    const cut = view.status === 'done' && view.meta?.finishReason === 'length';
    const status = cut ? cutAtLimit() : statusLabel(view.status);
    this.#status.replaceChildren(...(status ? [codicon(status.icon), el('span', { text: status.text })] : []));
    this.#status.hidden = !status;
    this.root.classList.toggle('is-stopped', view.status === 'stopped' || view.status === 'interrupted' || cut);
    this.#errorSlot.replaceChildren(...(view.error ? [errorCard(view.error)] : []));
    const buttons: HTMLElement[] = [];
    if (view.role === 'assistant' && view.status !== 'streaming' && this.text) buttons.push(actionButton('copyAnswer', 'copy', l10n.t('Copy answer')));
    if (view.role === 'assistant' && isLast && !busy) buttons.push(actionButton('regenerate', 'refresh', l10n.t('Regenerate')));
    if (view.role === 'user' && isLast && !busy) buttons.push(actionButton('editLast', 'edit', l10n.t('Edit and resend')));
    this.#actions.replaceChildren(...buttons);
  }
}
