import * as assert from 'node:assert/strict';
import { ESTIMATE_WINDOW, MIN_ESTIMATE_ANSWERS, spendEstimate } from '../../../src/core/usage/estimate';
import { parseUsageEntry, serializeEntry, toUsageEntry, type UsageEntry } from '../../../src/core/usage/ledger';

const answer = (at: number, credits: number | null, chars: { in: number; out: number } | undefined, model = 'm'): UsageEntry =>
  toUsageEntry({ requestId: `r${at}`, model, environment: 'production', kind: 'chat', credits, ...(chars && { chars }) }, at);

describe('estimates from the user\'s own answers', () => {
  it('gives nothing with too few measured answers with the model', () => {
    const entries = Array.from({ length: MIN_ESTIMATE_ANSWERS - 1 }, (_, i) => answer(i, 0.5, { in: 400, out: 600 }));
    entries.push(answer(100, null, { in: 400, out: 600 }), answer(101, 0.5, undefined), answer(102, 0.5, { in: 400, out: 600 }, 'other'));
    assert.equal(spendEstimate(entries, 'm'), undefined, 'unmeasured, uncounted and other models\' answers do not count');
  });

  it('divides the credits of the last answers by their characters in and out, and says how many it rests on and how long they were', () => {
    const entries = Array.from({ length: MIN_ESTIMATE_ANSWERS }, (_, i) => answer(i, 0.5, { in: 400, out: 600 }));
    assert.deepEqual(spendEstimate(entries, 'm'), { creditsPer1kChars: 0.5, answers: MIN_ESTIMATE_ANSWERS, answerChars: 600 });
    const many = Array.from({ length: ESTIMATE_WINDOW }, (_, i) => answer(1000 + i, 2, { in: 500, out: 500 }));
    assert.deepEqual(spendEstimate([...entries, ...many], 'm'), { creditsPer1kChars: 2, answers: ESTIMATE_WINDOW, answerChars: 500 }, 'only the most recent answers');
  });

  it('keeps the characters in the ledger line, and drops a malformed count without losing the entry', () => {
    const stored = serializeEntry(answer(5, 0.25, { in: 12, out: 34 }));
    assert.deepEqual(parseUsageEntry(stored)?.chars, { in: 12, out: 34 });
    const bad = parseUsageEntry(JSON.stringify({ ...JSON.parse(stored), chars: { in: -1, out: 'x' } }));
    assert.equal(bad?.credits, 0.25);
    assert.equal(bad?.chars, undefined);
  });
});
