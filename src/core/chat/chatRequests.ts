import type { AttachmentView, ChatImageMime, ComposerAttachmentKind, MentionItemView, MentionRefusal, MentionTarget, ChatParams, ChatWebviewState, ErrorActionId, Versioned } from './chatProtocol';

/**
 * What the chat webview asks of its host (the other half of the protocol, chatProtocol.ts): one
 * `ready` notification, everything else a request answered once by id, with a typed response.
 */

/** What the panel's model menu lists: the environment's chat models, the conversation's own and the environment's selection. */
export interface ChatModelsView {
  environment: string;
  models: string[];
  /** The conversation's own model; none when it uses the environment's. */
  current?: string;
  /** The environment's selected model, which a conversation without its own uses. */
  environmentModel?: string;
}

export interface ChatRequests {
  send: { text: string };
  stop: Record<string, never>;
  regenerate: Record<string, never>;
  /** Replace the last user message (and drop the answer after it), then resend. */
  editLast: { text: string };
  copyText: { text: string };
  insertCode: { code: string };
  openInNewFile: { code: string; language?: string };
  /** Propose the block as a change to a file, in a diff the user accepts or rejects; `info` is the fence's info string. */
  applyCode: { code: string; info?: string };
  openLink: { href: string };
  /** The models the panel's model menu offers (the environment's chat models), and which is in use. */
  chatModels: Record<string, never>;
  /**
   * The conversation's model from the panel's menu; none: the environment's. The host checks it is
   * listed. `answerAgain`: the failed answer whose card's Pick Model opened the menu, answered again
   * with the new model when it is still the last message.
   */
  setChatModel: { model?: string; answerAgain?: string };
  /** `image` opens a file dialog on the host. */
  attach: { kind: ComposerAttachmentKind };
  /** A pasted or dropped image: its name and its bytes in base64; the host checks both. */
  attachImage: { name: string; data: string };
  /** The bytes of an attached image (pending or sent), to show its thumbnail. */
  imageData: { id: string };
  removeAttachment: { id: string };
  /** The `#` picker's rows for what the user typed after `#`. */
  mentionQuery: { query: string };
  mention: MentionTarget;
  errorAction: { messageId: string; action: ErrorActionId };
  setParams: { params: ChatParams };
  newConversation: Record<string, never>;
  openHistory: Record<string, never>;
  renameConversation: Record<string, never>;
  exportMarkdown: Record<string, never>;
  requestSnapshot: Record<string, never>;
}

export type ChatMethod = keyof ChatRequests;

/** What each request answers with; `void` requests answer only that they are done. */
export interface ChatResponses {
  send: { attachments: AttachmentView[] };
  stop: void;
  regenerate: void;
  editLast: { attachments: AttachmentView[] };
  copyText: void;
  insertCode: void;
  openInNewFile: void;
  applyCode: void;
  openLink: void;
  chatModels: ChatModelsView;
  setChatModel: void;
  attach: { attachments: AttachmentView[] };
  attachImage: { attachments: AttachmentView[] };
  imageData: { mime: ChatImageMime; data: string };
  removeAttachment: { attachments: AttachmentView[] };
  mentionQuery: { items: MentionItemView[] };
  mention: { attachments: AttachmentView[]; refused?: MentionRefusal };
  errorAction: void;
  setParams: void;
  newConversation: void;
  openHistory: void;
  renameConversation: void;
  exportMarkdown: void;
  requestSnapshot: void;
}

export type ChatRequestMessage = {
  [M in ChatMethod]: Versioned & { type: 'request'; id: number; method: M; params: ChatRequests[M] };
}[ChatMethod];

export type WebviewToHost =
  | (Versioned & { type: 'ready'; state?: ChatWebviewState })
  | ChatRequestMessage;
