import * as path from 'node:path';
import * as l10n from '@vscode/l10n';
import { isPathInside } from '../images/containment';

/**
 * Keeps Apply inside the workspace. A path a block names is resolved against the workspace folders
 * as text first (absolute paths outside them, `~`, URIs and `..` that climb out are refused), then the
 * host resolves symbolic links with `realTarget` and asks `isInsideWorkspace` again on the real path,
 * so that a link inside the workspace to a file outside it is refused too.
 */

export type Resolution = { ok: true; candidates: string[] } | { ok: false; reason: string };

/** Answers how a path exists on disk without following its last link: 'missing' when nothing is there. */
export interface PathProbe {
  realpath(p: string): Promise<string>;
  /** lstat: does an entry (a file, a folder or a link, even a dangling one) exist at `p`? */
  exists(p: string): Promise<boolean>;
}

function outside(named: string): Resolution {
  return { ok: false, reason: l10n.t('The code block names "{0}", which is outside the workspace. Apply changes files in the workspace only; nothing was changed.', named) };
}

/**
 * The absolute paths `named` can mean, one per workspace folder it stays inside (the host takes the
 * first that exists, else the first); `roots` are the folders' absolute paths.
 */
export function resolveNamedPath(roots: readonly string[], named: string, pathApi: path.PlatformPath = path): Resolution {
  const text = named.trim();
  if (/^~|^[a-z][a-z0-9+.-]*:\/\/|^[a-z]:/i.test(text) && !pathApi.isAbsolute(text)) return outside(named);
  const relative = text.replace(/^\.[\\/]/, '');
  const candidates = pathApi.isAbsolute(relative)
    ? [pathApi.normalize(relative)]
    : roots.map((root) => pathApi.resolve(root, relative));
  const inside = candidates.filter((candidate) => isInsideWorkspace(roots, candidate, pathApi));
  return inside.length > 0 ? { ok: true, candidates: [...new Set(inside)] } : outside(named);
}

/** Whether `candidate` (absolute, resolved) is in one of `roots`, compared segment by segment. */
export function isInsideWorkspace(roots: readonly string[], candidate: string, pathApi: path.PlatformPath = path): boolean {
  const caseInsensitive = pathApi.sep === '\\';
  return roots.some((root) => isPathInside(root, candidate, caseInsensitive));
}

/**
 * The real path `candidate` would be written at: its deepest existing ancestor with links resolved,
 * plus the missing rest. An entry that exists but cannot be resolved (a dangling link) has no real
 * path: writing there would follow the link wherever it points.
 */
export async function realTarget(candidate: string, probe: PathProbe, pathApi: path.PlatformPath = path): Promise<string | undefined> {
  const missing: string[] = [];
  let current = candidate;
  for (;;) {
    try {
      return pathApi.join(await probe.realpath(current), ...missing);
    } catch {
      if (await probe.exists(current)) return undefined;
      const parent = pathApi.dirname(current);
      if (parent === current) return undefined;
      missing.unshift(pathApi.basename(current));
      current = parent;
    }
  }
}
