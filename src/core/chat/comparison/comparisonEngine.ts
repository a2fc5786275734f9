import * as l10n from '@vscode/l10n';
import { chosenAnswer, isImageAttachment, userContent, type Attachment, type Conversation, type ConversationMessage } from '../conversation';
import type { ChatBackend, ChatView, ComparisonBackend, ComparisonView } from '../ports';
import { messagePatched, messageUpserted } from '../viewMessages';
import type { ComparisonSink } from './comparisonRun';

/** The chat engine's side of a comparison (chatEngine.ts keeps only when to start, stop and go on). */

/** The backend, if it can run comparisons (the host's does; a backend without their ports refuses them). */
export function comparisonBackend(backend: ChatBackend): ComparisonBackend {
  const candidate = backend as Partial<ComparisonBackend>;
  if (typeof candidate.openStreamOnce !== 'function' || typeof candidate.confirmPastLimit !== 'function') throw new Error(l10n.t('Comparing models is not available here.'));
  return backend as ComparisonBackend;
}

/** What the engine does with the conversation a comparison runs in (it may show another one meanwhile). */
export interface ComparisonHooks {
  save(conversation: Conversation): Promise<void>;
  saveSoon(conversation: Conversation): void;
  ended(): void;
  readImage(conversation: Conversation, file: string): Promise<Uint8Array>;
}

/** The turn goes to the chat view as any message; its columns to the comparison view, if there is one. */
export function comparisonSink(conversation: Conversation, view: ChatView, columns: ComparisonView | undefined, hooks: ComparisonHooks): ComparisonSink {
  return {
    upsert: (turn) => view.post(messageUpserted(conversation, turn)),
    append: (turn, columnId, append) => {
      if (view.ready) columns?.append(turn.id, columnId, append);
    },
    patchColumn: (turn, column) => columns?.patchColumn(turn.id, column),
    patch: (turn) => view.post(messagePatched(conversation, turn)),
    save: () => hooks.save(conversation),
    saveSoon: () => hooks.saveSoon(conversation),
    ended: () => hooks.ended(),
    readImage: (file) => hooks.readImage(conversation, file),
  };
}

/**
 * The characters a request with the question `text` and its context would carry, as the ledger
 * counts them for the estimates (streamingAnswer.ts `#sentChars`): the earlier turns, the question's
 * text context; images are not characters.
 */
export function questionChars(conversation: Conversation, text: string, attachments: readonly Attachment[]): number {
  const question: ConversationMessage = { id: '', role: 'user', text, createdAt: 0, attachments: attachments.filter((a) => !isImageAttachment(a)) };
  let chars = userContent(question).length;
  for (const message of conversation.messages) {
    if (message.role === 'user') chars += userContent(message).length;
    else {
      const answer = message.comparison ? chosenAnswer(message) : message;
      if (answer && !answer.error) chars += answer.text.length;
    }
  }
  return chars;
}
