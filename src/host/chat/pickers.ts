import vscode = require('vscode');
import type { ChatEngine } from '../../core/chat/chatEngine';
import type { ChatModelsView } from '../../core/chat/chatRequests';
import type { Services } from '../services';
import type { ChatHistory } from './chatHistory';

/** What the panel's model menu lists (webview/modelMenu.ts): the environment's chat models. */
export async function conversationModels(services: Services, engine: ChatEngine): Promise<ChatModelsView> {
  const env = services.environments.active();
  const environmentModel = services.models.selectedChatModel(env.name);
  const current = engine.conversation.model;
  return { environment: env.label, models: await services.models.list('chat', env.name), ...(current !== undefined && { current }), ...(environmentModel !== undefined && { environmentModel }) };
}

/**
 * The conversation's model from a picker (undefined: the environment's); one the environment does not
 * list is refused (the webview's menu is untrusted input). Returns whether the conversation's model changed.
 */
export async function setConversationModel(services: Services, engine: ChatEngine, next: string | undefined): Promise<boolean> {
  const env = services.environments.active();
  if (next !== undefined && !(await services.models.list('chat', env.name)).includes(next)) {
    throw new Error(vscode.l10n.t('{0} does not list the model "{1}".', env.label, next));
  }
  if (next === undefined && !services.models.selectedChatModel(env.name)) {
    // No per-conversation model and none for the environment: let the user choose the environment's.
    await services.models.pickChatModel(env.name);
  }
  const current = engine.conversation.model;
  if (next === current) return next === undefined;
  await engine.setModel(next);
  return true;
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
      description: [vscode.l10n.t('{0} messages', s.messageCount), s.model].filter(Boolean).join(' · '),
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
