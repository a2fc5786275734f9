import * as l10n from '@vscode/l10n';
import { markdownFenced, markdownLiteral } from '../../markdownText';
import type { Conversation, ConversationMessage } from '../conversation';
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
