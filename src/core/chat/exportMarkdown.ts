import * as l10n from '@vscode/l10n';
import { formatCredits, SPEND_DIGITS } from '../credits';
import { markdownFenced, markdownLiteral } from '../markdownText';
import { columnFigures, type ColumnFigures } from './comparison/comparisonTurn';
import { isImageAttachment, type Conversation, type ConversationMessage } from './conversation';
import { formatSeconds } from './protocol/answerDetails';
import { conversationSpend, conversationSpendLabel } from './protocol/conversationSpend';

/**
 * A conversation as a Markdown document: headings per turn, answers verbatim, metadata as a quiet line.
 * A comparison's answers are fenced instead, each under its model, and followed by their figures.
 * Images (`imageUrls`: attachment id → data URL) are kept in the document itself, so that it stands
 * alone wherever it is saved: each shows where it was attached as `![name][image-N]`, and its data URL
 * is a reference definition at the end, out of the way of the text.
 */
export function exportMarkdown(conversation: Conversation, imageUrls: ReadonlyMap<string, string> = new Map()): string {
  const lines: string[] = [`# ${conversation.title}`, ''];
  const references: string[] = [];
  const exported = new Date().toISOString();
  lines.push(`_${conversation.model ? l10n.t('Exported {0}, model {1}', exported, conversation.model) : l10n.t('Exported {0}', exported)}_`, '');
  if (conversation.params.systemPrompt) lines.push(`## ${l10n.t('System prompt')}`, '', conversation.params.systemPrompt, '');
  for (const message of conversation.messages) lines.push(...messageLines(message, imageUrls, references), '');
  if (references.length) lines.push(...references, '');
  return `${lines.join('\n').trimEnd()}\n`;
}

function messageLines(message: ConversationMessage, imageUrls: ReadonlyMap<string, string>, references: string[]): string[] {
  if (message.role === 'user') {
    const texts = message.attachments?.filter((a) => !isImageAttachment(a)) ?? [];
    const attached = texts.length ? [`_${l10n.t('Attached: {0}', texts.map((a) => a.detail ?? a.label).join(', '))}_`, ''] : [];
    const images = (message.attachments?.filter(isImageAttachment) ?? []).flatMap((a) => {
      const url = imageUrls.get(a.id);
      if (url === undefined) return [`_${l10n.t('Image {0} (not found)', a.label)}_`, ''];
      references.push(`[image-${references.length + 1}]: ${url}`);
      return [`![${markdownLabel(a.label)}][image-${references.length}]`, ''];
    });
    return [`## ${l10n.t('You')}`, '', ...attached, ...images, message.text];
  }
  if (message.comparison) return [`## ${l10n.t('Assistant: {0} models compared', message.comparison.columns.length)}`, '', ...comparisonLines(message, 3)];
  const out = [`## ${l10n.t('Assistant')}`, ''];
  if (message.text) out.push(message.text, '');
  return [...out, ...answerNotes(message)];
}

/** What an answer's text leaves out: how it ended, its error, and a quiet line of its facts. */
function answerNotes(message: ConversationMessage): string[] {
  const out: string[] = [];
  if (message.status === 'stopped') out.push(`_(${l10n.t('stopped by the user; partial answer')})_`, '');
  if (message.status === 'interrupted') out.push(`_(${l10n.t('interrupted; the answer may be incomplete')})_`, '');
  if (message.status === 'streaming') out.push(`_(${l10n.t('still streaming when exported')})_`, '');
  if (message.error) {
    const { message: text, requestId } = message.error;
    // The service's words on one quoted line: nothing in them may leave it.
    out.push(`> **${l10n.t('Error:')}** ${markdownLiteral(requestId ? l10n.t('{0} (request {1})', text, requestId) : text)}`, '');
  }
  const meta = message.meta;
  const facts = [
    meta?.model && l10n.t('model {0}', meta.model),
    meta?.requestId && l10n.t('request {0}', meta.requestId),
    meta?.finishedAt && new Date(meta.finishedAt).toISOString(),
    meta?.creditsSpent !== undefined && l10n.t('{0} credits', formatCredits(meta.creditsSpent, SPEND_DIGITS)),
    meta?.spendNotMeasured !== undefined && l10n.t('credits not measured'),
  ].filter(Boolean);
  if (facts.length) out.push(`<sub>${facts.join(' · ')}</sub>`);
  return out;
}

/**
 * A comparison turn's columns, each model's answer under a heading of `level` (its text fenced:
 * model output must not reach the document's structure), then the figures table and the total.
 */
export function comparisonLines(message: ConversationMessage, level: number): string[] {
  const heading = '#'.repeat(level);
  const columns = message.comparison?.columns ?? [];
  const out: string[] = [];
  for (const column of columns) {
    const { answer } = column;
    out.push(`${heading} ${markdownLiteral(columnFigures(column).model)}`, '');
    if (answer.text) out.push(markdownFenced(answer.text, 'markdown'), '');
    else if (!answer.error) out.push(`_${l10n.t('(no answer)')}_`, '');
    out.push(...answerNotes(answer), '');
  }
  out.push(`${heading} ${l10n.t('Figures')}`, '', ...figuresTable(columns.map(columnFigures), columns.map((c) => c.answer)), '');
  const total = conversationSpendLabel(conversationSpend(columns.map((c) => c.answer)));
  out.push(`**${l10n.t('Total:')}** ${total?.text ?? l10n.t('nothing measured')}`);
  const chosen = columns.find((c) => c.answer.id === message.comparison?.chosen);
  if (chosen) out.push('', `_${l10n.t('The conversation went on with the answer of {0}.', markdownLiteral(columnFigures(chosen).model))}_`);
  return out;
}

const NOT_KNOWN = '—';

/** One row per column: the figures of comparisonTurn.ts, every text from outside escaped (a `|` would split a cell). */
function figuresTable(figures: readonly ColumnFigures[], answers: readonly ConversationMessage[]): string[] {
  const header = [l10n.t('Model'), l10n.t('First token'), l10n.t('Total time'), l10n.t('Output chars/s'), l10n.t('Credits'), l10n.t('Error')];
  const rows = figures.map((f, i) => {
    const error = answers[i]?.error;
    return [
      markdownLiteral(f.model),
      f.timeToFirstTokenMs === undefined ? NOT_KNOWN : formatSeconds(f.timeToFirstTokenMs),
      f.totalMs === undefined ? NOT_KNOWN : formatSeconds(f.totalMs),
      f.charsPerSecond === undefined ? NOT_KNOWN : String(f.charsPerSecond),
      f.spend === undefined ? NOT_KNOWN : 'credits' in f.spend ? formatCredits(f.spend.credits, SPEND_DIGITS) : notMeasuredText(f.spend.notMeasured),
      error ? markdownLiteral(error.requestId ? l10n.t('{0} (request {1})', error.message, error.requestId) : error.message) : '',
    ];
  });
  return [header, header.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`);
}

function notMeasuredText(why: NonNullable<ConversationMessage['meta']>['spendNotMeasured']): string {
  return why === 'overlapped'
    ? l10n.t('not measured — another request to the environment ran at the same time')
    : l10n.t('not measured — no balance reading before and after it');
}

/** An image's name as link text: brackets and backslashes escaped, on one line. */
function markdownLabel(label: string): string {
  return label.replace(/[\\[\]]/g, '\\$&').replace(/\s+/g, ' ');
}
