import vscode = require('vscode');
import type { ChatFrame } from './chatSurface';

/** A chat surface in an editor tab: the tab is named after the conversation, and closing it closes the surface. */
export function panelFrame(panel: vscode.WebviewPanel): ChatFrame {
  return {
    kind: 'panel',
    webview: panel.webview,
    get visible() {
      return panel.visible;
    },
    get active() {
      return panel.active;
    },
    onDidChangeVisibility: panel.onDidChangeViewState,
    onDidDispose: panel.onDidDispose,
    showTitle: (title) => {
      panel.title = title;
    },
    reveal: (preserveFocus) => panel.reveal(undefined, preserveFocus),
    close: () => panel.dispose(),
  };
}
