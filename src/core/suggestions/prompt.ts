import type { ChatMessage, ChatRequest } from '../api/types';
import type { CompletionMode } from './completionShape';
import { headWindow, tailWindow } from './textWindows';

/**
 * The chat messages for one suggestion. A chat model has no fill-in-the-middle mode, so the file is
 * shown with the cursor marked by a token the file does not contain, and the system prompt asks for
 * the inserted text alone. What the model reads is bounded by one character budget, shared in this
 * order: the fixed parts (path, language, instructions), the text before the cursor (near it first),
 * the text after it, then snippets of other recently edited files (the most recent first).
 * The system prompt is a constant outside the budget. Protocol text for the model: kept in English.
 */

export interface PromptLimits {
  /** Characters of the user message, everything in it. */
  readonly totalChars: number;
  readonly maxPrefixChars: number;
  readonly maxSuffixChars: number;
  readonly maxSnippets: number;
  /** Characters of one snippet's text. */
  readonly maxSnippetChars: number;
}

/** About 2,000 tokens of context: enough for the code around a cursor, cheap on every keystroke pause. */
export const DEFAULT_PROMPT_LIMITS: PromptLimits = {
  totalChars: 8_000,
  maxPrefixChars: 4_000,
  maxSuffixChars: 1_500,
  maxSnippets: 3,
  maxSnippetChars: 800,
};

/** Room for a snippet's text smaller than this is not worth its header. */
export const MIN_SNIPPET_CHARS = 80;

/** Tokens per suggestion: a line is short; a block is bounded so that a runaway answer costs little. */
export const SUGGESTION_MAX_TOKENS: Readonly<Record<CompletionMode, number>> = { singleLine: 64, multiLine: 256 };

/** A region of another file the user edited lately (around the edit), as the host read it. */
export interface RecentSnippet {
  /** Workspace-relative. */
  readonly path: string;
  readonly text: string;
}

export interface SuggestionPromptInput {
  /** The text before the cursor (a window of the file is enough). */
  readonly prefix: string;
  readonly suffix: string;
  readonly languageId: string;
  /** The file's workspace-relative path. */
  readonly path: string;
  readonly mode: CompletionMode;
  /** The most recent first; the current file's own snippet, if any, is left out. */
  readonly recentSnippets: readonly RecentSnippet[];
}

export interface SuggestionPrompt {
  readonly messages: ChatMessage[];
  readonly cursorMarker: string;
  /** What of the text around the cursor and of the snippets the message carries. */
  readonly prefixWindow: string;
  readonly suffixWindow: string;
  readonly snippets: readonly RecentSnippet[];
}

export const SUGGESTION_SYSTEM_PROMPT = [
  'You complete code at a cursor.',
  'The user shows a file with the cursor marked by a placeholder token and names that token.',
  'Reply with only the text to insert at the cursor, exactly as it should appear in the file:',
  'no code fences, no explanations, and no repetition of the text before or after the cursor.',
  "Match the file's indentation and style.",
  'When asked for the rest of the line, reply with one line; when asked for a block, reply with the lines that complete it and stop at its end.',
  'If nothing fits, reply with nothing.',
].join(' ');

/** Markers a file seldom holds; the first one that none of the texts holds is used. */
const MARKER_CANDIDATES = ['<CURSOR>', '<|cursor|>', '<<<CURSOR>>>', '⟦CURSOR⟧'];

const WANTED: Readonly<Record<CompletionMode, string>> = {
  singleLine: 'the rest of the current line only, on one line',
  multiLine: 'the lines that complete the current block, and nothing after its end',
};

export function buildSuggestionPrompt(input: SuggestionPromptInput, limits: PromptLimits = DEFAULT_PROMPT_LIMITS): SuggestionPrompt {
  const cursorMarker = chooseMarker([input.prefix, input.suffix, input.path, ...input.recentSnippets.map((snippet) => snippet.text)]);
  const compose = (prefixWindow: string, suffixWindow: string, snippets: readonly RecentSnippet[]) =>
    userMessage(input, cursorMarker, prefixWindow, suffixWindow, snippets);
  // The message grows by exactly the windows' lengths, so each share is what the parts before it left.
  const fixed = compose('', '', []).length;
  const prefixWindow = tailWindow(input.prefix, Math.min(limits.maxPrefixChars, limits.totalChars - fixed));
  const suffixWindow = headWindow(input.suffix, Math.min(limits.maxSuffixChars, limits.totalChars - fixed - prefixWindow.length));
  const snippets: RecentSnippet[] = [];
  for (const candidate of snippetCandidates(input, limits.maxSnippets)) {
    const free = limits.totalChars - compose(prefixWindow, suffixWindow, [...snippets, { path: candidate.path, text: '' }]).length;
    if (free < MIN_SNIPPET_CHARS) break;
    const text = headWindow(candidate.text, Math.min(limits.maxSnippetChars, free));
    if (text.trim()) snippets.push({ path: candidate.path, text });
  }
  return {
    messages: [
      { role: 'system', content: SUGGESTION_SYSTEM_PROMPT },
      { role: 'user', content: compose(prefixWindow, suffixWindow, snippets) },
    ],
    cursorMarker,
    prefixWindow,
    suffixWindow,
    snippets,
  };
}

/** The chat request for a suggestion: deterministic, and bounded in tokens by its mode. */
export function suggestionRequest(model: string, prompt: SuggestionPrompt, mode: CompletionMode): ChatRequest {
  return { model, messages: prompt.messages, temperature: 0, max_tokens: SUGGESTION_MAX_TOKENS[mode] };
}

/** A token none of the texts holds, so that the message shows the cursor exactly once. */
export function chooseMarker(texts: readonly string[]): string {
  const free = (marker: string) => texts.every((text) => !text.includes(marker));
  const candidate = MARKER_CANDIDATES.find(free);
  if (candidate) return candidate;
  for (let number = 1; ; number++) {
    if (free(`<CURSOR_${number}>`)) return `<CURSOR_${number}>`;
  }
}

/** Other files' snippets with text, one per file, the most recent first. */
function snippetCandidates(input: SuggestionPromptInput, maxSnippets: number): RecentSnippet[] {
  const seen = new Set([samePath(input.path)]);
  const candidates: RecentSnippet[] = [];
  for (const snippet of input.recentSnippets) {
    if (candidates.length >= maxSnippets) break;
    const path = samePath(snippet.path);
    if (seen.has(path) || !snippet.text.trim()) continue;
    seen.add(path);
    candidates.push(snippet);
  }
  return candidates;
}

/** One spelling of a workspace-relative path, whichever separator the host used. */
function samePath(path: string): string {
  return path.replace(/\\/g, '/').replace(/^\.\//, '');
}

function userMessage(input: SuggestionPromptInput, marker: string, prefixWindow: string, suffixWindow: string, snippets: readonly RecentSnippet[]): string {
  const parts = [`File: ${input.path}`, `Language: ${input.languageId}`, ''];
  if (snippets.length > 0) {
    parts.push('Recently edited in other files:');
    for (const snippet of snippets) parts.push(`--- ${snippet.path} ---`, snippet.text, '--- end ---');
    parts.push('');
  }
  parts.push(`The file around the cursor, which is marked ${marker}:`, `${prefixWindow}${marker}${suffixWindow}`, '');
  parts.push(`Reply with the text to insert at ${marker}: ${WANTED[input.mode]}.`);
  return parts.join('\n');
}
