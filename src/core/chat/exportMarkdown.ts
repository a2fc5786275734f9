import * as l10n from '@vscode/l10n';
import { formatCredits, SPEND_DIGITS } from '../credits';
import { isImageAttachment, type Conversation, type ConversationMessage } from './conversation';

/**
 * A conversation as a Markdown document: headings per turn, answers verbatim, metadata as a quiet line.
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

/** An image's name as link text: brackets and backslashes escaped, on one line. */
function markdownLabel(label: string): string {
  return label.replace(/[\\[\]]/g, '\\$&').replace(/\s+/g, ' ');
}
