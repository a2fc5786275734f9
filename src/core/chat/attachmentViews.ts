/**
 * The chat protocol's part about context: what can be attached to a question (by the composer's
 * buttons or a `#` mention), how its chip shows, and what the `#` picker offers. Re-exported by
 * protocol/chatProtocol.ts, which both sides import.
 */
export const ATTACHMENT_KINDS = ['selection', 'file', 'image', 'problems', 'terminal', 'changes'] as const;

/** The image types a message may carry (chat/chatImages.ts tells them by their bytes), and their file extensions. */
export const CHAT_IMAGE_EXTENSIONS = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/gif': 'gif' } as const;
export type ChatImageMime = keyof typeof CHAT_IMAGE_EXTENSIONS;
export type AttachmentKind = (typeof ATTACHMENT_KINDS)[number];
/** What the composer's own buttons attach (`attach`); the rest come from `#` mentions. */
export const COMPOSER_ATTACHMENT_KINDS = ['selection', 'file', 'image'] as const satisfies readonly AttachmentKind[];
export type ComposerAttachmentKind = (typeof COMPOSER_ATTACHMENT_KINDS)[number];
/** What is taken from the active editor. */
export type EditorAttachmentKind = Exclude<ComposerAttachmentKind, 'image'>;

/** What the webview shows of an attachment (the chip). The content itself stays on the host. */
export interface AttachmentView {
  id: string;
  kind: AttachmentKind;
  label: string;
  detail?: string;
  /** The content's length in characters, shown on the chip (text context, not images). */
  chars?: number;
  /** An image's type and size, for its chip; the webview asks for the bytes (`imageData`) to show it. */
  image?: { mime: ChatImageMime; bytes: number };
}

/** What the `#` picker offers: a workspace file, or one of the other sources of context. */
export const MENTION_KINDS = ['file', 'selection', 'problemsFile', 'problemsWorkspace', 'terminal', 'changes'] as const;
export type MentionKind = (typeof MENTION_KINDS)[number];

/** What the webview asks the host to attach; `path` (workspace-relative, as the picker listed it) only for files. */
export interface MentionTarget {
  kind: MentionKind;
  path?: string;
}

/** One row of the picker. */
export interface MentionItemView extends MentionTarget {
  label: string;
  detail?: string;
  /** Indexes in `label` (for a file, its path) of the characters the query matched. */
  matches?: number[];
  /** A file open in an editor. */
  open?: boolean;
}

/** Why a mention attached nothing: shown as an error chip, and nothing of it is sent. */
export interface MentionRefusal {
  label: string;
  message: string;
}
