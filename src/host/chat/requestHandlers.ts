import vscode = require('vscode');
import type { ChatEngine } from '../../core/chat/chatEngine';
import { imageAttachments, imageDataUrls } from '../../core/chat/conversation';
import { pastedImage, pickImages } from './context/chatImageFiles';
import { exportMarkdown } from '../../core/chat/exportMarkdown';
import type { ChatMethod, ChatRequestMessage, ChatRequests, ChatResponses } from '../../core/chat/protocol/chatRequests';
import type { Services } from '../shared/services';
import type { RequestHandler } from './surfaces/chatSurface';
import type { ChatSession } from './surfaces/chatSession';
import type { SurfaceConversations } from './surfaces/chatSurfaces';
import { applyCodeBlock } from './apply/applyCode';
import type { CodeProposals } from './apply/codeProposals';
import { captureContext, insertAtCursor, openInNewFile, openLink, type EditorTracker } from './context/editorContext';
import type { ChatHistory } from './history/chatHistory';
import type { Mentions } from './context/mentions';
import { conversationModels, setConversationModel } from '../../core/chat/modelMenu';
import { modelMenuAccount, pickConversation } from './pickers';

type Handlers = { [M in ChatMethod]: (engine: ChatEngine, params: ChatRequests[M], session: ChatSession) => Promise<ChatResponses[M]> | ChatResponses[M] };

/** What each webview request does on the host. Its result is the reply; errors thrown here become the error reply. */
export function createRequestHandler(
  services: Services,
  history: ChatHistory,
  editors: EditorTracker,
  mentions: Mentions,
  deleteConversation: (id: string) => Promise<void>,
  conversations: SurfaceConversations,
  proposals: CodeProposals,
): RequestHandler {
  const modelMenu = modelMenuAccount(services);
  const handlers: Handlers = {
    send: (engine, { text }) => engine.send(text),
    stop: (engine) => engine.stop(),
    regenerate: (engine) => engine.regenerate(),
    editLast: (engine, { text }) => engine.editLast(text),
    copyText: async (_engine, { text }) => {
      await vscode.env.clipboard.writeText(text);
      vscode.window.setStatusBarMessage(`$(copy) ${vscode.l10n.t('Copied to the clipboard')}`, 2500);
    },
    insertCode: (_engine, { code }) => insertAtCursor(editors.editor(), code),
    openInNewFile: (_engine, { code, language }) => openInNewFile(code, language),
    applyCode: (_engine, block) => applyCodeBlock(block, editors.editor(), proposals),
    openLink: async (_engine, { href }) => {
      await openLink(href);
    },
    chatModels: (engine) => conversationModels(modelMenu, engine),
    setChatModel: async (engine, { model, answerAgain }) => {
      if (await setConversationModel(modelMenu, engine, model)) engine.announceHeader();
      // The card's Pick Model: its question is answered again with the pick (even the same model: the
      // user asked for it), once, if nothing came after it.
      if (answerAgain !== undefined && engine.errorOf(answerAgain) && engine.isLastMessage(answerAgain)) await engine.regenerate();
    },
    attach: async (engine, { kind }) => {
      if (kind !== 'image') return { attachments: engine.attach(captureContext(editors.editor(), kind)) };
      for (const image of await pickImages()) engine.attach(image);
      return { attachments: engine.attachmentViews() };
    },
    attachImage: (engine, { name, data }) => ({ attachments: engine.attach(pastedImage(name, data)) }),
    imageData: async (engine, { id }) => {
      const { mime, data } = await engine.imageBytes(id);
      return { mime, data: Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64') };
    },
    removeAttachment: (engine, { id }) => ({ attachments: engine.removeAttachment(id) }),
    mentionQuery: async (_engine, { query }) => ({ items: await mentions.query(query) }),
    mention: async (engine, target) => {
      const resolved = await mentions.resolve(target);
      return 'message' in resolved ? { attachments: engine.attachmentViews(), refused: resolved } : { attachments: engine.attach(resolved) };
    },
    errorAction: async (engine, { messageId, action }) => {
      const error = engine.errorOf(messageId);
      if (!error) throw new Error(vscode.l10n.t('That message has no error any more.'));
      if (action === 'continue') return engine.continueAnswer(messageId);
      if (action === 'retry') return engine.regenerate();
      if (action === 'sendAnyway') {
        services.billing.allowOnce(services.environments.active().name);
        return engine.regenerate();
      }
      await services.errors.run(action, error);
    },
    setParams: (engine, { params }) => engine.setParams(params),
    newConversation: (_engine, _params, session) => conversations.showNew(session),
    // A conversation another surface shows is revealed there, not loaded here too.
    openHistory: async (_engine, _params, session) => {
      const id = await pickConversation(history, deleteConversation);
      if (id) await conversations.show(session, id);
    },
    renameConversation: async (engine) => {
      const title = await vscode.window.showInputBox({ title: vscode.l10n.t('Rename chat'), value: engine.conversation.title, validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('A title cannot be empty.')) });
      if (title !== undefined) await engine.rename(title);
    },
    exportMarkdown: async (engine) => {
      const { conversation } = engine;
      const images = await imageDataUrls(imageAttachments(conversation.messages), (file) => history.store.readImage(conversation.id, file));
      const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: exportMarkdown(conversation, images) });
      await vscode.window.showTextDocument(document, { preview: false });
    },
    requestSnapshot: (engine) => engine.showSnapshot(),
  };
  return async (session: ChatSession, request: ChatRequestMessage) => {
    const handler = handlers[request.method] as (engine: ChatEngine, params: unknown, session: ChatSession) => Promise<unknown>;
    return handler(session.engine, request.params, session);
  };
}
