import vscode = require('vscode');

/**
 * The part of the built-in Git extension's API (`vscode.git`, `getAPI(1)`; its git.d.ts) that
 * mentions use, declared here rather than copied whole: what a repository's working tree holds.
 */
export interface GitChange {
  readonly uri: vscode.Uri;
  /** The API's Status enum; 7 is UNTRACKED. */
  readonly status: number;
}

export interface GitRepository {
  readonly rootUri: vscode.Uri;
  readonly state: { readonly untrackedChanges?: readonly GitChange[]; readonly workingTreeChanges: readonly GitChange[] };
  /** `git diff` (working tree against the index), or with `cached` `git diff --cached` (index against HEAD). */
  diff(cached?: boolean): Promise<string>;
  /** Which of these absolute paths .gitignore (and the other exclude files) ignore. */
  checkIgnore(paths: string[]): Promise<Set<string>>;
}

export interface GitApi {
  readonly state: 'uninitialized' | 'initialized';
  readonly repositories: readonly GitRepository[];
  onDidChangeState(listener: (state: 'uninitialized' | 'initialized') => void): vscode.Disposable;
}

interface GitExtension {
  readonly enabled: boolean;
  getAPI(version: 1): GitApi;
}

const GIT_STATE_WAIT_MS = 5000;

/** The Git API once it has found the repositories, or the reason there is none (disabled, missing, restricted mode). */
export async function gitApi(): Promise<{ api: GitApi } | { unavailable: string }> {
  const extension = vscode.extensions.getExtension<GitExtension>('vscode.git');
  if (!extension) return { unavailable: vscode.l10n.t('The built-in Git extension is not installed.') };
  const exports = extension.isActive ? extension.exports : await extension.activate().then((e) => e, () => undefined);
  if (!exports?.enabled) {
    return { unavailable: vscode.l10n.t('Git is not available (the setting git.enabled is off, git is not installed, or the workspace is in Restricted Mode).') };
  }
  const api = exports.getAPI(1);
  if (api.state !== 'initialized') {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, GIT_STATE_WAIT_MS);
      const listener = api.onDidChangeState((state) => state === 'initialized' && done());
      function done(): void {
        clearTimeout(timer);
        listener.dispose();
        resolve();
      }
    });
  }
  return { api };
}
