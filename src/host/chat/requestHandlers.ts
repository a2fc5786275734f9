import vscode = require('vscode');
import { createConversation } from '../../core/chat/conversation';
import { exportMarkdown } from '../../core/chat/exportMarkdown';
import type { ChatMethod, ChatRequestMessage, ChatRequests, ChatResponses } from '../../core/chatProtocol';
import type { Services } from '../services';
import type { ChatPanel, RequestHandler } from './chatPanel';
import { captureContext, insertAtCursor, openInNewFile, openLink, type EditorTracker } from './editorContext';
import type { ChatHistoryStore } from './historyStore';
import { pickConversation, pickConversationModel } from './pickers';

type Handlers = { [M in ChatMethod]: (panel: ChatPanel, params: ChatRequests[M]) => Promise<ChatResponses[M]> | ChatResponses[M] };

/** What each webview request does on the host. Its result is the reply; errors thrown here become the error reply. */
export function createRequestHandler(
  services: Services,
  store: ChatHistoryStore,
  editors: EditorTracker,
  deleteConversation: (id: string) => Promise<void>,
): RequestHandler {
  const handlers: Handlers = {
    send: (panel, { text }) => panel.engine.send(text),
    stop: (panel) => panel.engine.stop(),
    regenerate: (panel) => panel.engine.regenerate(),
    editLast: (panel, { text }) => panel.engine.editLast(text),
    copyText: async (_panel, { text }) => {
      await vscode.env.clipboard.writeText(text);
      vscode.window.setStatusBarMessage(`$(copy) ${vscode.l10n.t('Copied to the clipboard')}`, 2500);
    },
    insertCode: (_panel, { code }) => insertAtCursor(editors.editor(), code),
    openInNewFile: (_panel, { code, language }) => openInNewFile(code, language),
    openLink: async (_panel, { href }) => {
      await openLink(href);
    },
    pickModel: async (panel) => {
      if (await pickConversationModel(services, panel.engine)) panel.engine.announceHeader();
    },
    attach: (panel, { kind }) => ({ attachments: panel.engine.attach(captureContext(editors.editor(), kind)) }),
    removeAttachment: (panel, { id }) => ({ attachments: panel.engine.removeAttachment(id) }),
    errorAction: async (panel, { messageId, action }) => {
      const error = panel.engine.errorOf(messageId);
      if (!error) throw new Error(vscode.l10n.t('That message has no error any more.'));
      if (action === 'retry') return panel.engine.regenerate();
      if (action === 'sendAnyway') {
        services.billing.allowOnce(services.environments.active().name);
        return panel.engine.regenerate();
      }
      if (action === 'pickModel') {
        // Picking a model from the card answers the question again with it.
        if (!(await pickConversationModel(services, panel.engine))) return;
        panel.engine.announceHeader();
        return panel.engine.isLastMessage(messageId) ? panel.engine.regenerate() : undefined;
      }
      await services.errors.run(action, error);
    },
    setParams: (panel, { params }) => panel.engine.setParams(params),
    newConversation: async (panel) => {
      if (panel.conversation.messages.length === 0) return;
      await panel.engine.persist();
      panel.engine.load(createConversation());
    },
    openHistory: async (panel) => {
      const id = await pickConversation(store, deleteConversation);
      if (!id || id === panel.conversation.id) return;
      const conversation = await store.load(id);
      if (!conversation) throw new Error(vscode.l10n.t('That conversation could not be read.'));
      panel.engine.load(conversation);
    },
    renameConversation: async (panel) => {
      const title = await vscode.window.showInputBox({ title: vscode.l10n.t('Rename chat'), value: panel.conversation.title, validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('A title cannot be empty.')) });
      if (title !== undefined) await panel.engine.rename(title);
    },
    exportMarkdown: async (panel) => {
      const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: exportMarkdown(panel.conversation) });
      await vscode.window.showTextDocument(document, { preview: false });
    },
    requestSnapshot: (panel) => panel.sendSnapshot(),
  };
  return async (panel: ChatPanel, request: ChatRequestMessage) => {
    const handler = handlers[request.method] as (panel: ChatPanel, params: unknown) => Promise<unknown>;
    return handler(panel, request.params);
  };
}
