import { ChatEngine } from '../../../core/chat/chatEngine';
import type { Conversation } from '../../../core/chat/conversation';
import type { HostToWebview } from '../../../core/chat/protocol/chatProtocol';
import type { ChatView, ConversationSaver } from '../../../core/chat/ports';
import { createChatBackend, type ChatBackendServices } from './chatBackend';
import { comparisonPorts, type ComparisonBackendServices } from './comparisonBackend';

/** A single answer's backend and a comparison's. */
export type ChatSessionServices = ChatBackendServices & ComparisonBackendServices;

/** What a session shows through: the surface (panel or side-bar view) it is attached to. */
export interface SessionDisplay extends ChatView {
  /** The session's engine loaded another conversation (the surface's ownership changes with it). */
  conversationChanged(): void;
}

/** How often a shown conversation looks for turns another window saved in it (a stat when none did). */
const FOLLOW_OTHER_WINDOWS_MS = 2000;

/**
 * One conversation's engine, detachable from the surface that shows it: moving a conversation
 * between the side-bar view and an editor tab moves its session, answer in flight included, so
 * the conversation keeps one writer and nothing is read back from disk.
 */
export class ChatSession implements ChatView {
  readonly engine: ChatEngine;
  #display: SessionDisplay | undefined;
  #following: ReturnType<typeof setInterval> | undefined;

  constructor(conversation: Conversation, services: ChatSessionServices, saver: ConversationSaver) {
    this.engine = new ChatEngine(conversation, this, saver, { ...createChatBackend(services), ...comparisonPorts(services) });
  }

  get conversation(): Conversation {
    return this.engine.conversation;
  }

  /** Shows the session in `display` (undefined: nowhere, while it moves). */
  attach(display: SessionDisplay | undefined): void {
    this.#display = display;
    clearInterval(this.#following);
    this.#following = display && setInterval(() => {
      if (this.ready) void this.engine.followSaved();
    }, FOLLOW_OTHER_WINDOWS_MS);
  }

  /** Shows another conversation in this session (refused while an answer streams). */
  load(conversation: Conversation): void {
    this.engine.load(conversation);
    this.#display?.conversationChanged();
  }

  get ready(): boolean {
    return this.#display?.ready ?? false;
  }

  post(message: HostToWebview): void {
    this.#display?.post(message);
  }

  showTitle(title: string): void {
    this.#display?.showTitle(title);
  }

  /** Stops the answer in flight and resolves once it is saved. */
  dispose(): Promise<void> {
    this.attach(undefined);
    return this.engine.dispose();
  }
}
