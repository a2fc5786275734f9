import vscode = require('vscode');

/**
 * The status-bar items as the last window left them, so that the next window's activation shows them
 * at once, before the extension's code has loaded (the shell draws them; the extension adopts them
 * and brings them up to date within milliseconds). Text, name and command only: nothing a
 * snapshot holds is secret (a balance, an environment's label, a model id), and a rich tooltip is
 * left out rather than shown stale.
 */
export const STATUS_SNAPSHOT_KEY = 'inference.statusItems';

export interface StatusItemSnapshot {
  id: string;
  name: string;
  right: boolean;
  priority: number;
  text: string;
  /** A plain-text tooltip; none for a Markdown one. */
  tooltip?: string;
  command?: string;
  warning: boolean;
}

const WARNING_BACKGROUND = 'statusBarItem.warningBackground';

function isSnapshot(value: unknown): value is StatusItemSnapshot {
  if (typeof value !== 'object' || value === null) return false;
  const item = value as Record<string, unknown>;
  return typeof item.id === 'string' && typeof item.name === 'string' && typeof item.right === 'boolean'
    && typeof item.priority === 'number' && typeof item.text === 'string' && typeof item.warning === 'boolean'
    && (item.tooltip === undefined || typeof item.tooltip === 'string') && (item.command === undefined || typeof item.command === 'string');
}

/** Global state is this extension's own, but a snapshot from another version may have another shape: anything else is skipped. */
export function readStatusSnapshots(memento: vscode.Memento): StatusItemSnapshot[] {
  const stored = memento.get<unknown>(STATUS_SNAPSHOT_KEY);
  return Array.isArray(stored) ? stored.filter(isSnapshot) : [];
}

export function snapshotOf(item: vscode.StatusBarItem): StatusItemSnapshot {
  const command = typeof item.command === 'string' ? item.command : item.command?.command;
  return {
    id: item.id, name: item.name ?? '', right: item.alignment === vscode.StatusBarAlignment.Right, priority: item.priority ?? 0,
    text: item.text, warning: item.backgroundColor?.id === WARNING_BACKGROUND,
    ...(typeof item.tooltip === 'string' && { tooltip: item.tooltip }),
    ...(command && { command }),
  };
}

/** Shows each item of the snapshot; the extension adopts them by id (StatusItems in statusItems.ts). */
export function drawStatusSnapshots(snapshots: readonly StatusItemSnapshot[]): Map<string, vscode.StatusBarItem> {
  const drawn = new Map<string, vscode.StatusBarItem>();
  for (const snapshot of snapshots) {
    const item = vscode.window.createStatusBarItem(snapshot.id, snapshot.right ? vscode.StatusBarAlignment.Right : vscode.StatusBarAlignment.Left, snapshot.priority);
    item.name = snapshot.name;
    item.text = snapshot.text;
    item.tooltip = snapshot.tooltip ?? snapshot.name;
    item.command = snapshot.command;
    if (snapshot.warning) item.backgroundColor = new vscode.ThemeColor(WARNING_BACKGROUND);
    item.show();
    drawn.set(snapshot.id, item);
  }
  return drawn;
}
