/**
 * Pixel sizes read from the headers of the four image formats the client accepts, for the sidecar.
 * Only headers are read, never pixels; a header that does not parse gives undefined, not an error.
 */

export interface PixelSize {
  width: number;
  height: number;
}

function ascii(bytes: Uint8Array, start: number, end: number): string {
  return String.fromCharCode(...bytes.subarray(start, end));
}

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** From the IHDR chunk, which is always the first. */
export function pngDimensions(bytes: Uint8Array): PixelSize | undefined {
  if (bytes.length < 24 || !PNG_SIGNATURE.every((byte, index) => bytes[index] === byte)) return undefined;
  if (ascii(bytes, 12, 16) !== 'IHDR') return undefined;
  return { width: view(bytes).getUint32(16), height: view(bytes).getUint32(20) };
}

/** From the logical screen descriptor right after `GIF87a` / `GIF89a`. */
export function gifDimensions(bytes: Uint8Array): PixelSize | undefined {
  if (bytes.length < 10 || !/^GIF8[79]a$/.test(ascii(bytes, 0, 6))) return undefined;
  return { width: view(bytes).getUint16(6, true), height: view(bytes).getUint16(8, true) };
}

/** Start-of-frame markers (baseline, progressive, lossless, arithmetic); not DHT (C4), JPG (C8) or DAC (CC). */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

/** Walks the marker segments from SOI to the first start-of-frame, which holds height then width. */
export function jpegDimensions(bytes: Uint8Array): PixelSize | undefined {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined;
  const data = view(bytes);
  let offset = 2;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) return undefined;
    const marker = bytes[offset + 1];
    if (marker === 0xff) { // fill byte
      offset += 1;
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) { // no length
      offset += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return undefined; // end of image, or scan data before any frame
    const length = data.getUint16(offset + 2);
    if (length < 2) return undefined;
    if (isStartOfFrame(marker)) {
      if (offset + 9 > bytes.length) return undefined;
      return { height: data.getUint16(offset + 5), width: data.getUint16(offset + 7) };
    }
    offset += 2 + length;
  }
  return undefined;
}

/** From the first chunk of a RIFF/WEBP file: `VP8 ` (lossy), `VP8L` (lossless) or `VP8X` (extended). */
export function webpDimensions(bytes: Uint8Array): PixelSize | undefined {
  if (bytes.length < 30 || ascii(bytes, 0, 4) !== 'RIFF' || ascii(bytes, 8, 12) !== 'WEBP') return undefined;
  const data = view(bytes);
  switch (ascii(bytes, 12, 16)) {
    case 'VP8 ':
      // Frame tag (3 bytes), start code 9d 01 2a, then 14-bit width and height with 2 scale bits.
      if (bytes[23] !== 0x9d || bytes[24] !== 0x01 || bytes[25] !== 0x2a) return undefined;
      return { width: data.getUint16(26, true) & 0x3fff, height: data.getUint16(28, true) & 0x3fff };
    case 'VP8L': {
      if (bytes[20] !== 0x2f) return undefined;
      const bits = data.getUint32(21, true);
      return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
    }
    case 'VP8X': {
      const uint24 = (at: number) => bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16);
      return { width: uint24(24) + 1, height: uint24(27) + 1 };
    }
    default:
      return undefined;
  }
}

/** The pixel size of a PNG, JPEG, GIF or WebP file; undefined for anything else. */
export function imageDimensions(bytes: Uint8Array): PixelSize | undefined {
  return pngDimensions(bytes) ?? jpegDimensions(bytes) ?? webpDimensions(bytes) ?? gifDimensions(bytes);
}
