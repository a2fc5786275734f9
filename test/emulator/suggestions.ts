/**
 * Answers to code-suggestion prompts: the emulator's choice (README), not service behaviour. A chat
 * request whose last user message shows a file with a cursor marker and asks for the text to insert
 * there gets a deterministic completion computed from the text around the marker (codeCompletion.ts)
 * instead of the generic reply, so that a demo of inline suggestions shows code and tests can predict
 * it. `SuggestionStyle` dresses the answer the way chat models disobey such prompts, so that tests
 * can show the client cleaning them.
 */
import { completeCode, type CodeSite } from './codeCompletion';
import type { ChatMessage } from './textgen';
import type { SuggestionStyle } from './types';

export const SUGGESTION_STYLES: readonly SuggestionStyle[] = ['plain', 'fenced', 'prose'];

export function isSuggestionStyle(value: unknown): value is SuggestionStyle {
  return SUGGESTION_STYLES.includes(value as SuggestionStyle);
}

/** What a suggestion prompt asks: the file around the marker, its language, and a line or a block. */
export interface SuggestionAsk extends CodeSite {
  readonly marker: string;
}

/** The last line of the message: "Reply with the text to insert at <MARKER>: <what>." */
const ASK_LINE = /^Reply with the text to insert at (.+?): (.+)$/;

/**
 * The recognition rule: the last message is the user's; its last line with text names a marker in
 * "Reply with the text to insert at <MARKER>: …"; an earlier line ends with "marked <MARKER>:"; the
 * text between that line and the last one holds the marker exactly once. A block is asked when the
 * last line says "block", else the rest of the line.
 */
export function readSuggestionAsk(messages: readonly ChatMessage[]): SuggestionAsk | undefined {
  const last = messages.at(-1);
  if (last?.role !== 'user') return undefined;
  const lines = last.content.split('\n');
  let askIndex = lines.length - 1;
  while (askIndex >= 0 && lines[askIndex].trim() === '') askIndex--;
  const ask = ASK_LINE.exec(lines[askIndex] ?? '');
  if (!ask) return undefined;
  const marker = ask[1];
  const headerIndex = lines.findIndex((line) => line.endsWith(`marked ${marker}:`));
  if (headerIndex < 0 || headerIndex >= askIndex) return undefined;
  // The file's text is followed by one empty line before the ask.
  const file = lines.slice(headerIndex + 1, askIndex).join('\n').replace(/\n$/, '');
  const at = file.indexOf(marker);
  if (at < 0 || file.includes(marker, at + marker.length)) return undefined;
  const field = (name: string) => lines.slice(0, headerIndex).find((line) => line.startsWith(`${name}: `))?.slice(name.length + 2).trim() ?? '';
  return {
    marker,
    prefix: file.slice(0, at),
    suffix: file.slice(at + marker.length),
    languageId: field('Language'),
    path: field('File'),
    mode: /\bblock\b/i.test(ask[2]) ? 'block' : 'line',
  };
}

/** The answer to a suggestion prompt in the given style, or undefined when the messages are no such prompt. */
export function suggestionReply(messages: readonly ChatMessage[], style: SuggestionStyle = 'plain'): string | undefined {
  const ask = readSuggestionAsk(messages);
  return ask && styled(completeCode(ask), ask.languageId, style);
}

export function styled(answer: string, languageId: string, style: SuggestionStyle): string {
  switch (style) {
    case 'plain': return answer;
    case 'fenced': return `\`\`\`${languageId}\n${answer}\n\`\`\``;
    case 'prose': return `Here is the completion:\n${answer}`;
  }
}
