/**
 * File names derived from prompts, safe on Windows, macOS and Linux: no separators, no control or
 * reserved characters, no reserved device names, no trailing dots or spaces, bounded length.
 */

/** Code points kept from the prompt; long enough to recognise, short enough for any file system. */
export const MAX_NAME_CHARS = 60;

export const FALLBACK_NAME = 'image';

/** Windows device names are reserved with any extension and in any case (`con.png` is `CON`). */
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])$/i;

/** Letters, marks and digits of any script survive; everything else becomes a hyphen. */
const NOT_KEPT = /[^\p{L}\p{M}\p{N}]+/gu;

/** A name (without extension) for the image of `prompt`: lower-case words joined by hyphens. */
export function fileNameFromPrompt(prompt: string, maxChars = MAX_NAME_CHARS): string {
  const words = prompt.normalize('NFKC').toLowerCase().replace(NOT_KEPT, '-').replace(/^-+|-+$/g, '');
  // Cut by code points so that a surrogate pair is never split, then drop a hyphen left at the cut.
  const cut = Array.from(words).slice(0, maxChars).join('').replace(/-+$/, '');
  if (!cut) return FALLBACK_NAME;
  return WINDOWS_RESERVED.test(cut) ? `${cut}-${FALLBACK_NAME}` : cut;
}

const EXTENSIONS: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
};

/** The file extension for an image's MIME type; `bin` for a type we cannot name. */
export function extensionForMimeType(mimeType: string): string {
  return EXTENSIONS[mimeType.toLowerCase()] ?? 'bin';
}

/** How many numbered names are tried before a random suffix is used. */
export const MAX_NUMBERED_CANDIDATES = 999;

/**
 * The names to try, in order: `base.ext`, `base-2.ext`, … `base-999.ext`, then names with a random
 * suffix. The caller creates each one exclusively and moves on when it exists.
 */
export function* candidateFileNames(base: string, extension: string, random: () => string): Generator<string, never, undefined> {
  yield `${base}.${extension}`;
  for (let index = 2; index <= MAX_NUMBERED_CANDIDATES; index++) yield `${base}-${index}.${extension}`;
  for (;;) yield `${base}-${random()}.${extension}`;
}

/** The metadata file written next to an image (`sunset.png` → `sunset.png.json`). */
export function sidecarName(imageName: string): string {
  return `${imageName}.json`;
}
