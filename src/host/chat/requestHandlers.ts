import vscode = require('vscode');
import { chatRequestHandlers, type ChatRequestHost } from '../../core/chat/requestHandlers';
import type { ChatEngine } from '../../core/chat/chatEngine';
import type { ChatRequestMessage } from '../../core/chat/protocol/chatRequests';
import { pastedImage, pickImages } from './context/chatImageFiles';
import type { Services } from '../shared/services';
import type { RequestHandler } from './surfaces/chatSurface';
import type { ChatSession } from './surfaces/chatSession';
import type { SurfaceConversations } from './surfaces/chatSurfaces';
import { applyCodeBlock } from './apply/applyCode';
import type { CodeProposals } from './apply/codeProposals';
import { captureContext, insertAtCursor, openInNewFile, openLink, type EditorTracker } from './context/editorContext';
import type { ChatHistory } from './history/chatHistory';
import type { Mentions } from './context/mentions';
import { modelMenuAccount, pickConversation, type ModelMenuServices } from './pickers';
import { offerComparisonExport } from './exportComparison';

/** The model menu's account, Send Anyway's allowance (billing) and the error actions. */
export type RequestHandlerServices = ModelMenuServices & Pick<Services, 'billing' | 'environments' | 'errors'>;

/**
 * The webview's requests (core/chat/requestHandlers.ts decides what each does) on VS Code: its
 * editors, pickers, clipboard and dialogs, the account and the history.
 */
export function createRequestHandler(
  services: RequestHandlerServices,
  history: ChatHistory,
  editors: EditorTracker,
  mentions: Mentions,
  deleteConversation: (id: string) => Promise<void>,
  conversations: SurfaceConversations,
  proposals: CodeProposals,
): RequestHandler {
  const host: ChatRequestHost<ChatSession> = {
    modelMenu: modelMenuAccount(services),
    copy: async (text) => {
      await vscode.env.clipboard.writeText(text);
      vscode.window.setStatusBarMessage(`$(copy) ${vscode.l10n.t('Copied to the clipboard')}`, 2500);
    },
    insertCode: (code) => insertAtCursor(editors.editor(), code),
    openInNewFile: async (code, language) => {
      await openInNewFile(code, language);
    },
    applyCode: (block) => applyCodeBlock(block, editors.editor(), proposals),
    openLink,
    capture: (kind) => captureContext(editors.editor(), kind),
    pickImages,
    pastedImage,
    mentionRows: (query) => mentions.query(query),
    resolveMention: (target) => mentions.resolve(target),
    allowOnce: () => services.billing.allowOnce(services.environments.active().name),
    runErrorAction: (action, error) => services.errors.run(action, error),
    newConversation: (session) => conversations.showNew(session),
    // A conversation another surface shows is revealed there, not loaded here too.
    openHistory: async (session) => {
      const id = await pickConversation(history, deleteConversation);
      if (id) await conversations.show(session, id);
    },
    askTitle: (current) => Promise.resolve(vscode.window.showInputBox({ title: vscode.l10n.t('Rename chat'), value: current, validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('A title cannot be empty.')) })),
    readImage: (conversationId, file) => history.store.readImage(conversationId, file),
    showMarkdown: async (markdown) => {
      await openInNewFile(markdown, 'markdown');
    },
    // The commands take the ids as their arguments (the usage view and the report load on first use).
    exportComparison: async (conversationId, turnId) => { await vscode.commands.executeCommand('inference.exportComparison', { conversationId, turnId }); },
    showComparisonUsage: async (turnId) => { await vscode.commands.executeCommand('inference.showUsage', { comparison: turnId }); },
    offerComparisonExport: (conversationId) => void offerComparisonExport(conversationId),
  };
  const handlers = chatRequestHandlers(host);
  return async (session: ChatSession, request: ChatRequestMessage) => {
    const handler = handlers[request.method] as (engine: ChatEngine, params: unknown, session: ChatSession) => Promise<unknown>;
    return handler(session.engine, request.params, session);
  };
}
