import * as l10n from '@vscode/l10n';
import { answerDetails } from '../core/chat/answerDetails';
import type { AnswerMeta, AttachmentView, ErrorCardView, MessageView } from '../core/chat/chatProtocol';
import { formatCredits, SPEND_DIGITS } from '../core/credits';
import { actionButton, codicon, el } from './dom';
import type { FrameScheduler } from './frames';
import type { MarkdownIt } from 'markdown-it';
import { StreamingMarkdown } from './markdown/streamingMarkdown';
import { attachmentChip } from './attachmentChips';
import type { ImageThumbnails } from './imageThumbnails';

export interface MessageContext {
  md: MarkdownIt;
  thumbnails: ImageThumbnails;
  frames: FrameScheduler;
  announce: (text: string) => void;
}

type StatusLabel = { icon: string; text: string };

/** Built when shown, not at module load: the bundle is configured after the modules are loaded. */
function statusLabel(status: MessageView['status']): StatusLabel | undefined {
  switch (status) {
    case 'streaming': return { icon: 'loading codicon-modifier-spin', text: l10n.t('Answering…') };
    case 'stopped': return { icon: 'debug-stop', text: l10n.t('Stopped — partial answer') };
    case 'interrupted': return { icon: 'warning', text: l10n.t('Interrupted — the answer may be incomplete') };
    default: return undefined;
  }
}

/**
 * One formatter for every message's time: `toLocaleTimeString` with options builds a new one per
 * call (V8 caches only the option-less form), which was most of a restored message's chrome.
 */
const TIME_OF_DAY = new Intl.DateTimeFormat([], { hour: '2-digit', minute: '2-digit' });

/** A complete answer the service cut at the conversation's (or the setting's) Max tokens. */
const cutAtLimit = (): StatusLabel => ({ icon: 'warning', text: l10n.t('Cut off at the Max tokens limit') });

/** One message in the conversation. Assistant text goes through StreamingMarkdown; user text is plain. */
export class MessageElement {
  readonly root: HTMLElement;
  private readonly meta: HTMLElement;
  private readonly body: HTMLElement;
  private readonly status: HTMLElement;
  private readonly errorSlot: HTMLElement;
  private readonly actions: HTMLElement;
  private markdown: StreamingMarkdown | undefined;
  /**
   * An answer not rendered yet (lazyMessages.ts): its text as plain text, so that find-in-page and a
   * selection see it, in a box of the rendered answer's estimated height; no chrome yet.
   */
  private placeholder: HTMLElement | undefined;
  /** The collapsed Thinking block, made when the first thinking arrives. */
  private thinking: { root: HTMLDetailsElement; text: HTMLElement } | undefined;
  private view: MessageView;
  /** What the chrome was last asked to show (renderChrome). */
  private chrome = { isLast: false, busy: false };

  /** With `deferred`, an answer's markdown is rendered only by render() (off-screen answers of a long conversation). */
  constructor(view: MessageView, private readonly ctx: MessageContext, deferred = false) {
    this.view = view;
    const assistant = view.role === 'assistant';
    this.meta = el('span', { className: 'message-meta' });
    const header = el('div', { className: 'message-header' }, [
      codicon(assistant ? 'sparkle' : 'account'),
      el('span', { className: 'message-role', text: assistant ? l10n.t('Assistant') : l10n.t('You') }),
      this.meta,
    ]);
    this.body = el('div', { className: 'message-body' });
    this.status = el('div', { className: 'message-status' });
    this.errorSlot = el('div', { className: 'message-error' });
    this.actions = el('div', { className: 'message-actions', attrs: { role: 'toolbar', 'aria-label': l10n.t('Message actions') } });
    this.root = el('article', {
      className: `message role-${view.role}`,
      attrs: { 'data-message-id': view.id, 'aria-label': assistant ? l10n.t('Assistant message') : l10n.t('Your message') },
    }, [header, this.body, this.status, this.errorSlot, this.actions]);
    if (assistant) {
      if (deferred && view.status !== 'streaming') this.showPlaceholder(view.text);
      else this.startMarkdown().reset(view.text, view.status !== 'streaming');
      if (view.reasoning) this.thinkingBlock().text.textContent = view.reasoning;
    } else {
      this.body.append(el('div', { className: 'user-text', text: view.text }), attachmentList(view.attachments, this.ctx.thumbnails));
    }
    this.renderChrome(false, false);
  }

  get id(): string {
    return this.view.id;
  }

  get role(): MessageView['role'] {
    return this.view.role;
  }

  /** An answer whose markdown waits for render(). */
  get deferred(): boolean {
    return this.placeholder !== undefined;
  }

  /** Renders a deferred answer now, in one go (the same DOM as when it was never deferred). */
  render(): void {
    if (!this.placeholder) return;
    this.placeholder.remove();
    this.placeholder = undefined;
    // The estimate stays: until the browser lays the answer out (it may still be off screen), its
    // `auto` size is that estimate; after, the size it was laid out at.
    const markdown = this.startMarkdown();
    markdown.reset(this.view.text, this.view.status !== 'streaming');
    markdown.renderFrame();
    this.renderChrome(this.chrome.isLast, this.chrome.busy);
  }

  private startMarkdown(): StreamingMarkdown {
    const markdown = new StreamingMarkdown(this.ctx.md, this.ctx.frames, (text) => {
      if (this.view.status === 'streaming') this.ctx.announce(text);
    });
    this.markdown = markdown;
    this.body.append(markdown.element);
    return markdown;
  }

  private showPlaceholder(text: string): void {
    if (!this.placeholder) {
      this.placeholder = el('div', { className: 'md-placeholder' });
      this.body.append(this.placeholder);
    }
    this.placeholder.textContent = text;
    this.root.style.setProperty('contain-intrinsic-size', `auto ${estimatedHeight(text)}px`);
  }

  get streaming(): boolean {
    return this.view.status === 'streaming';
  }

  /** The answer as received so far (what Copy copies). */
  get text(): string {
    return this.markdown ? this.markdown.text : this.view.text;
  }

  append(text: string): void {
    this.markdown?.append(text);
  }

  /** The model's thinking so far; not part of the answer (Copy leaves it out). */
  get reasoning(): string | undefined {
    return this.thinking?.text.textContent ?? undefined;
  }

  appendReasoning(text: string): void {
    this.thinkingBlock().text.append(text);
  }

  /**
   * Thinking is shown as plain text (never rendered as markup), collapsed by default, above the
   * answer, so that reading the answer and copying it are not disturbed by it.
   */
  private thinkingBlock(): { root: HTMLDetailsElement; text: HTMLElement } {
    if (!this.thinking) {
      const text = el('div', { className: 'thinking-text' });
      const root = el('details', { className: 'thinking' }, [el('summary', { text: l10n.t('Thinking') }), text]);
      this.body.prepend(root);
      this.thinking = { root, text };
    }
    return this.thinking;
  }

  update(view: MessageView, isLast: boolean, busy: boolean): void {
    const wasStreaming = this.view.status === 'streaming';
    this.view = view;
    if (this.placeholder && view.status === 'streaming') this.render();
    if (this.placeholder) {
      this.showPlaceholder(view.text);
      if (view.reasoning !== undefined && this.reasoning !== view.reasoning) this.thinkingBlock().text.textContent = view.reasoning;
    } else if (this.markdown) {
      const done = view.status !== 'streaming';
      if (this.markdown.text !== view.text) this.markdown.reset(view.text, done);
      else if (wasStreaming && done) this.markdown.finish();
      if (view.reasoning !== undefined && this.reasoning !== view.reasoning) this.thinkingBlock().text.textContent = view.reasoning;
    } else {
      this.body.replaceChildren(el('div', { className: 'user-text', text: view.text }), attachmentList(view.attachments, this.ctx.thumbnails));
    }
    this.renderChrome(isLast, busy);
  }

  renderChrome(isLast: boolean, busy: boolean): void {
    this.chrome = { isLast, busy };
    // A deferred answer is off screen: its header, status and buttons are built with its markdown.
    if (this.placeholder) return;
    const view = this.view;
    this.meta.replaceChildren(...metaParts(view.meta, view.createdAt));
    const cut = view.status === 'done' && view.meta?.finishReason === 'length';
    const status = cut ? cutAtLimit() : statusLabel(view.status);
    this.status.replaceChildren(...(status ? [codicon(status.icon), el('span', { text: status.text })] : []));
    this.status.hidden = !status;
    this.root.classList.toggle('is-stopped', view.status === 'stopped' || view.status === 'interrupted' || cut);
    this.errorSlot.replaceChildren(...(view.error ? [errorCard(view.error)] : []));
    const buttons: HTMLElement[] = [];
    if (view.role === 'assistant' && view.status !== 'streaming' && this.text) buttons.push(actionButton('copyAnswer', 'copy', l10n.t('Copy answer')));
    if (view.role === 'assistant' && isLast && !busy) buttons.push(actionButton('regenerate', 'refresh', l10n.t('Regenerate')));
    if (view.role === 'user' && isLast && !busy) buttons.push(actionButton('editLast', 'edit', l10n.t('Edit and resend')));
    this.actions.replaceChildren(...buttons);
  }
}

/**
 * What an answer's rendered height will roughly be, from its text alone (no layout): lines of the
 * panel's usual width plus the message's chrome. Only the scrollbar depends on it; a rendered answer
 * keeps its real height (`contain-intrinsic-size: auto`).
 */
function estimatedHeight(text: string): number {
  let lines = 0;
  for (let start = 0; start <= text.length;) {
    const end = text.indexOf('\n', start);
    const length = (end < 0 ? text.length : end) - start;
    lines += Math.max(1, Math.ceil(length / CHARACTERS_PER_LINE));
    if (end < 0) break;
    start = end + 1;
  }
  return MESSAGE_CHROME_PX + lines * LINE_PX;
}

const CHARACTERS_PER_LINE = 100;
const LINE_PX = 18;
const MESSAGE_CHROME_PX = 60;

function metaParts(meta: AnswerMeta | undefined, createdAt: number): Node[] {
  const parts: Node[] = [];
  const time = new Date(meta?.finishedAt ?? createdAt);
  parts.push(el('time', { text: TIME_OF_DAY.format(time), attrs: { datetime: time.toISOString() } }));
  if (meta?.model) parts.push(el('span', { className: 'meta-model', text: meta.model }));
  if (meta?.creditsSpent !== undefined) parts.push(el('span', { className: 'meta-credits', text: l10n.t('{0} credits', formatCredits(meta.creditsSpent, SPEND_DIGITS)) }));
  if (meta?.spendNotMeasured !== undefined) {
    const why = meta.spendNotMeasured === 'overlapped'
      ? l10n.t('Another request to this environment ran at the same time: the balance difference holds both, so neither is counted. The status bar shows the balance.')
      : l10n.t('No balance could be read before and after this answer (see the setting inference.chat.refreshBalanceAfterAnswer), so its cost is not known.');
    parts.push(el('span', { className: 'meta-credits-unknown', text: l10n.t('credits not measured'), attrs: { title: why } }));
  }
  for (const detail of answerDetails(meta)) {
    parts.push(el('span', { className: `meta-${detail.kind}`, text: detail.text, attrs: { title: detail.title } }));
  }
  if (meta?.requestId) {
    const title = meta.host ? l10n.t('Request ID {0}, served by {1}', meta.requestId, meta.host) : l10n.t('Request ID {0}', meta.requestId);
    parts.push(el('span', { className: 'meta-request', text: l10n.t('id {0}', meta.requestId.slice(0, 8)), attrs: { title } }));
  }
  return parts;
}

function attachmentList(attachments: AttachmentView[] | undefined, thumbnails: ImageThumbnails): HTMLElement {
  return el('div', { className: 'attachments' }, (attachments ?? []).map((a) => attachmentChip(a, thumbnails, false)));
}

function errorCard(error: ErrorCardView): HTMLElement {
  const actions = el('div', { className: 'error-actions' });
  for (const action of error.actions) {
    const button = el('button', {
      className: 'error-action',
      text: action.label,
      attrs: { type: 'button', 'data-action': 'errorAction', 'data-error-action': action.id },
    });
    actions.append(button);
  }
  return el('div', { className: 'error-card', attrs: { role: 'alert', 'data-error-kind': error.kind } }, [
    el('div', { className: 'error-title' }, [codicon('error'), el('span', { text: error.message })]),
    ...(error.requestId ? [el('div', { className: 'error-request', text: l10n.t('Request ID: {0}', error.requestId) })] : []),
    actions,
  ]);
}
