import vscode = require('vscode');
import type { SearchHit } from '../../../core/chat/history/historySearch';
import type { HistoryStore } from '../../../core/chat/history/historyStore';

/** Typing pauses this long before a search starts; each keystroke cancels the search before it. */
const TYPING_PAUSE_MS = 150;
/** Results shown at most: a query that matches more is too broad to scroll through. */
const MAX_RESULTS = 200;
/** The list is redrawn at most this often while results arrive (not once per result). */
const REDRAW_MS = 50;

export interface SearchChoice {
  id: string;
  /** The message that matched; absent when the title did. */
  messageId?: string;
}

type HitItem = vscode.QuickPickItem & { hit: SearchHit };

/**
 * "Inference: Search Chat History": searches the text of every conversation as the user types,
 * showing each matching conversation with a snippet as it is found. Closing the picker or typing on
 * cancels the search in progress.
 */
export async function searchChatHistory(store: HistoryStore): Promise<SearchChoice | undefined> {
  const quickPick = vscode.window.createQuickPick<HitItem>();
  quickPick.title = vscode.l10n.t('Search chat history');
  quickPick.placeholder = vscode.l10n.t('Search the text of every conversation');
  // The items are search results: the picker must not filter them again by their labels.
  quickPick.matchOnDescription = false;
  quickPick.matchOnDetail = false;
  let search: AbortController | undefined;
  let pause: ReturnType<typeof setTimeout> | undefined;

  const run = async (query: string, signal: AbortSignal) => {
    const items: HitItem[] = [];
    let redraw: ReturnType<typeof setTimeout> | undefined;
    const show = () => {
      redraw = undefined;
      if (!signal.aborted) quickPick.items = [...items];
    };
    quickPick.busy = true;
    quickPick.items = [];
    try {
      for await (const hit of store.search(query, signal)) {
        items.push({ hit, label: hit.title, description: new Date(hit.updatedAt).toLocaleString(), detail: hit.snippet, alwaysShow: true });
        redraw ??= setTimeout(show, items.length === 1 ? 0 : REDRAW_MS);
        if (items.length >= MAX_RESULTS) break;
      }
    } finally {
      if (redraw) clearTimeout(redraw);
      if (!signal.aborted) {
        show();
        quickPick.busy = false;
        quickPick.placeholder = items.length >= MAX_RESULTS
          ? vscode.l10n.t('The first {0} conversations found: type more to narrow the search', MAX_RESULTS)
          : items.length ? vscode.l10n.t('Search the text of every conversation') : vscode.l10n.t('No conversation contains “{0}”', query);
      }
    }
  };

  try {
    return await new Promise<SearchChoice | undefined>((resolve) => {
      quickPick.onDidChangeValue((value) => {
        search?.abort();
        if (pause) clearTimeout(pause);
        if (!value.trim()) {
          quickPick.items = [];
          quickPick.busy = false;
          return;
        }
        pause = setTimeout(() => {
          const controller = (search = new AbortController());
          void run(value, controller.signal);
        }, TYPING_PAUSE_MS);
      });
      quickPick.onDidAccept(() => {
        const hit = quickPick.selectedItems[0]?.hit;
        resolve(hit && { id: hit.id, ...(hit.messageId && { messageId: hit.messageId }) });
        quickPick.hide();
      });
      quickPick.onDidHide(() => resolve(undefined));
      quickPick.show();
    });
  } finally {
    search?.abort();
    if (pause) clearTimeout(pause);
    quickPick.dispose();
  }
}
