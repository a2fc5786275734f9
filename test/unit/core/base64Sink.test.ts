import assert from 'node:assert/strict';
import { Base64Sink, NotBase64 } from '../../../src/core/api/base64Sink';
import { seededRandom } from '../../shared/seededRandom';

/** Bytes long enough that their base64 has runs for the native decoder (256 characters and more) and for the table loop. */
function randomBytes(length: number, seed: number): Buffer {
  const random = seededRandom(seed);
  return Buffer.from(Array.from({ length }, () => Math.floor(random() * 256)));
}

class TooLarge extends Error {}

/**
 * Feeds `content` (a JSON string's content, escapes included, then its closing quote and more JSON)
 * to a sink in the given pieces, as imageBody.ts does: each piece from where the last one stopped
 * until pushRun reports the quote. Returns the decoded bytes, or the error thrown.
 */
function decode(content: string, cuts: number[], maxBytes = 1 << 20): Buffer | Error {
  const body = Buffer.from(`${content}"}`, 'latin1');
  const sink = new Base64Sink(16, maxBytes, () => new TooLarge());
  const edges = [0, ...cuts, body.length];
  try {
    for (let piece = 0; piece + 1 < edges.length; piece++) {
      const chunk = body.subarray(edges[piece], edges[piece + 1]);
      const stop = sink.pushRun(chunk, 0);
      if (stop < chunk.length) {
        assert.equal(edges[piece] + stop, content.length, 'stops at the closing quote');
        return Buffer.from(sink.finish());
      }
    }
    throw new Error('the closing quote was never reported');
  } catch (error) {
    if (error instanceof NotBase64 || error instanceof TooLarge) return error;
    throw error;
  }
}

function assertDecodes(content: string, expected: Buffer, label: string): void {
  for (let cut = 0; cut <= content.length + 1; cut++) {
    const result = decode(content, [cut]);
    assert.ok(result instanceof Buffer && result.equals(expected), `${label}: split at ${cut} gave ${result instanceof Error ? result.name : 'other bytes'}`);
  }
}

describe('base64 decoded as a JSON string arrives (Base64Sink)', () => {
  it('decodes a string split at every position, for each padding (none, =, ==), through the native decoder and the table loop', () => {
    for (const length of [600, 601, 602, 1, 2, 3]) {
      const bytes = randomBytes(length, length);
      assertDecodes(bytes.toString('base64'), bytes, `${length} bytes`);
    }
  });

  it('decodes a string split into three pieces at many positions', () => {
    const bytes = randomBytes(400, 9);
    const content = bytes.toString('base64');
    for (let first = 0; first < content.length; first += 7) {
      for (let second = first; second <= content.length; second += 13) {
        const result = decode(content, [first, second]);
        assert.ok(result instanceof Buffer && result.equals(bytes), `cuts ${first}, ${second}`);
      }
    }
  });

  it('reads the escapes a JSON encoder writes (\\/, \\n and \\r line wrapping, \\u00XX) wherever the split falls, even inside the escape', () => {
    const bytes = randomBytes(1200, 3);
    const base64 = bytes.toString('base64');
    assertDecodes(base64.replace(/\//g, '\\/'), bytes, 'escaped slashes');
    assertDecodes(base64.replace(/.{76}/g, '$&\\r\\n'), bytes, 'line-wrapped');
    assertDecodes(base64.replace(/A/g, '\\u0041').replace(/=/g, '\\u003d'), bytes, '\\u escapes');
  });

  it('reads base64url', () => {
    const bytes = randomBytes(900, 4);
    assertDecodes(bytes.toString('base64url'), bytes, 'base64url');
  });

  it('refuses a character outside the alphabet at any position, in a long run (native decoder) or a short one', () => {
    const base64 = randomBytes(600, 5).toString('base64');
    for (const bad of ['#', ' ', '\u00e9', '\u0000']) {
      for (let at = 0; at < base64.length; at += 1) {
        const content = `${base64.slice(0, at)}${bad}${base64.slice(at + 1)}`;
        assert.ok(decode(content, [300]) instanceof NotBase64, `${JSON.stringify(bad)} at ${at}`);
      }
    }
  });

  it('refuses padding anywhere but the end, too much padding, an unfinished group, other escapes and an empty string', () => {
    const base64 = randomBytes(600, 6).toString('base64');
    for (const content of [`${base64.slice(0, 400)}==${base64.slice(400)}`, `${base64.slice(0, 401)}=`, `${base64}A`, `${base64.slice(0, 798)}===`, `${base64}\\t`, `${base64.slice(0, 100)}\\"${base64.slice(100)}`, '\\u00e9AAA', '']) {
      for (const cut of [0, 1, 399, 400, 401, 402, content.length]) {
        assert.ok(decode(content, [cut]) instanceof NotBase64, `${content.length} characters, split at ${cut}`);
      }
    }
  });

  it('stops at the decoded-size cap, and decodes exactly up to it', () => {
    const bytes = randomBytes(3000, 7);
    const content = bytes.toString('base64');
    for (const cut of [0, 1000, 2001]) {
      assert.ok(decode(content, [cut], 2999) instanceof TooLarge, `split at ${cut}`);
      assert.ok((decode(content, [cut], 3000) as Buffer).equals(bytes));
    }
  });
});
