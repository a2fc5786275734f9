import * as path from 'node:path';
import vscode = require('vscode');
import { chatImage, maxImageBytes, CHAT_IMAGE_EXTENSIONS } from '../../../core/chat/chatImages';
import { newId, type Attachment } from '../../../core/chat/conversation';
import { readSetting } from '../../shared/config';
import type { ChatForEditor } from './editorActions';
import type { Registered } from '../../shared/disposable';

/**
 * Images into the chat from the host's side: a file dialog (the composer's Attach Image button), a
 * pasted or dropped image the webview read, and *Send Image to Chat* on an image file (the Explorer's
 * context menu, e.g. on an image the extension generated). Each is checked by its magic bytes and
 * against `inference.chat.maxImageMB`; a refusal is an Error whose message says why.
 */

function imageAttachment(data: Uint8Array, name: string, detail?: string): Attachment {
  const image = chatImage(data, name, maxImageBytes(readSetting('inference.chat.maxImageMB')));
  return { id: newId(), kind: 'image', label: name, ...(detail !== undefined && { detail }), content: '', image };
}

export function pastedImage(name: string, base64: string): Attachment {
  // A name is only a label: the webview's file name is shown, never used as a path.
  const label = path.basename(name.replace(/\\/g, '/')).trim() || vscode.l10n.t('Pasted image');
  return imageAttachment(Buffer.from(base64, 'base64'), label);
}

export async function imageFromUri(uri: vscode.Uri): Promise<Attachment> {
  const data = await vscode.workspace.fs.readFile(uri);
  return imageAttachment(data, path.posix.basename(uri.path), vscode.workspace.asRelativePath(uri, false));
}

/** The file dialog; nothing when cancelled. */
export async function pickImages(): Promise<Attachment[]> {
  const picked = await vscode.window.showOpenDialog({
    canSelectMany: true,
    openLabel: vscode.l10n.t('Attach'),
    title: vscode.l10n.t('Attach images to the chat message'),
    filters: { [vscode.l10n.t('Images')]: Object.values(CHAT_IMAGE_EXTENSIONS).flatMap((ext) => (ext === 'jpg' ? ['jpg', 'jpeg'] : [ext])) },
  });
  return Promise.all((picked ?? []).map(imageFromUri));
}

/** *Send Image to Chat*: the Explorer passes the file; from the palette, a dialog asks for it. */
export function registerSendImageToChat(chatFor: ChatForEditor): Registered {
  return vscode.commands.registerCommand('inference.sendImageToChat', async (resource?: unknown) => {
    const attachments = resource instanceof vscode.Uri ? [await imageFromUri(resource)] : await pickImages();
    if (!attachments.length) return;
    const panel = chatFor(false);
    for (const attachment of attachments) panel.addContext(attachment, { focus: true });
  });
}
