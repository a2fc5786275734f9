import vscode = require('vscode');
import { snapshotOf, STATUS_SNAPSHOT_KEY, type StatusItemSnapshot } from './statusSnapshot';
import type { Releasable } from './disposable';

/** How long the snapshot waits for more changes: a balance reading changes two items at once. */
const SAVE_DELAY_MS = 2_000;

/**
 * The extension's status-bar items: each adopts the item the shell drew from the last window's
 * snapshot (so nothing flickers out and in), and each change its owner reports is kept for the next
 * window's shell.
 */
export class StatusItems implements Releasable {
  readonly #memento: vscode.Memento;
  readonly #drawn: Map<string, vscode.StatusBarItem>;
  readonly #snapshots = new Map<string, StatusItemSnapshot>();
  #saveTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(memento: vscode.Memento, drawn: ReadonlyMap<string, vscode.StatusBarItem> = new Map()) {
    this.#memento = memento;
    this.#drawn = new Map(drawn);
  }

  /** The shell's item of that id when it drew one in the same place, else a new one. */
  create(id: string, alignment: vscode.StatusBarAlignment, priority: number): vscode.StatusBarItem {
    const drawn = this.#drawn.get(id);
    this.#drawn.delete(id);
    if (drawn && drawn.alignment === alignment && drawn.priority === priority) return drawn;
    drawn?.dispose();
    return vscode.window.createStatusBarItem(id, alignment, priority);
  }

  /** Items the shell drew that no owner took (a feature gone since the last window). */
  releaseUnadopted(): void {
    for (const item of this.#drawn.values()) item.dispose();
    this.#drawn.clear();
  }

  /** An owner updated its item: the next window starts from this (saved only when what it shows changed). */
  changed(item: vscode.StatusBarItem): void {
    const snapshot = snapshotOf(item);
    // The balance item updates every minute for its tooltip's age, which the snapshot leaves out.
    if (JSON.stringify(snapshot) === JSON.stringify(this.#snapshots.get(item.id))) return;
    this.#snapshots.set(item.id, snapshot);
    this.#saveTimer ??= setTimeout(() => void this.#save(), SAVE_DELAY_MS);
  }

  #save(): Thenable<void> {
    clearTimeout(this.#saveTimer);
    this.#saveTimer = undefined;
    return this.#memento.update(STATUS_SNAPSHOT_KEY, [...this.#snapshots.values()]);
  }

  /** Saves what is pending (deactivate() waits for it). */
  async dispose(): Promise<void> {
    this.releaseUnadopted();
    if (this.#saveTimer) await this.#save();
  }
}
