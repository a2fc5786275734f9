import * as l10n from '@vscode/l10n';
import type { MessageView } from '../../core/chat/protocol/chatProtocol';
import { eagerFrom, messageChars } from '../../core/chat/protocol/snapshotParts';
import { BottomFollower } from './bottomFollower';
import { el } from '../shared/dom';
import { LazyMessages } from './lazyMessages';
import { MessageChunks } from './messageChunks';
import { MessageElement, type MessageContext } from './messageView';

/** How long a revealed message (a search result) stays outlined. */
const REVEAL_HIGHLIGHT_MS = 2000;
/** How long a revealed message is kept at the top while the answers around it are rendered. */
const REVEAL_HOLD_MS = 1500;

/**
 * Scrolls `element` to the top of `list` and keeps it there for `ms`: the answers above and below it
 * are rendered over the next frames (lazyMessages.ts), replacing placeholders of estimated height,
 * and the browser's scroll anchoring may pick another node. Stops at once when the user scrolls.
 */
function holdInView(list: HTMLElement, element: HTMLElement, ms: number): void {
  const until = performance.now() + ms;
  let held = true;
  const release = () => {
    held = false;
  };
  const userInput = ['wheel', 'touchstart', 'pointerdown', 'keydown'] as const;
  for (const type of userInput) list.addEventListener(type, release, { once: true, passive: true });
  const frame = () => {
    if (!held || !element.isConnected) return;
    const offset = element.getBoundingClientRect().top - list.getBoundingClientRect().top;
    if (Math.abs(offset) > 1) element.scrollIntoView({ block: 'start' });
    if (performance.now() < until) requestAnimationFrame(frame);
    else for (const type of userInput) list.removeEventListener(type, release);
  };
  requestAnimationFrame(frame);
}

/**
 * The conversation's messages on screen, in order: the webview's one model of them (each element
 * holds its message's text, messageView.ts). Also the list that follows the bottom
 * (bottomFollower.ts), the answers rendered when they come near (lazyMessages.ts), and the chrome
 * of the last turn.
 */
export class MessageList {
  readonly root: HTMLElement;
  readonly #empty: HTMLElement;
  readonly #messages = new Map<string, MessageElement>();
  #ordered: MessageElement[] = [];
  readonly #bottom: BottomFollower;
  readonly #lazy: LazyMessages;
  readonly #chunks: MessageChunks;
  /** A message asked to be shown before it was here (its snapshot not applied yet): shown when it comes. */
  #revealWhenShown: string | undefined;
  /** The messages whose chrome was last rendered as the last turn's (refreshChrome). */
  #lastTurn = new Set<string>();

  readonly #ctx: MessageContext;

  constructor(ctx: MessageContext) {
    this.#ctx = ctx;
    this.#empty = el('div', { className: 'empty-state', text: l10n.t('Ask a question to start the conversation.') });
    this.root = el('main', { className: 'messages', attrs: { 'aria-label': l10n.t('Conversation'), tabindex: '0' } }, [this.#empty]);
    this.#bottom = new BottomFollower(this.root);
    this.#lazy = new LazyMessages(this.root);
    this.#chunks = new MessageChunks(this.root);
  }

  get(id: string): MessageElement | undefined {
    return this.#messages.get(id);
  }

  /** The text of a comparison's column (its id is its answer's), as received so far. */
  columnText(columnId: string): string | undefined {
    for (const message of this.#ordered) {
      const text = message.comparison ? message.columnText(columnId) : undefined;
      if (text !== undefined) return text;
    }
    return undefined;
  }

  /** Every message, first to last. */
  get all(): readonly MessageElement[] {
    return this.#ordered;
  }

  /**
   * A conversation's messages in place of those shown: only the latest are rendered at once
   * (eagerFrom). The list then follows the bottom, unless a message asked to be shown is among them.
   */
  show(views: readonly MessageView[]): void {
    this.#clear();
    const eager = eagerFrom(views.map(messageChars));
    views.forEach((view, index) => this.add(view, index < eager));
    if (!this.#revealPending()) this.#bottom.follow();
  }

  /** Older messages of the conversation (a snapshot's earlier parts), deferred, before those shown. */
  prepend(views: readonly MessageView[]): void {
    const first = this.#ordered[0]?.id;
    for (const view of views) this.add(view, true, first);
    this.#revealPending();
  }

  #revealPending(): boolean {
    if (!this.#revealWhenShown || !this.#messages.has(this.#revealWhenShown)) return false;
    this.reveal(this.#revealWhenShown);
    return true;
  }

  /** Keeps the newest message in view as the list grows (a snapshot shown, a question sent). */
  followBottom(): void {
    this.#bottom.follow();
  }

  /** Shows a message (a search result): the list stops following the bottom and scrolls it into view. */
  reveal(messageId: string): void {
    const element = this.#messages.get(messageId);
    this.#revealWhenShown = element ? undefined : messageId;
    if (!element) return;
    // Shown as it will look, not as the placeholder of an answer not rendered yet.
    this.#lazy.renderNow(element);
    this.#bottom.release();
    holdInView(this.root, element.root, REVEAL_HOLD_MS);
    element.root.classList.add('revealed');
    setTimeout(() => element.root.classList.remove('revealed'), REVEAL_HIGHLIGHT_MS);
  }

  /** `deferred`: rendered when scrolled near (lazyMessages.ts); `before`: the message it goes before, the end by default. */
  add(view: MessageView, deferred = false, before?: string): void {
    const element = new MessageElement(view, this.#ctx, deferred);
    const next = before === undefined ? undefined : this.#messages.get(before);
    this.#messages.set(view.id, element);
    if (next) this.#ordered.splice(this.#ordered.indexOf(next), 0, element);
    else this.#ordered.push(element);
    this.#chunks.insert(element.root, element.placeholderHeight, next?.root);
    this.#bottom.watch(element.root);
    this.#lazy.watch(element);
  }

  remove(id: string): void {
    const element = this.#messages.get(id);
    if (!element) return;
    this.#bottom.unwatch(element.root);
    this.#lazy.unwatch(element);
    this.#chunks.remove(element.root);
    this.#messages.delete(id);
    this.#ordered.splice(this.#ordered.indexOf(element), 1);
  }

  #clear(): void {
    for (const id of [...this.#messages.keys()]) this.remove(id);
  }

  /**
   * Action buttons depend on position (only the last turn can be regenerated or edited) and, for
   * the last turn, on whether an answer streams. Only the messages that are last, or were, change:
   * a long conversation's thousand others keep their chrome.
   */
  refreshChrome(busy: boolean): void {
    const views = this.#ordered;
    const lastUser = views.findLast((m) => m.role === 'user')?.id;
    const lastIsUser = views.at(-1)?.role === 'user';
    const lastAssistant = lastIsUser ? undefined : views.findLast((m) => m.role === 'assistant')?.id;
    const last = new Set([lastAssistant, lastUser].filter((id) => id !== undefined));
    for (const id of new Set([...this.#lastTurn, ...last])) this.#messages.get(id)?.renderChrome(last.has(id), busy);
    this.#lastTurn = last;
    this.#empty.hidden = views.length > 0;
  }
}
