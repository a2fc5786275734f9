/** Suggestions' share of the key's rate limit (core/suggestions/requestPace). */
import * as assert from 'node:assert/strict';
import { SuggestionPace } from '../../../src/core/suggestions/requestPace';

describe('suggestions: their share of the key\'s requests per minute (core/suggestions/requestPace)', () => {
  it('holds nothing back while the key\'s limit is unknown', () => {
    const pace = new SuggestionPace();
    for (let i = 0; i < 100; i++) assert.equal(pace.take(i), true);
    assert.equal(pace.perMinute, undefined);
  });

  it('takes a third of the limit, two requests per suggestion (the completion and its balance reading)', () => {
    const pace = new SuggestionPace();
    pace.noteRateLimit(60);
    assert.equal(pace.perMinute, 10);
    for (let i = 0; i < 10; i++) assert.equal(pace.take(1_000 + i), true, `request ${i + 1}`);
    assert.equal(pace.take(2_000), false, 'the eleventh in the same minute');
    assert.equal(pace.take(61_000), true, 'a minute after the first, its place is free again');
  });

  it('keeps at least one a minute for a key with a tiny limit, and ignores a limit that is no number', () => {
    const pace = new SuggestionPace();
    pace.noteRateLimit(2);
    assert.equal(pace.perMinute, 1);
    pace.noteRateLimit(Number.NaN);
    pace.noteRateLimit(0);
    assert.equal(pace.perMinute, 1, 'the last limit reported stays');
  });
});
