import * as l10n from '@vscode/l10n';
import { describeBytes } from '../../byteSize';
import { formatChars } from './sizes';

/**
 * The text a mention sends, and the checks that refuse one. What the model reads (the diagnostics,
 * the diff, the terminal output) stays in English whatever the UI language; what the user reads
 * (sizes, refusals) goes through l10n.
 */

/** The setting that caps one attachment's size; named in the refusal so that the user can change it. */
export const CONTEXT_CAP_SETTING = 'inference.chat.maxContextCharacters';
export const DEFAULT_CONTEXT_CAP_CHARS = 200_000;

/** Git's own test: a NUL byte in the first 8,000 bytes. Text that is not UTF-8 is binary too (it would arrive as mojibake). */
const BINARY_PROBE_BYTES = 8000;

export function isBinary(bytes: Uint8Array): boolean {
  if (bytes.subarray(0, BINARY_PROBE_BYTES).includes(0)) return true;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return false;
  } catch {
    return true;
  }
}

/**
 * A UTF-8 file longer than this many bytes holds more than `cap` characters (UTF-16 code units: one
 * per 1 to 3 bytes, two per 4), so it is refused from its size alone, without reading it.
 */
export function maxBytesWithinCap(cap: number): number {
  return cap * 3;
}

/** Why content of this size is not attached, or undefined when it fits. */
export function capRefusal(label: string, chars: number, cap: number): string | undefined {
  if (chars <= cap) return undefined;
  return l10n.t('{0} has {1}, over the context cap of {2} (setting {3}). Select a part instead, or raise the cap.', label, formatChars(chars), formatChars(cap), CONTEXT_CAP_SETTING);
}

export type ProblemSeverity = 'error' | 'warning' | 'information' | 'hint';

export interface Problem {
  severity: ProblemSeverity;
  /** 1-based, as editors show them. */
  line: number;
  column: number;
  message: string;
  source?: string;
  code?: string;
}

export interface FileProblems {
  path: string;
  problems: Problem[];
}

/** One line per diagnostic, grouped by file, errors first: `src/a.ts:3:5 error TS2322: message (ts)`. */
export function problemsText(files: readonly FileProblems[]): string {
  const order: Record<ProblemSeverity, number> = { error: 0, warning: 1, information: 2, hint: 3 };
  const lines: string[] = [];
  for (const file of files) {
    const sorted = [...file.problems].sort((a, b) => order[a.severity] - order[b.severity] || a.line - b.line || a.column - b.column);
    for (const p of sorted) {
      const code = p.code ? ` ${p.code}` : '';
      const source = p.source ? ` (${p.source})` : '';
      lines.push(`${file.path}:${p.line}:${p.column} ${p.severity}${code}: ${p.message.replace(/\s*\n\s*/g, ' ')}${source}`);
    }
  }
  return lines.join('\n');
}

export function problemCount(files: readonly FileProblems[]): number {
  return files.reduce((sum, file) => sum + file.problems.length, 0);
}

export interface RepositoryChanges {
  /** The repository's folder as the user knows it (the workspace folder's name, and the path below it). */
  root: string;
  staged: string;
  unstaged: string;
  untracked: string[];
}

/** `git diff --cached` then `git diff`, then the untracked files' names, per repository. Empty parts are left out. */
export function changesText(repositories: readonly RepositoryChanges[]): string {
  const parts: string[] = [];
  for (const repo of repositories) {
    const where = repositories.length > 1 ? ` (${repo.root})` : '';
    if (repo.staged.trim()) parts.push(`# Staged changes${where}\n${repo.staged.trimEnd()}`);
    if (repo.unstaged.trim()) parts.push(`# Unstaged changes${where}\n${repo.unstaged.trimEnd()}`);
    if (repo.untracked.length) parts.push(`# Untracked files${where}\n${repo.untracked.join('\n')}`);
  }
  return parts.join('\n\n');
}

// CSI (colours, cursor moves), OSC (titles, shell integration marks) and single-character escapes.
// eslint-disable-next-line no-control-regex
const TERMINAL_ESCAPES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;

/** What a terminal wrote, as plain text: escape sequences removed, CR LF as LF, a CR within a line (progress redraws) keeps the last state. */
export function terminalPlainText(raw: string): string {
  return raw
    .replace(TERMINAL_ESCAPES, '')
    .replace(/\r\n/g, '\n')
    .split('\n')
    // What follows a carriage return is drawn over the line; a carriage return with nothing after it redraws nothing.
    .map((line) => line.split('\r').findLast((part) => part !== '') ?? '')
    .join('\n')
    .trimEnd();
}

/** A command and its output, as the model reads it. */
export function terminalCommandText(command: { commandLine: string; output: string; exitCode?: number }): string {
  const exit = command.exitCode === undefined ? '' : `\n(exit code ${command.exitCode})`;
  // Output written before VS Code reported the command's start (a command that ends at once) is not captured: say so.
  const output = terminalPlainText(command.output) || '(no output captured)';
  return `$ ${command.commandLine}\n${output}${exit}`;
}

/** A file too large on disk to hold at most `cap` characters (maxBytesWithinCap): refused before it is read. */
export function fileSizeRefusal(label: string, bytes: number, cap: number): string | undefined {
  if (bytes <= maxBytesWithinCap(cap)) return undefined;
  return l10n.t('{0} is {1}, over the context cap of {2} (setting {3}). Select a part instead, or raise the cap.', label, describeBytes(bytes), formatChars(cap), CONTEXT_CAP_SETTING);
}

export function binaryRefusal(label: string): string {
  return l10n.t('{0} is a binary file: only text can be attached.', label);
}

export function outsideWorkspaceRefusal(label: string): string {
  return l10n.t('{0} resolves to a path outside the workspace (through a link): only files inside the workspace can be attached.', label);
}
