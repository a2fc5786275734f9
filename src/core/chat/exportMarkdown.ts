import * as l10n from '@vscode/l10n';
import { formatCredits, SPEND_DIGITS } from '../credits';
import type { Conversation, ConversationMessage } from './conversation';

/** A conversation as a Markdown document: headings per turn, answers verbatim, metadata as a quiet line. */
export function exportMarkdown(conversation: Conversation): string {
  const lines: string[] = [`# ${conversation.title}`, ''];
  const exported = new Date().toISOString();
  lines.push(`_${conversation.model ? l10n.t('Exported {0}, model {1}', exported, conversation.model) : l10n.t('Exported {0}', exported)}_`, '');
  if (conversation.params.systemPrompt) lines.push(`## ${l10n.t('System prompt')}`, '', conversation.params.systemPrompt, '');
  for (const message of conversation.messages) lines.push(...messageLines(message), '');
  return `${lines.join('\n').trimEnd()}\n`;
}

function messageLines(message: ConversationMessage): string[] {
  if (message.role === 'user') {
    const attached = message.attachments?.length
      ? [`_${l10n.t('Attached: {0}', message.attachments.map((a) => a.detail ?? a.label).join(', '))}_`, '']
      : [];
    return [`## ${l10n.t('You')}`, '', ...attached, message.text];
  }
  const out = [`## ${l10n.t('Assistant')}`, ''];
  if (message.text) out.push(message.text, '');
  if (message.status === 'stopped') out.push(`_(${l10n.t('stopped by the user; partial answer')})_`, '');
  if (message.status === 'interrupted') out.push(`_(${l10n.t('interrupted; the answer may be incomplete')})_`, '');
  if (message.error) {
    const { message: text, requestId } = message.error;
    out.push(`> **${l10n.t('Error:')}** ${requestId ? l10n.t('{0} (request {1})', text, requestId) : text}`, '');
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
