/** What of a document may leave the machine for a suggestion (core/suggestions/eligibility). */
import * as assert from 'node:assert/strict';
import { debounceMsOf, whyNotEligible, type DocumentFacts, type EligibilityRules } from '../../../src/core/suggestions/eligibility';

const facts: DocumentFacts = { languageId: 'typescript', length: 1_000, inWorkspace: true, excluded: false };
const rules: EligibilityRules = { disabledLanguages: ['plaintext'], maxFileKB: 512, workspaceTrusted: true, allowUntrusted: false };

describe('suggestions: what may be sent (core/suggestions/eligibility)', () => {
  it('sends a workspace file in a trusted workspace', () => {
    assert.equal(whyNotEligible(facts, rules), undefined);
  });

  it('sends nothing of an untrusted workspace unless the user allowed it', () => {
    assert.equal(whyNotEligible(facts, { ...rules, workspaceTrusted: false }), 'untrusted');
    assert.equal(whyNotEligible(facts, { ...rules, workspaceTrusted: false, allowUntrusted: true }), undefined);
  });

  it('sends nothing of a file outside the workspace, or matching an excluded glob', () => {
    assert.equal(whyNotEligible({ ...facts, inWorkspace: false }, rules), 'outsideWorkspace');
    assert.equal(whyNotEligible({ ...facts, excluded: true }, rules), 'excluded');
  });

  it('sends nothing in a language the user turned off, or of a file over the size cap', () => {
    assert.equal(whyNotEligible({ ...facts, languageId: 'plaintext' }, rules), 'language');
    assert.equal(whyNotEligible({ ...facts, length: 512 * 1024 }, rules), undefined);
    assert.equal(whyNotEligible({ ...facts, length: 512 * 1024 + 1 }, rules), 'tooLarge');
  });

  it('says the safety reason first when several hold', () => {
    assert.equal(whyNotEligible({ languageId: 'plaintext', length: 10 ** 9, inWorkspace: false, excluded: true }, { ...rules, workspaceTrusted: false }), 'untrusted');
    assert.equal(whyNotEligible({ languageId: 'plaintext', length: 10 ** 9, inWorkspace: true, excluded: true }, rules), 'excluded');
  });
});

describe('suggestions: the pause before a request (core/suggestions/eligibility)', () => {
  it('takes a value out of range to its nearest bound, so that no setting sends a request per keystroke', () => {
    assert.equal(debounceMsOf(350), 350);
    assert.equal(debounceMsOf(0), 50);
    assert.equal(debounceMsOf(-5), 50);
    assert.equal(debounceMsOf(60_000), 5_000);
    assert.equal(debounceMsOf(Number.NaN), 350);
  });
});
