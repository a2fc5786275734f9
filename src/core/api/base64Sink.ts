/**
 * The decoder behind imageBody.ts: the content of one JSON string, read as base64 while its bytes
 * arrive, straight into one buffer. Runs of plain base64 go to Node's native decoder in 4-character
 * groups (a JS loop over every character cost 2.4–2.8× JSON.parse + Buffer.from of the same body). It understands what a JSON encoder may put in a base64 string
 * (`\/`, `\n` line wrapping, `\u00XX`) and refuses anything else, so that long text that only looks
 * like base64 stays text.
 */

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
const EQUALS = 0x3d;

/** Runs shorter than this take the table loop: a native call has a fixed cost (a string, a call into C++) that a short run does not repay. */
const NATIVE_RUN = 256;

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

/** Decodes base64 characters into one buffer, sized once from what is left of the body. */
export class Base64Sink {
  #out: Buffer;
  #length = 0;
  #bits = 0;
  #accumulator = 0;
  #characters = 0;
  #padding = 0;
  #escape: string | undefined;

  readonly #maxBytes: number;
  readonly #onTooLarge: () => Error;

  constructor(capacity: number, maxBytes: number, onTooLarge: () => Error) {
    this.#maxBytes = maxBytes;
    this.#onTooLarge = onTooLarge;
    this.#out = Buffer.allocUnsafe(Math.max(1024, Math.min(capacity, maxBytes + 3)));
  }

  /**
   * Decodes `chunk` from `start` up to the string's closing quote; returns the quote's index, or the
   * chunk's length when the string goes on. A long run of plain base64 characters that starts on a
   * 4-character boundary goes to Node's native decoder in one call (its 4-aligned part); a short run
   * takes a table loop; escapes, padding and the characters between runs go through push().
   */
  pushRun(chunk: Uint8Array, start: number): number {
    const view = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    // Where the run ends: the next quote, backslash or '=', each found by a native search and searched
    // again only once passed (a line-wrapped string has a backslash every 77 characters).
    const stops = [QUOTE, BACKSLASH, EQUALS];
    const found = [-1, -1, -1];
    const runEnd = (from: number): number => {
      let end = view.length;
      for (let which = 0; which < stops.length; which++) {
        if (found[which] < from) {
          const at = view.indexOf(stops[which], from);
          found[which] = at < 0 ? view.length : at;
        }
        end = Math.min(end, found[which]);
      }
      return end;
    };
    let index = start;
    while (index < view.length) {
      if (this.#escape === undefined && this.#padding === 0 && this.#characters % 4 === 0) {
        const end = runEnd(index);
        const aligned = index + ((end - index) & ~3);
        if (aligned - index >= NATIVE_RUN) this.#decodeNative(view, index, aligned);
        else if (aligned > index) this.#decodeShort(view, index, aligned);
        index = aligned;
        if (index === view.length) return index;
      }
      const byte = view[index];
      if (byte === QUOTE && this.#escape === undefined) return index;
      this.push(byte);
      index += 1;
    }
    return index;
  }

  /** Room for `bytes` more decoded bytes, within the cap. */
  #reserve(bytes: number): void {
    if (this.#length + bytes > this.#maxBytes) throw this.#onTooLarge();
    if (this.#length + bytes > this.#out.length) this.#grow(this.#length + bytes);
  }

  /**
   * Whole groups of 4 characters that held no quote, backslash or '='. Node's decoder skips a
   * character outside the alphabet (base64url included) instead of failing, so fewer bytes than
   * 3 per group reveal one.
   */
  #decodeNative(chunk: Buffer, from: number, to: number): void {
    const expected = ((to - from) / 4) * 3;
    this.#reserve(expected);
    if (this.#out.write(chunk.toString('latin1', from, to), this.#length, expected, 'base64') !== expected) throw new NotBase64();
    this.#length += expected;
    this.#characters += to - from;
  }

  /** The same for a run too short to be worth a native call: 4 characters, 3 bytes at a time. */
  #decodeShort(chunk: Buffer, from: number, to: number): void {
    this.#reserve(((to - from) / 4) * 3);
    const out = this.#out;
    let length = this.#length;
    for (let index = from; index < to; index += 4) {
      const group = (BASE64_VALUES[chunk[index]] << 18) | (BASE64_VALUES[chunk[index + 1]] << 12) | (BASE64_VALUES[chunk[index + 2]] << 6) | BASE64_VALUES[chunk[index + 3]];
      if (group < 0) throw new NotBase64(); // a -1 (not base64) sets the sign bit
      out[length++] = group >>> 16;
      out[length++] = (group >>> 8) & 0xff;
      out[length++] = group & 0xff;
    }
    this.#length = length;
    this.#characters += to - from;
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
    if (byte === EQUALS) {
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
    if (this.#length >= this.#maxBytes) throw this.#onTooLarge();
    if (this.#length === this.#out.length) this.#grow();
    this.#out[this.#length++] = (this.#accumulator >>> this.#bits) & 0xff;
  }

  #grow(needed = this.#length + 1): void {
    const larger = Buffer.allocUnsafe(Math.min(Math.max(this.#out.length * 2, needed), this.#maxBytes + 3));
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
