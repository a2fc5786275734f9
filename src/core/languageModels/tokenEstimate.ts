import { contentText } from '../api/contentParts';
import type { ChatRequestMessage, ChatTool } from '../api/types';

/**
 * The service publishes no tokenizer, so token counts are estimated, the same way every time:
 *
 * - one token per 4 ASCII characters (rounded up), which matches common tokenizers on English prose and
 *   code within a few percent and errs high on short words;
 * - one token per non-ASCII character (accented letters, CJK, emoji), where real tokenizers spend one
 *   or more tokens per character;
 * - 4 tokens per message for its role and framing, and a tool's name, description and JSON schema
 *   counted as text.
 *
 * It is linear in the text, needs no tables, and never says 0 for non-empty text. It is meant to refuse
 * requests that clearly exceed a model's input limit before they are sent (and billed), not to bill.
 */
export function estimateTextTokens(text: string): number {
  let ascii = 0;
  let other = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) ascii++;
    // A surrogate pair is one character: count its high half only.
    else if (code < 0xdc00 || code > 0xdfff) other++;
  }
  return Math.ceil(ascii / 4) + other;
}

export const TOKENS_PER_MESSAGE = 4;

export function estimateMessageTokens(message: ChatRequestMessage): number {
  let tokens = TOKENS_PER_MESSAGE + estimateTextTokens(contentText(message.content));
  if ('tool_calls' in message) {
    for (const call of message.tool_calls) tokens += estimateTextTokens(call.function.name) + estimateTextTokens(call.function.arguments);
  }
  return tokens;
}

export function estimateRequestTokens(messages: readonly ChatRequestMessage[], tools: readonly ChatTool[] = []): number {
  let tokens = 0;
  for (const message of messages) tokens += estimateMessageTokens(message);
  for (const tool of tools) tokens += estimateTextTokens(JSON.stringify(tool.function));
  return tokens;
}
