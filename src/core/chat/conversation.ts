import * as l10n from '@vscode/l10n';
import { randomUUID } from 'node:crypto';
import type { AnswerMeta, AnswerStatus, AttachmentKind, ChatParams, ConversationRole, SentContext } from './protocol/chatProtocol';
import type { ErrorFacts } from '../errorView';
import type { ChatContentPart, ChatMessage, UserPartsMessage } from '../api/types';
import { imageDataUrl, type ChatImage } from './chatImages';
import { roundCredits } from '../credits';
import { mergeServiceParameters } from './params';
import { markdownFenced } from '../markdownText';

/**
 * The conversation as the engine keeps it in memory. It is neither what the webview shows
 * (conversationView.ts derives that, with error actions and without attachment content) nor what
 * is saved (serialization.ts, versioned). No field may hold a secret.
 */

export interface Attachment {
  id: string;
  kind: AttachmentKind;
  label: string;
  detail?: string;
  /** The text the model reads; empty for an image, whose bytes are in `image` or its file. */
  content: string;
  languageId?: string;
  image?: ChatImage;
}

/** An attachment that is an image (kind `image`, with its file). */
export type ImageAttachment = Attachment & { image: ChatImage };

export function isImageAttachment(attachment: Attachment): attachment is ImageAttachment {
  return attachment.kind === 'image' && attachment.image !== undefined;
}

/** The images attached to the messages, in order. */
export function imageAttachments(messages: readonly ConversationMessage[]): ImageAttachment[] {
  return messages.flatMap((m) => m.attachments?.filter(isImageAttachment) ?? []);
}

/** Attachment id → data URL of each image, its bytes held (pending) or read from its file. */
export async function imageDataUrls(images: readonly ImageAttachment[], read: (file: string) => Promise<Uint8Array>): Promise<Map<string, string>> {
  const urls = new Map<string, string>();
  for (const { id, image } of images) urls.set(id, imageDataUrl(image.mime, image.data ?? (await read(image.file))));
  return urls;
}

// The same fields as MessageView and StoredMessage, on purpose: each layer changes without the others.
export interface ConversationMessage {
  id: string;
  role: ConversationRole;
  text: string;
  createdAt: number;
  /** The model's thinking, kept apart from the answer and never sent back to the service. */
  reasoning?: string;
  status?: AnswerStatus;
  meta?: AnswerMeta;
  /** Why the answer failed; the actions offered are derived when it is shown. */
  error?: ErrorFacts;
  attachments?: Attachment[];
  /**
   * Set on the assistant turn that answered a question with several models side by side
   * (comparison/): its own text stays empty, each model's answer is a column; its meta's spend is
   * the whole comparison's.
   */
  comparison?: Comparison;
}

/** One question answered by several models at once (issue 40). */
export interface Comparison {
  /** One per model asked, in the order they were picked. */
  columns: ComparisonColumn[];
  /**
   * The column the conversation went on with (Continue with this answer): its answer is the assistant
   * turn that later requests carry. The other columns stay as they were, shown, never sent.
   */
  chosen?: string;
}

/** One model's answer in a comparison: the model asked (from the model list) and its answer, a message of its own. */
export interface ComparisonColumn {
  /** The id asked for; the answer's meta.model is the id the service resolved it to. */
  model: string;
  /** Its id names the column; status, text, times, spend and error are a single answer's. */
  answer: ConversationMessage;
}

/** The answer a comparison turn stands for in later requests: its chosen column's, if one was chosen. */
export function chosenAnswer(message: ConversationMessage): ConversationMessage | undefined {
  const chosen = message.comparison?.chosen;
  return chosen === undefined ? undefined : message.comparison?.columns.find((column) => column.answer.id === chosen)?.answer;
}

export interface Conversation {
  id: string;
  title: string;
  /** Per-conversation model; absent means the active environment's selected model. */
  model?: string;
  params: ChatParams;
  createdAt: number;
  updatedAt: number;
  messages: ConversationMessage[];
}

/** What the history lists of a conversation without opening it (kept in the history index, historyIndex.ts). */
export interface ConversationSummary {
  id: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  messageCount: number;
  /** The conversation's own model, else the model of its last answer. */
  model?: string;
  /** Measured spend of its answers, in credits. */
  credits: number;
  /** Its comparisons (questions asked of several models at once), when it has any. */
  comparisons?: number;
  /** The distinct models its comparisons asked, when it has any. */
  comparedModels?: number;
}

// Stored with the conversation and compared to decide whether to title it from the first question:
// stored data, not a label, so it stays untranslated (a view could show a translated placeholder).
export const DEFAULT_TITLE = 'New chat';

export function newId(): string {
  return randomUUID();
}

export function createConversation(now = Date.now()): Conversation {
  return { id: newId(), title: DEFAULT_TITLE, params: {}, createdAt: now, updatedAt: now, messages: [] };
}

/** A title from the first user message: its first line, trimmed to a readable length. */
export function titleFrom(text: string): string {
  const line = text.trim().split(/\r?\n/)[0]?.replace(/\s+/g, ' ') ?? '';
  if (!line) return DEFAULT_TITLE;
  return line.length > 60 ? `${line.slice(0, 57)}…` : line;
}

/** What precedes each attachment in the request. The model reads this, not the user: it stays in English whatever the UI language. */
const CONTEXT_HEADINGS: Readonly<Record<AttachmentKind, string>> = {
  selection: 'Selected code from',
  file: 'File',
  // Never used: images go as image parts, not text (userContent leaves them out).
  image: 'Image',
  problems: 'Problems (diagnostics) in',
  terminal: 'Terminal',
  changes: 'Working tree changes (git diff) in',
};

/** The user's text with its attached context, as the model receives it. */
export function userContent(message: ConversationMessage): string {
  const texts = message.attachments?.filter((a) => !isImageAttachment(a)) ?? [];
  if (!texts.length) return message.text;
  const context = texts.map((a) => `${CONTEXT_HEADINGS[a.kind]} ${a.detail ?? a.label}:\n${markdownFenced(a.content, a.languageId)}`);
  return `${context.join('\n\n')}\n\n${message.text}`;
}

/** What `requestMessages` sends as text context, for the answer's details: every user message's text attachments up to `endIndex`. */
export function sentContext(conversation: Conversation, endIndex: number): SentContext[] {
  return conversation.messages.slice(0, endIndex).filter((m) => m.role === 'user')
    .flatMap((m) => m.attachments ?? []).filter((a) => !isImageAttachment(a)).map((a) => ({ kind: a.kind, label: a.label, chars: a.content.length }));
}

/**
 * A user message as the request carries it: its text, or with images, the text and one `image_url`
 * part per image (`imageUrls`: attachment id → data URL, read from the images' files).
 */
function userMessage(message: ConversationMessage, imageUrls: ReadonlyMap<string, string>): ChatMessage | UserPartsMessage {
  const images = message.attachments?.filter(isImageAttachment) ?? [];
  if (!images.length) return { role: 'user', content: userContent(message) };
  const parts: ChatContentPart[] = [{ type: 'text', text: userContent(message) }];
  for (const image of images) {
    const url = imageUrls.get(image.id);
    if (url === undefined) throw new Error(l10n.t('The image {0} of this conversation could not be read.', image.label));
    parts.push({ type: 'image_url', image_url: { url } });
  }
  return { role: 'user', content: parts };
}

/**
 * The request messages for an answer to the conversation up to `endIndex` (exclusive). Failed answers
 * (error cards) and empty answers are not sent back to the model; stopped partial answers are. A
 * comparison is sent as the answer the user went on with, and not at all before one was chosen.
 */
export function requestMessages(
  conversation: Conversation, systemPrompt: string | undefined, endIndex = conversation.messages.length, imageUrls: ReadonlyMap<string, string> = new Map(),
): (ChatMessage | UserPartsMessage)[] {
  const messages: (ChatMessage | UserPartsMessage)[] = [];
  if (systemPrompt?.trim()) messages.push({ role: 'system', content: systemPrompt });
  for (const message of conversation.messages.slice(0, endIndex)) {
    const answer = message.comparison ? chosenAnswer(message) : message;
    if (message.role === 'user') messages.push(userMessage(message, imageUrls));
    else if (answer && !answer.error && answer.text) messages.push({ role: 'assistant', content: answer.text });
  }
  return messages;
}

/** Effective parameters: per-conversation overrides over the settings. */
export function effectiveParams(conversation: Conversation, defaults: ChatParams): ChatParams {
  const merged: ChatParams = { ...defaults };
  for (const [key, value] of Object.entries(conversation.params) as [keyof ChatParams, ChatParams[keyof ChatParams]][]) {
    if (value !== undefined) (merged as Record<string, unknown>)[key] = value;
  }
  const serviceParameters = mergeServiceParameters(defaults.service_parameters, conversation.params.service_parameters);
  if (serviceParameters) merged.service_parameters = serviceParameters;
  else delete merged.service_parameters;
  return merged;
}

export function summary(conversation: Conversation): ConversationSummary {
  let credits = 0;
  let answerModel: string | undefined;
  let comparisons = 0;
  const comparedModels = new Set<string>();
  for (const message of conversation.messages) {
    // A comparison's turn carries what its columns cost together (comparisonRun.ts): its columns ran beside one another.
    if (message.comparison) comparisons++;
    for (const { model } of message.comparison?.columns ?? []) comparedModels.add(model);
    credits += message.meta?.creditsSpent ?? 0;
    answerModel = (message.comparison ? chosenAnswer(message) : message)?.meta?.model ?? answerModel;
  }
  const model = conversation.model ?? answerModel;
  return {
    id: conversation.id,
    title: conversation.title,
    createdAt: conversation.createdAt,
    updatedAt: conversation.updatedAt,
    messageCount: conversation.messages.length,
    ...(model !== undefined && { model }),
    credits: roundCredits(credits),
    ...(comparisons > 0 && { comparisons, comparedModels: comparedModels.size }),
  };
}

/** What a history listing says of a conversation's comparisons; undefined when it has none. */
export function comparisonsLabel(summary: Pick<ConversationSummary, 'comparisons' | 'comparedModels'>): string | undefined {
  const { comparisons = 0, comparedModels = 0 } = summary;
  if (comparisons === 0) return undefined;
  return comparisons === 1 ? l10n.t('compared {0} models', comparedModels) : l10n.t('{0} comparisons of {1} models', comparisons, comparedModels);
}
