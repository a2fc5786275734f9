import { formatCredits, SPEND_DIGITS } from '../credits';
import type { Conversation, ConversationMessage } from './conversation';

/** A conversation as a Markdown document: headings per turn, answers verbatim, metadata as a quiet line. */
export function exportMarkdown(conversation: Conversation): string {
  const lines: string[] = [`# ${conversation.title}`, ''];
  const model = conversation.model ? `, model ${conversation.model}` : '';
  lines.push(`_Exported ${new Date().toISOString()}${model}_`, '');
  if (conversation.params.systemPrompt) lines.push('## System prompt', '', conversation.params.systemPrompt, '');
  for (const message of conversation.messages) lines.push(...messageLines(message), '');
  return `${lines.join('\n').trimEnd()}\n`;
}

function messageLines(message: ConversationMessage): string[] {
  if (message.role === 'user') {
    const attached = message.attachments?.length
      ? [`_Attached: ${message.attachments.map((a) => a.detail ?? a.label).join(', ')}_`, '']
      : [];
    return ['## You', '', ...attached, message.text];
  }
  const out = ['## Assistant', ''];
  if (message.text) out.push(message.text, '');
  if (message.status === 'stopped') out.push('_(stopped by the user; partial answer)_', '');
  if (message.status === 'interrupted') out.push('_(interrupted; the answer may be incomplete)_', '');
  if (message.error) out.push(`> **Error:** ${message.error.message}${message.error.requestId ? ` (request ${message.error.requestId})` : ''}`, '');
  const meta = message.meta;
  const facts = [
    meta?.model && `model ${meta.model}`,
    meta?.requestId && `request ${meta.requestId}`,
    meta?.finishedAt && new Date(meta.finishedAt).toISOString(),
    meta?.creditsSpent !== undefined && `${formatCredits(meta.creditsSpent, SPEND_DIGITS)} credits`,
  ].filter(Boolean);
  if (facts.length) out.push(`<sub>${facts.join(' · ')}</sub>`);
  return out;
}
