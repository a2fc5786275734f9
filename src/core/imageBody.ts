/**
 * Reads an image result without ever holding its base64 text: a JSON string value that grows past
 * {@link LARGE_STRING_BYTES} and is base64 (optionally behind a `data:…;base64,` header) is decoded
 * byte by byte as the body arrives, and stands in the parsed JSON as a {@link DecodedString}. A 20 MB
 * image then costs its decoded bytes plus the response chunks in flight, instead of the body, its text,
 * the parsed string and the decoded bytes at once.
 */

/** A JSON string value that was decoded from base64 while it arrived. */
export class DecodedString {
  constructor(
    /** What preceded the base64: empty, or a data URL header up to and including its comma. */
    readonly header: string,
    readonly bytes: Uint8Array,
  ) {}
}

/** Strings shorter than this stay text: only image payloads are ever this long. */
export const LARGE_STRING_BYTES = 64 * 1024;

const MARKER = '\u0000inference-decoded:';

const BASE64_VALUES = (() => {
  const table = new Int8Array(256).fill(-1);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let index = 0; index < 64; index++) table[alphabet.charCodeAt(index)] = index;
  table['-'.charCodeAt(0)] = 62; // base64url
  table['_'.charCodeAt(0)] = 63;
  return table;
})();

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

class NotBase64 extends Error {}

/** Decodes base64 characters one at a time into one buffer, sized once from what is left of the body. */
class Base64Sink {
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

/** The JSON text around the large strings: small, so a doubling buffer is fine. */
class TextSink {
  bytes = Buffer.allocUnsafe(4096);
  length = 0;

  push(byte: number): void {
    if (this.length === this.bytes.length) {
      const larger = Buffer.allocUnsafe(this.bytes.length * 2);
      this.bytes.copy(larger);
      this.bytes = larger;
    }
    this.bytes[this.length++] = byte;
  }

  pushText(text: string): void {
    for (const byte of Buffer.from(text, 'utf8')) this.push(byte);
  }
}

export interface ImageBodyLimits {
  /** Bytes of the whole body. */
  maxBodyBytes: number;
  /** Decoded bytes of one large string. */
  maxDecodedBytes: number;
  declaredLength: number | undefined;
  onBodyTooLarge(): Error;
  onDecodedTooLarge(): Error;
  onNotBase64(): Error;
}

/** The header of a data URL with `;base64`, if `content` starts with one; '' for plain base64. */
function base64Header(content: Buffer): string | undefined {
  if (content.subarray(0, 5).toString('latin1').toLowerCase() !== 'data:') return '';
  const comma = content.indexOf(0x2c);
  if (comma < 0) return undefined;
  const header = content.subarray(0, comma + 1).toString('latin1');
  return /;base64,$/i.test(header) ? header : undefined;
}

/** Parses the body as JSON, with long base64 string values replaced by DecodedStrings. */
export async function readImageResultBody(body: AsyncIterable<Uint8Array>, limits: ImageBodyLimits): Promise<unknown> {
  if (limits.declaredLength !== undefined && limits.declaredLength > limits.maxBodyBytes) throw limits.onBodyTooLarge();
  const text = new TextSink();
  const decoded: DecodedString[] = [];
  let received = 0;
  let inString = false;
  let escaped = false;
  let stringStart = 0;
  /** Where the current string's content starts in the body, in bytes. */
  let stringOffset = 0;
  let triedLarge = false;
  let large: { sink: Base64Sink; header: string } | undefined;

  const startLarge = (): void => {
    triedLarge = true;
    const content = text.bytes.subarray(stringStart, text.length);
    const header = base64Header(content);
    if (header === undefined) return;
    // Everything from the string's first byte to the end of the body: an upper bound of its base64.
    const left = limits.declaredLength === undefined ? 1024 * 1024 : limits.declaredLength - stringOffset;
    const sink = new Base64Sink(Math.ceil((left * 3) / 4), limits.maxDecodedBytes, limits.onDecodedTooLarge);
    try {
      for (let index = header.length; index < content.length; index++) sink.push(content[index]);
    } catch (error) {
      if (error instanceof NotBase64) return; // long text that is not base64: it stays text
      throw error;
    }
    text.length = stringStart;
    large = { sink, header };
  };

  for await (const chunk of body) {
    received += chunk.length;
    if (received > limits.maxBodyBytes) throw limits.onBodyTooLarge();
    for (let index = 0; index < chunk.length; index++) {
      if (large) {
        try {
          index = large.sink.pushRun(chunk, index);
        } catch (error) {
          throw error instanceof NotBase64 ? limits.onNotBase64() : error;
        }
        if (index < chunk.length) { // the closing quote
          let bytes: Uint8Array;
          try {
            bytes = large.sink.finish();
          } catch (error) {
            throw error instanceof NotBase64 ? limits.onNotBase64() : error;
          }
          text.pushText(`\\u0000${MARKER.slice(1)}${decoded.length}"`);
          decoded.push(new DecodedString(large.header, bytes));
          large = undefined;
          inString = false;
        }
        continue;
      }
      const byte = chunk[index];
      text.push(byte);
      if (!inString) {
        if (byte === QUOTE) {
          inString = true;
          escaped = false;
          stringStart = text.length;
          stringOffset = received - chunk.length + index + 1;
          triedLarge = false;
        }
      } else if (escaped) {
        escaped = false;
      } else if (byte === BACKSLASH) {
        escaped = true;
      } else if (byte === QUOTE) {
        inString = false;
      } else if (!triedLarge && text.length - stringStart > LARGE_STRING_BYTES) {
        startLarge();
      }
    }
  }
  const parsed: unknown = JSON.parse(text.bytes.toString('utf8', 0, text.length));
  return restore(parsed, decoded);
}

function restore(value: unknown, decoded: DecodedString[]): unknown {
  if (typeof value === 'string' && value.startsWith(MARKER)) return decoded[Number(value.slice(MARKER.length))] ?? value;
  if (Array.isArray(value)) return value.map((item) => restore(item, decoded));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, restore(item, decoded)]));
  }
  return value;
}
