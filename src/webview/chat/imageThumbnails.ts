import type { ChatResponses } from '../../core/chat/protocol/chatRequests';

/** Asks the host for an attached image's bytes; undefined when it could not give them. */
export type ImageLoader = (id: string) => Promise<ChatResponses['imageData'] | undefined>;

/**
 * Thumbnails of attached images. The host sends an image's bytes once per attachment id; they become
 * a `blob:` URL that only this script can mint, which is all the page's policy allows besides its own
 * assets (core/webviewHtml.ts): a data: or remote image in model output still cannot load.
 */
export class ImageThumbnails {
  readonly #urls = new Map<string, Promise<string | undefined>>();

  readonly #load: ImageLoader;

  constructor(load: ImageLoader) {
    this.#load = load;
  }

  image(id: string, label: string): HTMLImageElement {
    const img = document.createElement('img');
    img.className = 'thumbnail';
    img.alt = label;
    void this.#url(id).then((url) => {
      if (url) img.src = url;
    });
    return img;
  }

  #url(id: string): Promise<string | undefined> {
    let url = this.#urls.get(id);
    if (!url) {
      url = this.#load(id).then((reply) => reply && URL.createObjectURL(new Blob([base64Bytes(reply.data)], { type: reply.mime })));
      // A failed load is tried again the next time the chip is drawn.
      void url.then((value) => value ?? this.#urls.delete(id));
      this.#urls.set(id, url);
    }
    return url;
  }
}

export function base64Bytes(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function bytesBase64(bytes: Uint8Array): string {
  let binary = '';
  // In slices: String.fromCharCode takes its bytes as arguments, and a call has a limit on those.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
