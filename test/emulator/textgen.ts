/** Deterministic reply text: depends only on the messages and the model, so tests can predict it. */
import { createHash } from 'node:crypto';
import type { ToolCall } from './tools';
import type { ImagePartLog } from './contentParts';

export interface ChatMessage {
  role: string;
  content: string;
  /** An assistant message's tool calls. */
  toolCalls?: ToolCall[];
  /** The call a `tool` message answers. */
  toolCallId?: string;
  /** A user message's image parts (their type and size). */
  images?: ImagePartLog[];
}

const FILLER = [
  'the', 'emulator', 'streams', 'deterministic', 'tokens', 'so', 'clients', 'can', 'test', 'parsing,',
  'billing', 'and', 'rendering', 'without', 'the', 'real', 'service;', 'naïve', 'café', 'résumé', '—',
  '“quoted”', 'words', 'and', '漢字', 'or', '🙂', 'appear', 'on', 'purpose.',
];

export function hashOf(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0);
}

/** A token is a word with its trailing whitespace (a rough stand-in for a real tokenizer). */
export function tokenize(text: string): string[] {
  return text.match(/\s*\S+\s*/gu) ?? [];
}

/** Prompt tokens of one image part, whatever its size. */
export const IMAGE_TOKENS = 85;

/** Prompt tokens: each message's words + 1, its tool calls' names and arguments, its images, and the tool definitions as JSON. */
export function countTokens(messages: readonly ChatMessage[], toolsJson = ''): number {
  const callTokens = (m: ChatMessage) => (m.toolCalls ?? []).reduce((sum, c) => sum + tokenize(`${c.name} ${c.arguments}`).length, 0);
  const imageTokens = (m: ChatMessage) => (m.images?.length ?? 0) * IMAGE_TOKENS;
  return messages.reduce((sum, m) => sum + tokenize(m.content).length + 1 + callTokens(m) + imageTokens(m), 0) + tokenize(toolsJson).length;
}

/** After tool results, the answer quotes them; otherwise it echoes the last user message. */
function echoOf(messages: readonly ChatMessage[]): string {
  const last = messages.at(-1);
  if (last?.role === 'tool') {
    const calls = new Map(messages.flatMap((m) => m.toolCalls ?? []).map((c) => [c.id, c.name]));
    const results = [];
    for (let i = messages.length - 1; i >= 0 && messages[i].role === 'tool'; i--) {
      results.unshift(`${calls.get(messages[i].toolCallId ?? '') ?? 'tool'} returned “${messages[i].content}”`);
    }
    return `Tool results: ${results.join('; ')}`;
  }
  const lastUser = [...messages].reverse().find((m) => m.role === 'user')?.content ?? '';
  return `You said: “${lastUser.length > 200 ? `${lastUser.slice(0, 200)}…` : lastUser}”`;
}

export function generateReply(messages: readonly ChatMessage[], model: string): string {
  const h = hashOf(`${model}\n${JSON.stringify(messages)}`);
  const fillerWords = 12 + (h % 24);
  const filler: string[] = [];
  for (let i = 0; i < fillerWords; i++) filler.push(FILLER[(h + i * 7) % FILLER.length]);
  return [
    echoOf(messages),
    '',
    `**${model}** answers with a short example — é, 漢字 and 🙂 included:`,
    '',
    '```ts',
    `const answer = ${h % 1000};`,
    'console.log(`answer: ${answer}`);',
    '```',
    '',
    `- messages received: ${messages.length}`,
    `- ${filler.join(' ')}`,
  ].join('\n');
}

/** About `bytes` of content for the large-stream fault, in pieces of ~1 KB. */
export function largeContentPieces(seedText: string, bytes = 1024 * 1024): string[] {
  const unit = `${seedText}\n\n`;
  const pieces: string[] = [];
  let total = 0;
  let piece = '';
  while (total < bytes) {
    piece += unit;
    if (Buffer.byteLength(piece) >= 1024) {
      pieces.push(piece);
      total += Buffer.byteLength(piece);
      piece = '';
    }
  }
  return pieces;
}
