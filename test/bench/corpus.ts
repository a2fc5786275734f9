/**
 * A deterministic, realistic long answer: prose with inline markup and links, headings, tight and
 * loose lists, quotes, tables and fenced code in several languages, the way models write; plus the
 * stream of deltas a host would send for it.
 */

import { seededRandom } from '../shared/seededRandom';

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

/**
 * Splits text the way it reaches the webview: the model emits tokens of 1-8 characters, and the
 * host's batcher sends what accumulated in one ~16 ms window (here 1-6 tokens) as one append.
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
