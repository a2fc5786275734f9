/** The spend of one streamed answer, from the balance before it and a reading taken after it was billed. */
import assert from 'node:assert/strict';
import { answerSpend, replacesBalance } from '../../../src/core/usage/answerSpend';

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

describe('which balance is the latest', () => {
  it('is one whose request left after the known balance arrived', () => {
    assert.equal(replacesBalance(1_000, { sentAt: 1_000, receivedAt: 1_200 }), true);
    assert.equal(replacesBalance(undefined, { sentAt: 500, receivedAt: 600 }), true);
  });
  it('is not one whose request left before the known balance arrived: the service may have read it first', () => {
    // A model list sent at 900, answered at 1_300, after an answer billed and reported at 1_000.
    assert.equal(replacesBalance(1_000, { sentAt: 900, receivedAt: 1_300 }), false);
  });
  it('is the new one when the known balance is from the future (the clock went back) or the send time is unknown', () => {
    assert.equal(replacesBalance(5_000, { sentAt: 900, receivedAt: 1_000 }), true);
    assert.equal(replacesBalance(1_000, { receivedAt: 1_300 }), true);
  });
});
