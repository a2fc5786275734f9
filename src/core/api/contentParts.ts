import type { ChatContentPart } from './types';

/** The text of a message's content, whether a string, null (a tool call's turn) or content parts. */
export function contentText(content: string | null | readonly ChatContentPart[]): string {
  if (content === null) return '';
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}
