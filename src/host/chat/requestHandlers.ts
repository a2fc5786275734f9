import * as vscode from 'vscode';
import { createConversation } from '../../core/chat/conversation';
import { exportMarkdown } from '../../core/chat/exportMarkdown';
import { hostMessage, type ChatRequestMessage, type ChatRequests } from '../../core/chatProtocol';
import { ApiError } from '../../core/errors';
import type { Services } from '../services';
import type { ChatPanel, RequestHandler } from './chatPanel';
import { sanitizeParams } from './chatSettings';
import { captureContext, insertAtCursor, openInNewFile, openLink, type EditorTracker } from './editorContext';
import type { ChatHistoryStore } from './historyStore';
import { pickConversation, pickConversationModel } from './pickers';

type Handlers = { [M in keyof ChatRequests]: (panel: ChatPanel, params: ChatRequests[M]) => Promise<void> | void };

/** What each webview request does on the host. Errors thrown here become the request's error reply. */
export function createRequestHandler(
  services: Services,
  store: ChatHistoryStore,
  editors: EditorTracker,
  deleteConversation: (id: string) => Promise<void>,
): RequestHandler {
  const handlers: Handlers = {
    send: (panel, { text }) => panel.session.send(text),
    stop: (panel) => panel.session.stop(),
    regenerate: (panel) => panel.session.regenerate(),
    editLast: (panel, { text }) => panel.session.editLast(text),
    copyText: async (_panel, { text }) => {
      await vscode.env.clipboard.writeText(text);
      vscode.window.setStatusBarMessage('$(copy) Copied to the clipboard', 2500);
    },
    insertCode: (_panel, { code }) => insertAtCursor(editors.editor(), code),
    openInNewFile: (_panel, { code, language }) => openInNewFile(code, language),
    openLink: (_panel, { href }) => openLink(href),
    pickModel: async (panel) => {
      if (await pickConversationModel(services, panel.session)) panel.session.announceHeader();
    },
    attach: (panel, { kind }) => {
      const attachment = captureContext(editors.editor(), kind);
      panel.session.pendingAttachments = [...panel.session.pendingAttachments.filter((a) => a.kind !== kind || a.label !== attachment.label), attachment];
      panel.post(hostMessage('attachments', { attachments: panel.session.snapshotAttachments() }));
    },
    removeAttachment: (panel, { id }) => {
      panel.session.pendingAttachments = panel.session.pendingAttachments.filter((a) => a.id !== id);
      panel.post(hostMessage('attachments', { attachments: panel.session.snapshotAttachments() }));
    },
    errorAction: async (panel, { message, action }) => {
      const stored = panel.conversation.messages.find((m) => m.id === message);
      const card = stored?.error;
      if (!card) throw new Error('That message has no error any more.');
      const error = new ApiError('http', card.message, card.requestId ? { meta: { status: card.status ?? 0, requestId: card.requestId, receivedAt: 0 } } : {});
      if (action === 'retry') return panel.session.regenerate();
      if (action === 'pickModel') {
        // Picking a model from the card answers the question again with it.
        if (!(await pickConversationModel(services, panel.session))) return;
        panel.session.announceHeader();
        return panel.conversation.messages.at(-1)?.id === message ? panel.session.regenerate() : undefined;
      }
      await services.errors.run(action, error);
    },
    setParams: (panel, { params }) => {
      panel.conversation.params = sanitizeParams(params);
      panel.session.announceHeader();
      return panel.session.persist();
    },
    newConversation: async (panel) => {
      if (panel.conversation.messages.length === 0) return;
      await panel.session.persist();
      panel.load(createConversation());
    },
    openHistory: async (panel) => {
      const id = await pickConversation(store, deleteConversation);
      if (!id || id === panel.conversation.id) return;
      const conversation = await store.load(id);
      if (!conversation) throw new Error('That conversation could not be read.');
      panel.load(conversation);
    },
    renameConversation: async (panel) => {
      const title = await vscode.window.showInputBox({ title: 'Rename chat', value: panel.conversation.title, validateInput: (v) => (v.trim() ? undefined : 'A title cannot be empty.') });
      if (title !== undefined) await panel.session.rename(title);
    },
    exportMarkdown: async (panel) => {
      const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: exportMarkdown(panel.conversation) });
      await vscode.window.showTextDocument(document, { preview: false });
    },
    requestSnapshot: (panel) => panel.sendSnapshot(),
  };
  return async (panel: ChatPanel, request: ChatRequestMessage) => {
    const handler = handlers[request.method] as (panel: ChatPanel, params: unknown) => Promise<void> | void;
    await handler(panel, request.params);
  };
}
