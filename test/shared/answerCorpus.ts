/**
 * A deterministic, realistic long answer: prose with inline markup and links, headings, tight and
 * loose lists, quotes, tables and fenced code in several languages, the way models write; plus the
 * stream of deltas a host would send for it. Shared by the renderer's unit tests and the benchmarks.
 */

import { AppendBatcher, type Timer } from '../../src/core/chat/appendBatcher';
import type { MessageView } from '../../src/core/chat/protocol/chatProtocol';
import { seededRandom } from './seededRandom';

const WORDS = ('the a request stream token model answer credit balance render frame block parse tail commit ' +
  'markdown sanitize highlight webview host protocol message delta snapshot function value error retry ' +
  'latency buffer chunk editor cursor selection context history export conversation').split(' ');

function sentence(rand: () => number): string {
  const n = 6 + Math.floor(rand() * 14);
  const words: string[] = [];
  for (let i = 0; i < n; i++) {
    let w = WORDS[Math.floor(rand() * WORDS.length)];
    const r = rand();
    if (r < 0.04) w = `**${w}**`;
    else if (r < 0.07) w = `\`${w}()\``;
    else if (r < 0.09) w = `*${w}*`;
    else if (r < 0.1) w = `[${w}](https://example.com/${w})`;
    words.push(w);
  }
  const s = words.join(' ');
  return s[0].toUpperCase() + s.slice(1) + '.';
}

function paragraph(rand: () => number): string {
  return Array.from({ length: 2 + Math.floor(rand() * 4) }, () => sentence(rand)).join(' ');
}

const CODE: Record<string, string[]> = {
  ts: ['export function total(items: number[]): number {', '  let sum = 0;', '  for (const item of items) sum += item; // add', '  return sum;', '}'],
  python: ['def fetch(url: str, retries: int = 3) -> bytes:', '    for attempt in range(retries):', '        if attempt > 0:', '            print(f"retry {attempt}")', '    return b""'],
  json: ['{', '  "model": "chat-small",', '  "stream": true,', '  "temperature": 0.2', '}'],
  bash: ['set -euo pipefail', 'for f in *.md; do', '  wc -c "$f"', 'done'],
};

function block(rand: () => number): string {
  const r = rand();
  if (r < 0.42) return paragraph(rand);
  if (r < 0.52) return `${'#'.repeat(2 + Math.floor(rand() * 2))} ${sentence(rand).slice(0, -1)}`;
  if (r < 0.64) return Array.from({ length: 2 + Math.floor(rand() * 5) }, () => `- ${sentence(rand)}`).join('\n');
  if (r < 0.7) return Array.from({ length: 3 }, (_, i) => `${i + 1}. ${sentence(rand)}`).join('\n\n');
  if (r < 0.76) return `> ${sentence(rand)}\n> ${sentence(rand)}`;
  if (r < 0.82) {
    const rows = Array.from({ length: 3 }, () => `| ${WORDS[Math.floor(rand() * WORDS.length)]} | ${Math.floor(rand() * 1000)} | ${sentence(rand)} |`);
    return ['| name | credits | note |', '|:-----|------:|:---:|', ...rows].join('\n');
  }
  const languages = Object.keys(CODE);
  const language = languages[Math.floor(rand() * languages.length)];
  const lines: string[] = [];
  const repeats = 1 + Math.floor(rand() * 3);
  for (let i = 0; i < repeats; i++) lines.push(...CODE[language]);
  return `\`\`\`${language}\n${lines.join('\n')}\n\`\`\``;
}

/**
 * A long conversation, ~`bytes` of text: questions and mixed-markdown answers of 2-20 KB, done, as
 * a conversation that grew over months holds them.
 */
export function conversationMessages(bytes: number): MessageView[] {
  const messages: MessageView[] = [];
  let size = 0;
  for (let turn = 0; size < bytes; turn++) {
    const question = `Question ${turn}: how would you ${['structure', 'test', 'profile', 'document'][turn % 4]} the part that handles ${turn % 7} inputs?`;
    const answer = longAnswer(2_000 + ((turn * 7919) % 18_000), turn + 1);
    messages.push({ id: `u${turn}`, role: 'user', text: question, createdAt: turn * 60_000 });
    messages.push({ id: `a${turn}`, role: 'assistant', text: answer, createdAt: turn * 60_000 + 1, status: 'done', meta: { model: 'bench-model' } });
    size += question.length + answer.length;
  }
  return messages;
}

export function longAnswer(bytes: number, seed = 42): string {
  const rand = seededRandom(seed);
  const blocks: string[] = [];
  let size = 0;
  while (size < bytes) {
    const next = block(rand);
    blocks.push(next);
    size += next.length + 2;
  }
  return blocks.join('\n\n').slice(0, bytes);
}

/** One long tight list of `bytes` (what makes a per-frame re-parse of the open block quadratic). */
export function longList(bytes: number, seed = 21): string {
  const rand = seededRandom(seed);
  const items: string[] = [];
  let size = 0;
  while (size < bytes) {
    const item = `- ${sentence(rand)}`;
    items.push(item);
    size += item.length + 1;
  }
  return items.join('\n');
}

/** One long table of `bytes`. */
export function longTable(bytes: number, seed = 22): string {
  const rand = seededRandom(seed);
  const rows = ['| name | credits | note |', '|:-----|------:|:---:|'];
  let size = 0;
  while (size < bytes) {
    const row = `| ${WORDS[Math.floor(rand() * WORDS.length)]} | ${Math.floor(rand() * 1000)} | ${sentence(rand)} |`;
    rows.push(row);
    size += row.length + 1;
  }
  return rows.join('\n');
}

/** One fenced TypeScript block of `lines` lines, closed. */
export function longFence(lines: number): string {
  const body: string[] = [];
  for (let i = 0; body.length < lines; i++) {
    body.push(...CODE.ts.map((line) => line.replace('total', `total${i}`)));
    body.push(`/* block ${i}`, ` * spans lines */`, `const s${i} = \`template \${i}\`;`);
  }
  return `\`\`\`ts\n${body.slice(0, lines).join('\n')}\n\`\`\`\n`;
}

/** The tokens a model emits for `text`: 1-8 characters each (about 4.5 on average, like BPE tokens of prose). */
export function modelTokens(text: string, seed = 7): string[] {
  const rand = seededRandom(seed);
  const tokens: string[] = [];
  for (let offset = 0; offset < text.length;) {
    const length = 1 + Math.floor(rand() * 8);
    tokens.push(text.slice(offset, offset + length));
    offset += length;
  }
  return tokens;
}

/**
 * The appends the host's real AppendBatcher sends for a model emitting `tokensPerSecond`, on a
 * virtual clock: at ~1,000 tokens/s one 24 ms window holds ~24 tokens; at ~20 tokens/s every token
 * travels alone.
 */
export function batchedAppends(text: string, tokensPerSecond: number, seed = 7): string[] {
  let now = 0;
  let due: { at: number; callback: () => void } | undefined;
  const timer: Timer = {
    set: (callback, ms) => (due = { at: now + ms, callback }),
    clear: () => (due = undefined),
  };
  const appends: string[] = [];
  const batcher = new AppendBatcher((a) => appends.push(a.text), {}, timer);
  const runDue = (until: number) => {
    while (due && due.at <= until) {
      const { callback } = due;
      due = undefined;
      callback();
    }
  };
  modelTokens(text, seed).forEach((token, i) => {
    now = (i * 1000) / tokensPerSecond;
    runDue(now);
    batcher.push(token);
  });
  batcher.flush();
  return appends;
}

/**
 * Splits text in small host-sized deltas (1-6 tokens of 1-8 characters), for the unit tests that
 * check streamed and one-shot renders agree.
 */
export function streamDeltas(text: string, seed = 7): string[] {
  const rand = seededRandom(seed);
  const deltas: string[] = [];
  let offset = 0;
  while (offset < text.length) {
    const tokens = 1 + Math.floor(rand() * 6);
    let length = 0;
    for (let i = 0; i < tokens; i++) length += 1 + Math.floor(rand() * 8);
    deltas.push(text.slice(offset, offset + length));
    offset += length;
  }
  return deltas;
}
