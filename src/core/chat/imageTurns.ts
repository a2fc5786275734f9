import * as l10n from '@vscode/l10n';
import type { ChatImageMime } from './chatImages';
import type { ConversationMessage, ImageAttachment } from './conversation';

/** Statuses that refuse the request as sent (its content), not the caller or the moment: the turn is taken back. */
const REFUSED_REQUEST_STATUSES: ReadonlySet<number> = new Set([400, 413, 415, 422]);

/** The service's refusal of what an answer's question carried (a model that takes no images), if that is how it ended. */
export function refusalOfContent(answer: ConversationMessage): { model: string; message: string } | undefined {
  const { status, error, meta } = answer;
  if (status !== 'error' || error?.status === undefined || !REFUSED_REQUEST_STATUSES.has(error.status)) return undefined;
  return { model: meta?.model ?? '?', message: error.message };
}

/** The bytes of an attached image, for its thumbnail: held while pending, else read from its file. */
export async function attachedImageBytes(
  id: string,
  images: readonly ImageAttachment[],
  read: (file: string) => Promise<Uint8Array>,
): Promise<{ mime: ChatImageMime; data: Uint8Array }> {
  const found = images.find((a) => a.id === id);
  if (!found) throw new Error(l10n.t('That image is no longer attached.'));
  return { mime: found.image.mime, data: found.image.data ?? (await read(found.image.file)) };
}
