/**
 * The key taken out of a success body the local endpoint relays as it arrives (an event stream, a
 * completion, a model list): a service or proxy that echoes the request's `Authorization` header
 * could put it anywhere. Text is cut at line ends, where no key can straddle (a key has no line
 * break, and neither has a JSON string or an SSE field), so nothing waits for the next read: a read
 * of whole events, the usual case, is passed on as it came when it holds no form of the key.
 *
 * An error event (`event: error`, or a `data:` line whose JSON has a top-level `error`) is error text:
 * its decoded strings are redacted of anything like a credential too (redactErrorText). Other lines
 * lose only the key's forms: a model's answer may say `token: x` and must reach its client unchanged.
 */
import { redactErrorText, redactKey, replaceSpans, secretSpans } from './redact';

/** A line longer than this is cut without its end (a one-line body of megabytes must not be held whole). */
const MAX_HELD_BYTES = 1024 * 1024;
/** What stays held when such a line is cut: more than any escaped form of a key can span. */
const KEPT_BYTES = 64 * 1024;

const LF = 0x0a;
const CR = 0x0d;
const PERCENT = 0x25;
const BACKSLASH = 0x5c;
const QUOTE = 0x22;
const ERROR_WORD = Buffer.from('"error"', 'latin1');
const EVENT_FIELD = Buffer.from('event:', 'latin1');

function isHexDigit(byte: number): boolean {
  return (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66);
}

function holdsAt(bytes: Uint8Array, at: number, word: Uint8Array): boolean {
  if (at + word.length > bytes.length) return false;
  for (let j = 0; j < word.length; j++) if (bytes[at + j] !== word[j]) return false;
  return true;
}

/**
 * One pass over whole lines, in plain JavaScript (Buffer.includes costs a native call per marker,
 * several times this whole loop on a 1 KB read): whether they hold an escape that could spell a key,
 * and whether they may hold an error event (a `"error"` outside a JSON string, or any `event:` line).
 * Every index is checked before it is read: a read past a typed array's end is V8's slow path.
 */
function inspect(bytes: Uint8Array): { escapes: boolean; errorLike: boolean } {
  let escapes = false;
  let errorLike = holdsAt(bytes, 0, EVENT_FIELD);
  const last = bytes.length - 1;
  for (let i = 0; i < last && !(escapes && errorLike); i++) {
    const byte = bytes[i];
    if (byte === BACKSLASH) {
      const next = bytes[i + 1];
      if (next === 0x75 || next === 0x55 || next === BACKSLASH || next === 0x2f) escapes = true;
      i++; // the escaped character: an escaped quote starts no "error"
    } else if (byte === PERCENT) {
      if (i + 2 <= last && isHexDigit(bytes[i + 1]) && isHexDigit(bytes[i + 2])) escapes = true;
    } else if (byte === QUOTE) {
      if (bytes[i + 1] === 0x65 && holdsAt(bytes, i, ERROR_WORD)) errorLike = true;
    } else if (byte === LF || byte === CR) {
      if (bytes[i + 1] === 0x65 && holdsAt(bytes, i + 1, EVENT_FIELD)) errorLike = true;
    }
  }
  return { escapes, errorLike };
}

/** A fixed byte string searched for with Horspool's skips: a read is crossed in about length / needle steps. */
class BytePattern {
  readonly #needle: Uint8Array;
  readonly #shift = new Uint32Array(256);

  constructor(needle: Uint8Array) {
    this.#needle = needle;
    this.#shift.fill(needle.length);
    for (let i = 0; i < needle.length - 1; i++) this.#shift[needle[i]] = needle.length - 1 - i;
  }

  foundIn(bytes: Uint8Array): boolean {
    const needle = this.#needle;
    const last = needle.length - 1;
    for (let at = 0; at + last < bytes.length; at += this.#shift[bytes[at + last]]) {
      let j = last;
      while (j >= 0 && bytes[at + j] === needle[j]) j--;
      if (j < 0) return true;
    }
    return false;
  }
}

/** The offset after the last line end, or 0; a CR at the very end may be half a CRLF and waits. */
function afterLastLineEnd(bytes: Buffer): number {
  for (let i = bytes.length - 1; i >= 0; i--) {
    if (bytes[i] === LF) return i + 1;
    if (bytes[i] === CR && i < bytes.length - 1) return i + 1;
  }
  return 0;
}

function isErrorData(json: string): boolean {
  try {
    const parsed: unknown = JSON.parse(json);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) && 'error' in parsed;
  } catch {
    return false;
  }
}

/** One relayed body's redaction, fed read by read. */
export class RelayRedactor {
  readonly #secrets: readonly string[];
  /** One per secret that contains no other (the key's part after its prefix is in the key). */
  readonly #patterns: readonly BytePattern[];
  readonly #latin1Secrets: readonly string[];
  #held: Buffer = Buffer.alloc(0);
  /** Inside an SSE event named `error`, until its blank line. */
  #inErrorEvent = false;

  /** `secrets` as `usableSecrets` returns them. */
  constructor(secrets: readonly string[]) {
    this.#secrets = secrets;
    const bytes = secrets.map((secret) => Buffer.from(secret, 'utf8'));
    this.#latin1Secrets = bytes.map((secret) => secret.toString('latin1'));
    this.#patterns = bytes.filter((secret, i) => !bytes.some((other, j) => j !== i && other.length < secret.length && secret.includes(other)))
      .map((secret) => new BytePattern(secret));
  }

  /** What can be passed on after this read (possibly nothing, while a line is unfinished). */
  push(chunk: Uint8Array): Buffer {
    const bytes = this.#held.length > 0 ? Buffer.concat([this.#held, chunk]) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const cut = afterLastLineEnd(bytes);
    if (cut > 0) {
      this.#held = bytes.subarray(cut);
      return this.#complete(bytes.subarray(0, cut));
    }
    if (bytes.length <= MAX_HELD_BYTES) {
      this.#held = bytes;
      return Buffer.alloc(0);
    }
    return this.#cutLongLine(bytes);
  }

  /** The rest, at the end of the body. */
  end(): Buffer {
    const rest = this.#held;
    this.#held = Buffer.alloc(0);
    return rest.length > 0 ? this.#complete(rest) : rest;
  }

  /** Whole lines: unchanged unless they hold a key, an escape that could spell one, or an error event. */
  #complete(bytes: Buffer): Buffer {
    const found = inspect(bytes);
    const errorLike = this.#inErrorEvent || found.errorLike;
    if (!errorLike && !found.escapes && !this.#patterns.some((pattern) => pattern.foundIn(bytes))) return bytes;
    const text = bytes.toString('utf8');
    const redacted = errorLike ? this.#redactLines(text) : redactKey(text, this.#secrets);
    return redacted === text ? bytes : Buffer.from(redacted, 'utf8');
  }

  #redactLines(text: string): string {
    const parts = text.split(/(\r\n|\r|\n)/);
    for (let i = 0; i < parts.length; i += 2) {
      const line = parts[i];
      const isLast = i === parts.length - 1;
      if (line === '' && !isLast) this.#inErrorEvent = false;
      else if (line.startsWith('event:')) this.#inErrorEvent = line.slice('event:'.length).trim() === 'error';
      const data = line.startsWith('data:') ? line.slice('data:'.length).trimStart() : undefined;
      parts[i] = data !== undefined && (this.#inErrorEvent || (data.includes('"error"') && isErrorData(data)))
        ? `data: ${redactErrorText(data, this.#secrets)}`
        : redactKey(line, this.#secrets);
    }
    return parts.join('');
  }

  /**
   * A line past MAX_HELD_BYTES: all but its last KEPT_BYTES go, extended past a key that straddles the
   * cut. Read as latin1, one character per byte, so that the cut is exact whatever the bytes are.
   */
  #cutLongLine(bytes: Buffer): Buffer {
    const text = bytes.toString('latin1');
    let cut = text.length - KEPT_BYTES;
    const spans = secretSpans(text, this.#latin1Secrets);
    for (const [start, end] of spans) if (start < cut && end > cut) cut = end;
    this.#held = bytes.subarray(cut);
    return Buffer.from(replaceSpans(text.slice(0, cut), spans.filter(([, end]) => end <= cut)), 'latin1');
  }
}

/** A relayed body with the key removed as it passes (see RelayRedactor). */
export async function* redactRelayedBody(body: AsyncIterable<Uint8Array>, secrets: readonly string[]): AsyncGenerator<Uint8Array, void, undefined> {
  const redactor = new RelayRedactor(secrets);
  for await (const chunk of body) {
    const out = redactor.push(chunk);
    if (out.length > 0) yield out;
  }
  const rest = redactor.end();
  if (rest.length > 0) yield rest;
}
