/**
 * Reads an image result without ever holding its base64 text: a JSON string value that grows past
 * {@link LARGE_STRING_BYTES} and is base64 (optionally behind a `data:…;base64,` header) is decoded
 * as the body arrives, and stands in the parsed JSON as a {@link DecodedString}. A 20 MB
 * image then costs its decoded bytes plus the response chunks in flight, instead of the body, its text,
 * the parsed string and the decoded bytes at once.
 */

import { BACKSLASH, Base64Sink, NotBase64, QUOTE } from './base64Sink';

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
      sink.pushRun(content, header.length); // no closing quote in it: the string goes on
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
