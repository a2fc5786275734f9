/** What a conversation's header says it cost: the measured answers' total, and how many could not be measured. */
import * as assert from 'node:assert/strict';
import { conversationSpend, conversationSpendLabel, type SpendFacts as Facts } from '../../../src/core/chat/protocol/conversationSpend';
import type { AnswerStatus } from '../../../src/core/chat/protocol/chatProtocol';

/** Messages as the webview holds them: the status too, which the sum does not need. */
type SpendFacts = Facts & { status?: AnswerStatus };

const user: SpendFacts = { role: 'user' };
const measured = (creditsSpent: number): SpendFacts => ({ role: 'assistant', status: 'done', meta: { requestId: `r-${creditsSpent}`, creditsSpent } });
const overlapped: SpendFacts = { role: 'assistant', status: 'done', meta: { requestId: 'r-o', spendNotMeasured: 'overlapped' } };
const noReading: SpendFacts = { role: 'assistant', status: 'stopped', meta: { requestId: 'r-n', spendNotMeasured: 'noReading' } };

describe('conversation spend', () => {
  it('adds the measured answers\' credits without binary noise, and counts the ones that could not be measured', () => {
    assert.deepEqual(conversationSpend([user, measured(0.1), user, measured(0.2), user, overlapped, user, noReading]), { credits: 0.3, measured: 2, notMeasured: 2 });
  });

  it('counts neither an answer still streaming or being measured, nor a request that failed before a response (not billed)', () => {
    const streaming: SpendFacts = { role: 'assistant', status: 'streaming', meta: { requestId: 'r-s' } };
    const measuring: SpendFacts = { role: 'assistant', status: 'done', meta: { requestId: 'r-m' } };
    const failed: SpendFacts = { role: 'assistant', status: 'error', meta: {} };
    assert.deepEqual(conversationSpend([user, streaming, measuring, failed]), { credits: 0, measured: 0, notMeasured: 0 });
  });

  it('the header says nothing before an answer was billed, the total when all were measured, and how many were not', () => {
    assert.equal(conversationSpendLabel(conversationSpend([user])), undefined);
    assert.equal(conversationSpendLabel(conversationSpend([measured(1234.5), measured(0.00005)]))?.text, '1,234.5001 credits');
    assert.equal(conversationSpendLabel(conversationSpend([measured(0.25), overlapped]))?.text, '0.25 credits, and 1 answer not measured');
    assert.equal(conversationSpendLabel(conversationSpend([measured(0.25), overlapped, noReading]))?.text, '0.25 credits, and 2 answers not measured');
    assert.equal(conversationSpendLabel(conversationSpend([overlapped]))?.text, '1 answer, credits not measured', 'not "0 credits", which reads as free');
    assert.equal(conversationSpendLabel(conversationSpend([overlapped, noReading]))?.text, '2 answers, credits not measured');
    assert.equal(conversationSpendLabel(conversationSpend([measured(0)]))?.text, '0 credits', 'a measured zero is a zero');
    assert.match(conversationSpendLabel(conversationSpend([measured(1), noReading]))?.title ?? '', /not in the total/);
  });
});
