import * as l10n from '@vscode/l10n';
import { markdownFenced, markdownLiteral } from '../../markdownText';
import { isRecord } from '../../json';
import type { Conversation, ConversationMessage, ConversationSummary } from '../conversation';
import { comparisonLines } from '../exportMarkdown';
import { columnFigures } from './comparisonTurn';

/**
 * The comparison report (issue 40): one comparison of a conversation as a Markdown document of its
 * own, the prompt, each model's answer under its heading and the figures, for the user to keep or
 * share. The conversation's export (exportMarkdown.ts) holds the same sections for every comparison.
 */

/** A comparison turn of a conversation and the question it answered, as a pick lists it. */
export interface ComparisonRef {
  conversationId: string;
  conversationTitle: string;
  turnId: string;
  /** The question's text (may be empty: a question of attachments only). */
  prompt: string;
  /** The models as they answered, in column order. */
  models: string[];
  createdAt: number;
}

/** The question a turn answered: the user message before it. */
function questionOf(conversation: Conversation, index: number): ConversationMessage | undefined {
  const before = conversation.messages[index - 1];
  return before?.role === 'user' ? before : undefined;
}

/** Every comparison of the conversation, newest first. */
export function comparisonsIn(conversation: Conversation): ComparisonRef[] {
  const refs: ComparisonRef[] = [];
  conversation.messages.forEach((message, index) => {
    if (!message.comparison) return;
    refs.push({
      conversationId: conversation.id,
      conversationTitle: conversation.title,
      turnId: message.id,
      prompt: questionOf(conversation, index)?.text ?? '',
      models: message.comparison.columns.map((column) => columnFigures(column).model),
      createdAt: message.createdAt,
    });
  });
  return refs.reverse();
}

/**
 * The comparison `turnId` of `conversation` as Markdown: the prompt, each answer (fenced: model output
 * must not reach the report's structure) under a heading per model, the figures table and the total.
 * Throws when the conversation has no such comparison.
 */
export function exportComparisonMarkdown(conversation: Conversation, turnId: string, now = Date.now()): string {
  const index = conversation.messages.findIndex((message) => message.id === turnId);
  const turn = conversation.messages[index];
  if (!turn?.comparison) throw new Error(l10n.t('That turn is not a comparison in this conversation.'));
  const question = questionOf(conversation, index);
  const attached = question?.attachments?.map((a) => a.detail ?? a.label) ?? [];
  const lines = [
    `# ${l10n.t('Comparison: {0}', markdownLiteral(conversation.title))}`, '',
    `_${l10n.t('{0} models compared on {1}, exported {2}', turn.comparison.columns.length, new Date(turn.createdAt).toISOString(), new Date(now).toISOString())}_`, '',
    `## ${l10n.t('Prompt')}`, '',
    ...(attached.length ? [`_${l10n.t('Attached: {0}', markdownLiteral(attached.join(', ')))}_`, ''] : []),
    // The user's own text, fenced all the same: an unclosed fence in it would swallow the answers.
    question ? markdownFenced(question.text, 'text') : `_${l10n.t('(the question is not in this conversation)')}_`, '',
    ...comparisonLines(turn, 2),
  ];
  return `${lines.join('\n').trimEnd()}\n`;
}

/** What Export Comparison may be run with (by the chat, with the turn it shows, or a test). */
export interface ExportComparisonArgs {
  conversationId?: string;
  /** Only with `conversationId`. */
  turnId?: string;
}

/** A command's arguments come from anywhere: anything but non-empty ids is ignored, and a turn without its conversation. */
export function parseExportComparisonArgs(raw: unknown): ExportComparisonArgs {
  if (!isRecord(raw)) return {};
  const id = (value: unknown) => (typeof value === 'string' && value ? value : undefined);
  const conversationId = id(raw.conversationId);
  const turnId = id(raw.turnId);
  return conversationId === undefined ? {} : { conversationId, ...(turnId !== undefined && { turnId }) };
}

/** Where the comparisons to pick from are: the conversations shown now, and the history. */
export interface ComparisonSources {
  /** Ids of the conversations the chat shows, most recent first. */
  shown(): readonly string[];
  /** The history's summaries, newest first (the index: no conversation is read to list them). */
  list(): Promise<ConversationSummary[]>;
  /** A conversation as its surface holds it, else as the history has it. */
  conversation(id: string): Promise<Conversation | undefined>;
}

/**
 * Conversations read at most when looking for comparisons: the pick offers the recent ones, and its
 * cost stays the same however long the history grows (the index says which conversations have any).
 */
export const COMPARISON_SEARCH_CONVERSATIONS = 20;

/** The comparisons of the conversations shown, then of the history's most recent conversations that have any. */
export async function recentComparisons(sources: ComparisonSources, limit = COMPARISON_SEARCH_CONVERSATIONS): Promise<ComparisonRef[]> {
  const ids = [...sources.shown()];
  for (const summary of await sources.list()) {
    if (ids.length >= limit) break;
    if (summary.comparisons && !ids.includes(summary.id)) ids.push(summary.id);
  }
  const refs: ComparisonRef[] = [];
  for (const id of ids.slice(0, limit)) {
    const conversation = await sources.conversation(id);
    if (conversation) refs.push(...comparisonsIn(conversation));
  }
  return refs;
}
