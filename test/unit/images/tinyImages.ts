/**
 * Tiny but real image files, built in the test (no binary fixtures in the repository): a solid colour
 * of any size in GIF (LZW), baseline JPEG (grayscale, one Huffman code each for DC and AC) and
 * lossless WebP (VP8L with single-symbol prefix codes). Each decodes in browsers and ImageMagick.
 */

/** Packs bit fields least significant bit first, as GIF's LZW and WebP's VP8L read them. */
class LsbBitWriter {
  readonly bytes: number[] = [];
  #current = 0;
  #used = 0;

  write(value: number, bits: number): void {
    for (let bit = 0; bit < bits; bit++) {
      this.#current |= ((value >>> bit) & 1) << this.#used;
      if (++this.#used === 8) this.flush();
    }
  }

  flush(): void {
    if (this.#used === 0) return;
    this.bytes.push(this.#current);
    this.#current = 0;
    this.#used = 0;
  }
}

const le16 = (value: number) => [value & 0xff, (value >>> 8) & 0xff];
const le32 = (value: number) => [...le16(value & 0xffff), ...le16(value >>> 16)];
const be16 = (value: number) => [(value >>> 8) & 0xff, value & 0xff];
const ascii = (text: string) => Array.from(text, (char) => char.charCodeAt(0));

export function tinyGif(width: number, height: number, rgb: [number, number, number] = [200, 30, 30]): Uint8Array {
  // Minimum code size 2: clear = 4, end = 5. A clear after every two pixels keeps every code 3 bits wide.
  const codes = new LsbBitWriter();
  for (let pixel = 0; pixel < width * height; pixel += 2) {
    codes.write(4, 3);
    codes.write(0, 3);
    if (pixel + 1 < width * height) codes.write(0, 3);
  }
  codes.write(5, 3);
  codes.flush();
  const blocks: number[] = [];
  for (let offset = 0; offset < codes.bytes.length; offset += 255) {
    const block = codes.bytes.slice(offset, offset + 255);
    blocks.push(block.length, ...block);
  }
  return new Uint8Array([
    ...ascii('GIF89a'), ...le16(width), ...le16(height), 0x80, 0, 0, // global colour table of 2
    ...rgb, 0, 0, 0,
    0x2c, ...le16(0), ...le16(0), ...le16(width), ...le16(height), 0, // image descriptor
    2, ...blocks, 0, // LZW data
    0x3b,
  ]);
}

export function tinyJpeg(width: number, height: number): Uint8Array {
  const segment = (marker: number, body: number[]) => [0xff, marker, ...be16(body.length + 2), ...body];
  const oneCodeTable = (tableClass: number, symbol: number) => [tableClass << 4, 1, ...new Array<number>(15).fill(0), symbol];
  // Every 8x8 block: DC difference of category 0 (code "0"), then end of block (code "0"): mid grey.
  const blocks = Math.ceil(width / 8) * Math.ceil(height / 8);
  const data: number[] = [];
  for (let bits = 2 * blocks; bits > 0; bits -= 8) data.push(bits >= 8 ? 0x00 : 0xff >>> bits);
  return new Uint8Array([
    0xff, 0xd8,
    ...segment(0xdb, [0, ...new Array<number>(64).fill(1)]),
    ...segment(0xc0, [8, ...be16(height), ...be16(width), 1, 1, 0x11, 0]),
    ...segment(0xc4, oneCodeTable(0, 0)),
    ...segment(0xc4, oneCodeTable(1, 0)),
    ...segment(0xda, [1, 1, 0x00, 0, 63, 0]),
    ...data,
    0xff, 0xd9,
  ]);
}

export function tinyWebp(width: number, height: number, argb: [number, number, number, number] = [255, 40, 120, 200]): Uint8Array {
  const bits = new LsbBitWriter();
  bits.write(width - 1, 14);
  bits.write(height - 1, 14);
  bits.write(0, 1); // alpha is not used
  bits.write(0, 3); // version
  bits.write(0, 1); // no transform
  bits.write(0, 1); // no colour cache
  bits.write(0, 1); // no meta prefix codes
  const [alpha, red, green, blue] = argb;
  // Green (with lengths), red, blue, alpha, distance: one symbol each, so every pixel takes 0 bits.
  for (const symbol of [green, red, blue, alpha]) {
    bits.write(1, 1); // simple code
    bits.write(0, 1); // one symbol
    bits.write(1, 1); // 8-bit symbol
    bits.write(symbol, 8);
  }
  bits.write(1, 1);
  bits.write(0, 1);
  bits.write(0, 1); // 1-bit symbol
  bits.write(0, 1);
  bits.flush();
  const payload = [0x2f, ...bits.bytes];
  const chunk = [...ascii('VP8L'), ...le32(payload.length), ...payload, ...(payload.length % 2 === 1 ? [0] : [])]; // RIFF pads to even
  return new Uint8Array([...ascii('RIFF'), ...le32(4 + chunk.length), ...ascii('WEBP'), ...chunk]);
}
