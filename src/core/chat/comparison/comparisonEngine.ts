import * as l10n from '@vscode/l10n';
import { chosenAnswer, isImageAttachment, userContent, type Attachment, type Conversation, type ConversationMessage } from '../conversation';
import type { AppendPacing } from '../appendBatcher';
import type { ChatBackend, ChatView, ComparisonBackend } from '../ports';
import { columnAppended, columnPatched, messagePatched, messageUpserted } from '../viewMessages';
import { ComparisonRun, type ComparisonSink } from './comparisonRun';
import { comparisonEstimate, consentForComparison, type ComparisonEstimate } from './comparisonSpend';
import { continueRefusal, MAX_COMPARED_MODELS, MIN_COMPARED_MODELS } from './comparisonTurn';

/**
 * The chat engine's side of a comparison: chatEngine.ts keeps one method per request, which asks
 * these with what the engine holds (ComparisonEngineSide); what a comparison does is here.
 */

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

/** What the engine lends a comparison: its conversation, view and backend, the question's asking, and where the run goes. */
export interface ComparisonEngineSide extends ComparisonHooks {
  readonly conversation: Conversation;
  readonly view: ChatView;
  readonly backend: ChatBackend;
  readonly now: () => number;
  readonly appendPacing: Partial<AppendPacing>;
  /** The context the question would carry (the composer's chips). */
  pending(): readonly Attachment[];
  /** Adds the question with the pending attachments (their images written first) and saves it. */
  ask(text: string): Promise<unknown>;
  /** The key's requests per minute, as the last comparison's responses reported it. */
  rateLimitRequests(): number | undefined;
}

/** What asking `models` the question `text` (with the pending context) would cost, model by model: the composer's figures. */
export function estimateComparison(side: Pick<ComparisonEngineSide, 'conversation' | 'backend' | 'pending'>, models: readonly string[], text: string): ComparisonEstimate {
  return comparisonEstimate(models, (model) => side.backend.estimate(model), questionChars(side.conversation, text, side.pending()));
}

/**
 * Asks 2–4 models the question at once, side by side (one at a time with `measureEachModel`). Money
 * first: when their requests together would reach a spending limit, the user is asked once for all of
 * them; declined, nothing is sent and the question stays in the composer (ComparisonDeclinedError).
 * Resolves once the question is added and the run started; `run.done` ends with its spends.
 */
export async function startComparison(side: ComparisonEngineSide, text: string, models: readonly string[]): Promise<{ run: ComparisonRun; done: Promise<void> }> {
  const backend = comparisonBackend(side.backend);
  const distinct = [...new Set(models)];
  if (distinct.length < MIN_COMPARED_MODELS || distinct.length > MAX_COMPARED_MODELS) throw new Error(l10n.t('Pick {0} to {1} different models to compare.', MIN_COMPARED_MODELS, MAX_COMPARED_MODELS));
  const consent = await consentForComparison(backend, backend.environment().name, estimateComparison(side, distinct, text));
  await side.ask(text);
  const conversation = side.conversation;
  const run = new ComparisonRun(conversation, backend, comparisonSink(conversation, side.view, side), distinct, {
    now: side.now, appendPacing: side.appendPacing, consent, rateLimitRequests: side.rateLimitRequests(), oneAtATime: backend.measureEachModel(),
  });
  return { run, done: run.run() };
}

/**
 * Continue with this answer: the conversation goes on with that column's model, and later requests
 * carry its answer as the assistant's turn; the comparison stays in the history as it was. Returns the
 * turn, changed; the engine shows and saves it.
 */
export function chooseColumn(conversation: Conversation, turnId: string, columnId: string): ConversationMessage {
  const turn = conversation.messages.at(-1);
  if (turn?.id !== turnId) throw new Error(l10n.t('Only the last comparison can be continued.'));
  const refusal = continueRefusal(turn, columnId);
  const column = turn.comparison?.columns.find((c) => c.answer.id === columnId);
  if (refusal !== undefined || !turn.comparison || !column) throw new Error(refusal);
  turn.comparison.chosen = columnId;
  conversation.model = column.model;
  return turn;
}

/** The comparison's messages: the turn as any message, its columns by their own (columnAppended, columnPatched), on the one view. */
export function comparisonSink(conversation: Conversation, view: ChatView, hooks: ComparisonHooks): ComparisonSink {
  return {
    upsert: (turn) => view.post(messageUpserted(conversation, turn)),
    append: (turn, columnId, append) => {
      const tuple = view.ready ? columnAppended(turn, columnId, append) : undefined;
      if (tuple) view.post(tuple);
    },
    patchColumn: (turn, column) => view.post(columnPatched(conversation, turn, column)),
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
