import type { MentionItemView } from '../protocol/chatProtocol';
import { FILE_NAME_BONUS, fuzzyMatch, matchPath } from './fuzzy';

/** Rows the picker shows at most: enough to scroll through, few enough to post on every keystroke. */
export const MAX_MENTION_ITEMS = 50;

/** Open editors rank above other files of the same match: they are what the user is working on. */
const OPEN_FILE_BONUS = 20;

export interface MentionSources {
  /** Selection, problems, terminal, changes: the host's labels, in the order shown for an empty query. */
  others: readonly MentionItemView[];
  /** Workspace-relative paths of the files open in editors, most recent first. */
  openFiles: readonly string[];
  /** Workspace-relative paths of the workspace's files (after files.exclude and .gitignore). */
  files: readonly string[];
}

/**
 * The picker's rows for `query` (what follows `#`). An empty query lists the other sources, then
 * the open editors, then files in the host's order; otherwise everything that matches, best first,
 * each with the positions that matched (the row highlights them).
 */
export function mentionItems(query: string, sources: MentionSources, limit = MAX_MENTION_ITEMS): MentionItemView[] {
  const open = new Set(sources.openFiles);
  const fileRow = (path: string): MentionItemView => ({ kind: 'file', path, label: path, ...(open.has(path) && { open: true }) });
  const files = [...sources.openFiles, ...sources.files.filter((path) => !open.has(path))];
  if (!query.trim()) return [...sources.others, ...files.map(fileRow)].slice(0, limit);

  const scored: { row: MentionItemView; score: number }[] = [];
  for (const other of sources.others) {
    const match = fuzzyMatch(query.trim(), other.label);
    // Scored as a file name: a source's label is what the user types, as a file's name is.
    if (match) scored.push({ row: { ...other, matches: match.positions }, score: match.score + FILE_NAME_BONUS });
  }
  for (const path of files) {
    const match = matchPath(query, path);
    if (match) scored.push({ row: { ...fileRow(path), matches: match.positions }, score: match.score + (open.has(path) ? OPEN_FILE_BONUS : 0) });
  }
  // Stable: equal scores keep the order above (other sources, open editors, then the host's order).
  return scored.sort((a, b) => b.score - a.score).slice(0, limit).map(({ row }) => row);
}
