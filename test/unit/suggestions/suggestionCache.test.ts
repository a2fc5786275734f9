import assert from 'node:assert/strict';
import { type CursorPlace, SuggestionCache } from '../../../src/core/suggestions/suggestionCache';

/** The place of the cursor at `offset` in a document's text. */
function placeIn(document: string, text: string, offset: number): CursorPlace {
  return { document, offset, prefix: text.slice(0, offset), suffix: text.slice(offset) };
}

/** The text with `typed` inserted at `offset`, and the place after it. */
function typeAt(document: string, text: string, offset: number, typed: string): CursorPlace {
  return placeIn(document, text.slice(0, offset) + typed + text.slice(offset), offset + typed.length);
}

describe('suggestions: the cache of recent suggestions', () => {
  const text = 'function sum(a, b) {\n  return \n}\n';
  const cursor = text.indexOf('return ') + 'return '.length;

  it('finds a suggestion at the place it was stored, and nothing elsewhere', () => {
    const cache = new SuggestionCache();
    cache.set(placeIn('file:///a.ts', text, cursor), 'a + b;');
    assert.equal(cache.get(placeIn('file:///a.ts', text, cursor)), 'a + b;');
    assert.equal(cache.get(placeIn('file:///a.ts', text, cursor - 1)), undefined);
    assert.equal(cache.get(placeIn('file:///a.ts', text.replace('}\n', '}\nmore();\n'), cursor)), undefined, 'other text after the cursor');
  });

  it('keeps documents apart: the same text in another document is another place', () => {
    const cache = new SuggestionCache();
    cache.set(placeIn('file:///a.ts', text, cursor), 'a + b;');
    assert.equal(cache.get(placeIn('file:///b.ts', text, cursor)), undefined);
    cache.set(placeIn('file:///b.ts', text, cursor), 'b - a;');
    assert.equal(cache.get(placeIn('file:///a.ts', text, cursor)), 'a + b;');
    assert.equal(cache.get(placeIn('file:///b.ts', text, cursor)), 'b - a;');
  });

  it('finds the place by the text near the cursor, wherever the document changed further away', () => {
    const cache = new SuggestionCache({ prefixKeyChars: 10, suffixKeyChars: 5 });
    const file = text + '// the end\n';
    cache.set(placeIn('doc', file, cursor), 'a + b;');
    const edited = '// header\n' + file + 'footer();\n';
    assert.equal(cache.get(placeIn('doc', edited, cursor + '// header\n'.length)), 'a + b;');
  });

  it('gives the rest of a suggestion the user is typing through, without a new entry', () => {
    const cache = new SuggestionCache();
    cache.set(placeIn('doc', text, cursor), 'a + b;');
    assert.equal(cache.get(typeAt('doc', text, cursor, 'a')), ' + b;');
    assert.equal(cache.get(typeAt('doc', text, cursor, 'a + ')), 'b;');
    assert.equal(cache.size, 1);
  });

  it('gives nothing once the typed text leaves the suggestion, or covers all of it', () => {
    const cache = new SuggestionCache();
    cache.set(placeIn('doc', text, cursor), 'a + b;');
    assert.equal(cache.get(typeAt('doc', text, cursor, 'a -')), undefined);
    assert.equal(cache.get(typeAt('doc', text, cursor, 'x')), undefined);
    assert.equal(cache.get(typeAt('doc', text, cursor, 'a + b;')), undefined);
    assert.equal(cache.get(typeAt('other', text, cursor, 'a')), undefined, 'the same typing in another document');
  });

  it('types through a multi-line suggestion across its line break', () => {
    const cache = new SuggestionCache();
    const body = 'function f() {\n  \n}\n';
    const at = body.indexOf('  \n') + 2;
    cache.set(placeIn('doc', body, at), 'const x = 1;\n  return x;');
    assert.equal(cache.get(typeAt('doc', body, at, 'const x = 1;\n  ')), 'return x;');
  });

  it('evicts the least recently used entry past its count', () => {
    const cache = new SuggestionCache({ maxEntries: 2 });
    cache.set(placeIn('doc', text, 1), 'one');
    cache.set(placeIn('doc', text, 2), 'two');
    assert.equal(cache.get(placeIn('doc', text, 1)), 'one', 'a use makes it the most recent');
    cache.set(placeIn('doc', text, 3), 'three');
    assert.equal(cache.size, 2);
    assert.equal(cache.get(placeIn('doc', text, 2)), undefined);
    assert.equal(cache.get(placeIn('doc', text, 1)), 'one');
    assert.equal(cache.get(placeIn('doc', text, 3)), 'three');
  });

  it('evicts past its size in characters, and never stores what alone exceeds it', () => {
    const cache = new SuggestionCache({ maxChars: 200, prefixKeyChars: 20, suffixKeyChars: 20 });
    cache.set(placeIn('doc', text, 5), 'x'.repeat(100));
    cache.set(placeIn('doc', text, 6), 'y'.repeat(100));
    assert.equal(cache.size, 1, 'two entries of 100 characters and their keys do not fit in 200');
    assert.equal(cache.get(placeIn('doc', text, 6)), 'y'.repeat(100));
    assert.ok(cache.chars <= 200);
    cache.set(placeIn('doc', text, 7), 'z'.repeat(300));
    assert.equal(cache.get(placeIn('doc', text, 7)), undefined);
    assert.equal(cache.get(placeIn('doc', text, 6)), 'y'.repeat(100), 'a suggestion too large for the cache evicts nothing');
  });

  it('does not grow with use: storing again at a place replaces, and the size stays within its bounds', () => {
    const cache = new SuggestionCache({ maxEntries: 10, maxChars: 5_000 });
    for (let round = 0; round < 50; round++) {
      for (let offset = 0; offset < 30; offset++) cache.set(placeIn(`doc${offset % 3}`, text, offset), `s${round}`);
      cache.set(placeIn('doc0', text, 0), 'again');
    }
    assert.equal(cache.size, 10);
    assert.ok(cache.chars <= 5_000);
    cache.clear();
    assert.equal(cache.size, 0);
    assert.equal(cache.chars, 0);
    assert.equal(cache.get(typeAt('doc0', text, 0, 's')), undefined);
  });
});
