import * as l10n from '@vscode/l10n';
import type { ErrorActionId } from '../errorActions';
import type { ErrorFacts } from '../errorView';
import type { ChatEngine } from './chatEngine';
import { imageAttachments, imageDataUrls, type Attachment, type Conversation } from './conversation';
import { exportMarkdown } from './exportMarkdown';
import { assertListed, conversationModels, setConversationModel, type ModelMenuAccount } from './modelMenu';
import type { EditorAttachmentKind, MentionItemView, MentionRefusal, MentionTarget } from './protocol/chatProtocol';
import type { ChatMethod, ChatRequests, ChatResponses } from './protocol/chatRequests';

/**
 * What the webview's requests do outside the conversation itself: VS Code's editors, pickers,
 * clipboard and the account. `Session` is the surface's session (a new conversation or one from the
 * history replaces what it shows).
 */
export interface ChatRequestHost<Session> {
  readonly modelMenu: ModelMenuAccount;
  copy(text: string): Promise<void>;
  insertCode(code: string): Promise<void>;
  openInNewFile(code: string, language: string | undefined): Promise<void>;
  applyCode(block: ChatRequests['applyCode']): Promise<void>;
  openLink(href: string): Promise<unknown>;
  /** The active editor's selection or file, as a chip (throws when there is no editor). */
  capture(kind: EditorAttachmentKind): Attachment;
  /** Images the user picks in VS Code's open dialog. */
  pickImages(): Promise<Attachment[]>;
  /** An image pasted or dropped on the composer (base64), checked by its bytes. */
  pastedImage(name: string, base64: string): Attachment;
  mentionRows(query: string): Promise<MentionItemView[]>;
  resolveMention(target: MentionTarget): Promise<Attachment | MentionRefusal>;
  /** Lets the active environment's next request past its spending limits, once (Send Anyway). */
  allowOnce(): void;
  /** An error card's action that the host carries out (Set API Key, Pick Model, …). */
  runErrorAction(action: ErrorActionId, error: ErrorFacts): Promise<void>;
  newConversation(session: Session): Promise<void>;
  /** Chat History's pick, shown in this surface (or revealed where another shows it). */
  openHistory(session: Session): Promise<void>;
  /** Asks for a new title; undefined: cancelled. */
  askTitle(current: string): Promise<string | undefined>;
  readImage(conversationId: string, file: string): Promise<Uint8Array>;
  /** Opens the exported Markdown in an editor. */
  showMarkdown(markdown: string): Promise<void>;
  /** Exports a comparison of a conversation (Inference: Export Comparison). */
  exportComparison(conversationId: string, turnId: string): Promise<void>;
  /** Shows the usage view filtered to a comparison's requests. */
  showComparisonUsage(turnId: string): Promise<void>;
  /** After the export of a conversation that has comparisons: offers Export Comparison for it (not awaited: a notification). */
  offerComparisonExport(conversationId: string): void;
}

type Handlers<Session> = { [M in ChatMethod]: (engine: ChatEngine, params: ChatRequests[M], session: Session) => Promise<ChatResponses[M]> | ChatResponses[M] };

/** What each webview request does. Its result is the reply; errors thrown here become the error reply. */
export function chatRequestHandlers<Session>(host: ChatRequestHost<Session>): Handlers<Session> {
  return {
    send: (engine, { text }) => engine.send(text),
    stop: (engine) => engine.stop(),
    regenerate: (engine) => engine.regenerate(),
    editLast: (engine, { text }) => engine.editLast(text),
    copyText: (_engine, { text }) => host.copy(text),
    insertCode: (_engine, { code }) => host.insertCode(code),
    openInNewFile: (_engine, { code, language }) => host.openInNewFile(code, language),
    applyCode: (_engine, block) => host.applyCode(block),
    openLink: async (_engine, { href }) => {
      await host.openLink(href);
    },
    chatModels: (engine) => conversationModels(host.modelMenu, engine),
    setChatModel: async (engine, { model, answerAgain }) => {
      if (await setConversationModel(host.modelMenu, engine, model)) engine.announceHeader();
      // The card's Pick Model: its question is answered again with the pick (even the same model: the
      // user asked for it), once, if nothing came after it.
      if (answerAgain !== undefined && engine.errorOf(answerAgain) && engine.isLastMessage(answerAgain)) await engine.regenerate();
    },
    attach: async (engine, { kind }) => {
      if (kind !== 'image') return { attachments: engine.attach(host.capture(kind)) };
      for (const image of await host.pickImages()) engine.attach(image);
      return { attachments: engine.attachmentViews() };
    },
    attachImage: (engine, { name, data }) => ({ attachments: engine.attach(host.pastedImage(name, data)) }),
    imageData: async (engine, { id }) => {
      const { mime, data } = await engine.imageBytes(id);
      return { mime, data: Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64') };
    },
    removeAttachment: (engine, { id }) => ({ attachments: engine.removeAttachment(id) }),
    mentionQuery: async (_engine, { query }) => ({ items: await host.mentionRows(query) }),
    mention: async (engine, target) => {
      const resolved = await host.resolveMention(target);
      return 'message' in resolved ? { attachments: engine.attachmentViews(), refused: resolved } : { attachments: engine.attach(resolved) };
    },
    errorAction: async (engine, { messageId, action }) => {
      const error = engine.errorOf(messageId);
      if (!error) throw new Error(l10n.t('That message has no error any more.'));
      if (action === 'continue') return engine.continueAnswer(messageId);
      if (action === 'retry') return engine.regenerate();
      if (action === 'sendAnyway') {
        host.allowOnce();
        return engine.regenerate();
      }
      await host.runErrorAction(action, error);
    },
    setParams: (engine, { params }) => engine.setParams(params),
    newConversation: (_engine, _params, session) => host.newConversation(session),
    openHistory: (_engine, _params, session) => host.openHistory(session),
    renameConversation: async (engine) => {
      const title = await host.askTitle(engine.conversation.title);
      if (title !== undefined) await engine.rename(title);
    },
    exportMarkdown: async (engine) => {
      const { conversation } = engine;
      await host.showMarkdown(await conversationMarkdown(conversation, host));
      if (conversation.messages.some((message) => message.comparison)) host.offerComparisonExport(conversation.id);
    },
    requestSnapshot: (engine) => engine.showSnapshot(),
    compareEstimate: (engine, { models, text }) => engine.comparisonEstimate(models, text),
    compare: async (engine, { models, text }) => {
      await assertListed(host.modelMenu, models);
      return engine.compare(text, models);
    },
    stopColumn: (engine, { columnId }) => engine.stopColumn(columnId),
    continueWith: (engine, { turnId, columnId }) => engine.continueWith(turnId, columnId),
    exportComparison: (engine, { turnId }) => host.exportComparison(engine.conversation.id, turnId),
    comparisonUsage: (_engine, { turnId }) => host.showComparisonUsage(turnId),
  };
}

/** The conversation as Markdown, its images inside as data URLs read from their files. */
async function conversationMarkdown(conversation: Conversation, host: Pick<ChatRequestHost<unknown>, 'readImage'>): Promise<string> {
  const images = await imageDataUrls(imageAttachments(conversation.messages), (file) => host.readImage(conversation.id, file));
  return exportMarkdown(conversation, images);
}
