import vscode = require('vscode');
import { comparisonsLabel } from '../../core/chat/conversation';
import type { ModelMenuAccount } from '../../core/chat/modelMenu';
import type { Services } from '../shared/services';
import type { ChatHistory } from './history/chatHistory';

export type ModelMenuServices = Pick<Services, 'environments' | 'models'>;

/** The model menu's view of the account (core/chat/modelMenu.ts), from the environments and the model service. */
export function modelMenuAccount(services: ModelMenuServices): ModelMenuAccount {
  return {
    activeEnvironment: () => services.environments.active(),
    selectedChatModel: (env) => services.models.selectedChatModel(env),
    chatModels: (env) => services.models.list('chat', env),
    pickChatModel: (env) => services.models.pickChatModel(env),
  };
}

/** The history: pick a conversation to open, or delete one with its item button. (Rename is in the panel.) */
export async function pickConversation(history: ChatHistory, onDelete: (id: string) => Promise<void>): Promise<string | undefined> {
  const quickPick = vscode.window.createQuickPick<vscode.QuickPickItem & { id: string }>();
  const remove: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('trash'), tooltip: vscode.l10n.t('Delete') };
  quickPick.title = vscode.l10n.t('Chat history');
  quickPick.placeholder = vscode.l10n.t('Open a conversation');
  const load = async () => {
    quickPick.busy = true;
    const summaries = await history.store.list();
    quickPick.items = summaries.map((s) => ({
      id: s.id,
      label: s.title,
      description: [vscode.l10n.t('{0} messages', s.messageCount), s.model, comparisonsLabel(s)].filter(Boolean).join(' · '),
      detail: new Date(s.updatedAt).toLocaleString(),
      buttons: [remove],
    }));
    if (!summaries.length) quickPick.placeholder = vscode.l10n.t('No saved conversations yet');
    quickPick.busy = false;
  };
  // The index is checked against the files after each listing: a correction redraws the list.
  const changed = history.onDidChange(() => void load());
  try {
    return await new Promise<string | undefined>((resolve) => {
      quickPick.onDidAccept(() => {
        resolve(quickPick.selectedItems[0]?.id);
        quickPick.hide();
      });
      quickPick.onDidHide(() => resolve(undefined));
      quickPick.onDidTriggerItemButton(async ({ item }) => {
        await onDelete(item.id);
        await load();
      });
      quickPick.show();
      void load();
    });
  } finally {
    changed.dispose();
    quickPick.dispose();
  }
}
