/**
 * The decoder behind imageBody.ts: the content of one JSON string, read as base64 while its bytes
 * arrive, straight into one buffer. It understands what a JSON encoder may put in a base64 string
 * (`\/`, `\n` line wrapping, `\u00XX`) and refuses anything else, so that long text that only looks
 * like base64 stays text.
 */

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;

/** The string is not base64 after all (thrown by the sink, turned into an error or text by its caller). */
export class NotBase64 extends Error {}

const BASE64_VALUES = (() => {
  const table = new Int8Array(256).fill(-1);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let index = 0; index < 64; index++) table[alphabet.charCodeAt(index)] = index;
  table['-'.charCodeAt(0)] = 62; // base64url
  table['_'.charCodeAt(0)] = 63;
  return table;
})();

/** Decodes base64 characters one at a time into one buffer, sized once from what is left of the body. */
export class Base64Sink {
  #out: Buffer;
  #length = 0;
  #bits = 0;
  #accumulator = 0;
  #characters = 0;
  #padding = 0;
  #escape: string | undefined;

  constructor(capacity: number, private readonly maxBytes: number, private readonly onTooLarge: () => Error) {
    this.#out = Buffer.allocUnsafe(Math.max(1024, Math.min(capacity, maxBytes + 3)));
  }

  /**
   * Decodes `chunk` from `start` up to the string's closing quote; returns the quote's index, or the
   * chunk's length when the string goes on. Plain base64 characters take the tight loop; escapes and
   * padding go through push().
   */
  pushRun(chunk: Uint8Array, start: number): number {
    let index = start;
    while (index < chunk.length) {
      if (this.#escape === undefined && this.#padding === 0 && this.#length + chunk.length <= this.#out.length && this.#length + chunk.length <= this.maxBytes) {
        // Fast path: no escape pending, room for the whole chunk's worth of output.
        const out = this.#out;
        let length = this.#length;
        let accumulator = this.#accumulator;
        let bits = this.#bits;
        let characters = this.#characters;
        for (; index < chunk.length; index++) {
          const value = BASE64_VALUES[chunk[index]];
          if (value < 0) break;
          characters += 1;
          accumulator = ((accumulator << 6) | value) & 0xffffff;
          bits += 6;
          if (bits >= 8) {
            bits -= 8;
            out[length++] = (accumulator >>> bits) & 0xff;
          }
        }
        this.#length = length;
        this.#accumulator = accumulator;
        this.#bits = bits;
        this.#characters = characters;
        if (index === chunk.length) return index;
      }
      const byte = chunk[index];
      if (byte === QUOTE && this.#escape === undefined) return index;
      this.push(byte);
      index += 1;
    }
    return index;
  }

  /** One byte of the JSON string's content, escapes included; throws NotBase64 for anything else. */
  push(byte: number): void {
    if (this.#escape !== undefined) return this.#pushEscaped(byte);
    if (byte === BACKSLASH) {
      this.#escape = '';
      return;
    }
    this.#character(byte);
  }

  #pushEscaped(byte: number): void {
    const escape = this.#escape + String.fromCharCode(byte);
    if (escape === 'n' || escape === 'r') { // line-wrapped base64
      this.#escape = undefined;
      return;
    }
    if (escape === '/') {
      this.#escape = undefined;
      return this.#character(0x2f);
    }
    if (!/^u[0-9a-fA-F]{0,4}$/.test(escape)) throw new NotBase64();
    if (escape.length < 5) {
      this.#escape = escape;
      return;
    }
    this.#escape = undefined;
    const code = Number.parseInt(escape.slice(1), 16);
    if (code > 0x7f) throw new NotBase64();
    this.#character(code);
  }

  #character(byte: number): void {
    if (byte === 0x3d) { // '='
      this.#padding += 1;
      if (this.#padding > 2) throw new NotBase64();
      return;
    }
    const value = BASE64_VALUES[byte];
    if (value < 0 || this.#padding > 0) throw new NotBase64();
    this.#characters += 1;
    this.#accumulator = ((this.#accumulator << 6) | value) & 0xffffff;
    this.#bits += 6;
    if (this.#bits < 8) return;
    this.#bits -= 8;
    if (this.#length >= this.maxBytes) throw this.onTooLarge();
    if (this.#length === this.#out.length) this.#grow();
    this.#out[this.#length++] = (this.#accumulator >>> this.#bits) & 0xff;
  }

  #grow(): void {
    const larger = Buffer.allocUnsafe(Math.min(this.#out.length * 2, this.maxBytes + 3));
    this.#out.copy(larger, 0, 0, this.#length);
    this.#out = larger;
  }

  finish(): Uint8Array {
    const remainder = this.#characters % 4;
    if (this.#escape !== undefined || this.#characters === 0 || remainder === 1 || (this.#padding > 0 && (remainder + this.#padding) % 4 !== 0)) throw new NotBase64();
    // A buffer sized for several images keeps only what this one needs.
    return this.#length * 4 < this.#out.length * 3 ? Buffer.from(this.#out.subarray(0, this.#length)) : this.#out.subarray(0, this.#length);
  }
}
