/** What the suggestions' status-bar item says (core/suggestions/suggestionsStatus). */
import * as assert from 'node:assert/strict';
import { suggestionsStatus } from '../../../src/core/suggestions/suggestionsStatus';

const NOW = Date.UTC(2026, 10, 29, 12, 0, 0);

describe('suggestions: the status-bar item (core/suggestions/suggestionsStatus)', () => {
  it('on: today\'s spend in the text, the model and environment in the tooltip', () => {
    const view = suggestionsStatus({ kind: 'on', environment: 'Production', model: 'm-small' }, { credits: 0.4213, unmeasured: 0 }, NOW);
    assert.match(view.text, /^\$\(sparkle\) 0\.42\d* today$/);
    assert.match(view.tooltip, /m-small in Production/);
    assert.match(view.tooltip, /Suggestions today: 0\.42\d* credits\./);
    assert.equal(view.warning, false);
  });

  it('counts requests whose spend was not measured, so the figure never looks complete when it is not', () => {
    const view = suggestionsStatus({ kind: 'on', environment: 'Production', model: 'm' }, { credits: 1, unmeasured: 2 }, NOW);
    assert.match(view.tooltip, /2 requests not measured/);
  });

  it('a reached limit warns in the item, with when suggestions resume, and no spend claims to be on', () => {
    const view = suggestionsStatus({ kind: 'limit', message: 'The daily spending limit is reached.', until: NOW + 3_600_000 }, undefined, NOW);
    assert.equal(view.warning, true);
    assert.match(view.text, /Suggestions paused/);
    assert.match(view.tooltip, /^The daily spending limit is reached\.\nSuggestions resume at /);
  });

  it('snoozed: the minutes left, rounded up; off and without a model: what to do', () => {
    assert.match(suggestionsStatus({ kind: 'snoozed', until: NOW + 90_001 }, undefined, NOW).text, /\b2 min$/);
    assert.match(suggestionsStatus({ kind: 'off' }, undefined, NOW).tooltip, /^Inline suggestions are off\./);
    assert.match(suggestionsStatus({ kind: 'noModel', environment: 'Preview' }, undefined, NOW).tooltip, /no model is picked for them in Preview: nothing is sent/);
  });
});
