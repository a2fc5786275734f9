import * as l10n from '@vscode/l10n';
/**
 * Keeps generated files inside the workspace folder: the folder setting is checked as text before
 * anything is written, and resolved paths are compared segment by segment (never by string prefix,
 * which would let `/home/u/ws-evil` pass as inside `/home/u/ws`).
 */

export type FolderSetting = { ok: true; segments: string[] } | { ok: false; problem: string };

/** Characters Windows refuses in a path segment, plus control characters. */
// eslint-disable-next-line no-control-regex
const INVALID_SEGMENT_CHARS = /[<>:"|?*\u0000-\u001f\u007f]/;

/**
 * Parses `inference.images.folder`: a path relative to the workspace folder, with `/` or `\`
 * separators. Absolute paths, drive letters, UNC paths, `~` and `..` that climb out are refused.
 * An empty value or `.` means the workspace folder itself.
 */
export function parseImageFolderSetting(value: string): FolderSetting {
  const text = value.trim();
  const refuse = (why: string): FolderSetting => ({
    ok: false,
    problem: l10n.t('The "inference.images.folder" setting ("{0}") {1} Use a folder inside the workspace, such as "images".', value, why),
  });
  if (/^[\\/]/.test(text)) return refuse(l10n.t('is an absolute path.'));
  if (/^[a-zA-Z]:/.test(text)) return refuse(l10n.t('names a drive.'));
  if (text.startsWith('~')) return refuse(l10n.t('points into a home folder.'));
  if (/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//.test(text)) return refuse(l10n.t('is a URI.'));
  const segments: string[] = [];
  for (const segment of text.split(/[\\/]+/)) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length === 0) return refuse(l10n.t('climbs out of the workspace with "..".'));
      segments.pop();
      continue;
    }
    if (INVALID_SEGMENT_CHARS.test(segment)) return refuse(l10n.t('has a character that is not allowed in a folder name ("{0}").', segment));
    if (/[. ]$/.test(segment)) return refuse(l10n.t('has a folder name ending in a dot or space ("{0}").', segment));
    segments.push(segment);
  }
  return { ok: true, segments };
}

function splitPath(path: string): string[] {
  return path.split(/[\\/]+/).filter((segment) => segment !== '' && segment !== '.');
}

/**
 * Whether `candidate` is `root` or below it. Both must be absolute and already resolved (no `..`);
 * a `..` segment anywhere in `candidate` makes it not inside. `caseInsensitive` for Windows and macOS
 * volumes, where `C:\Work` and `c:\work` are one folder.
 */
export function isPathInside(root: string, candidate: string, caseInsensitive = false): boolean {
  const fold = (segment: string) => (caseInsensitive ? segment.toLowerCase() : segment);
  const rootSegments = splitPath(root).map(fold);
  const candidateSegments = splitPath(candidate).map(fold);
  if (candidateSegments.includes('..') || rootSegments.includes('..')) return false;
  if (candidateSegments.length < rootSegments.length) return false;
  return rootSegments.every((segment, index) => candidateSegments[index] === segment);
}

/** Why images cannot be saved into this workspace, or undefined when they can. Checked before any request. */
export function workspaceRefusal(state: { trusted: boolean; writable: boolean | undefined }): string | undefined {
  if (!state.trusted) {
    return l10n.t('This workspace is not trusted, so Generate Image does not write into it. Nothing was generated or saved. Trust the workspace to save images here.');
  }
  if (state.writable === false) {
    return l10n.t('This workspace is read-only, so the image could not be saved there. Nothing was generated or saved.');
  }
  return undefined;
}
