/** The spend of one streamed answer, from the balance before it and a reading taken after it was billed. */
import assert from 'node:assert/strict';
import { answerSpend } from '../../../src/core/usage/answerSpend';

describe('answer spend', () => {
  it('is the difference to a reading taken after the answer ended, without floating-point noise', () => {
    assert.equal(answerSpend(10.3, { credits: 10.1, at: 2_000 }, 1_000), 0.2);
  });
  it('is unknown without a reading, or with one from before the answer ended (the stream\'s pre-billing one)', () => {
    assert.equal(answerSpend(10, undefined, 1_000), undefined);
    assert.equal(answerSpend(10, { credits: 9, at: 999 }, 1_000), undefined);
  });
  it('is unknown when the balance went up (a top-up in between makes the difference meaningless)', () => {
    assert.equal(answerSpend(10, { credits: 10.5, at: 2_000 }, 1_000), undefined);
  });
});
