import assert from 'node:assert/strict';
import { selectionLineRange } from '../../../src/core/chat/selectionLines';

describe('selectionLineRange', () => {
  it('counts a selection ending at the start of a line as ending on the line before', () => {
    assert.equal(selectionLineRange({ line: 1 }, { line: 3, character: 0 }), '2-3');
  });
  it('keeps the end line when the selection reaches into it', () => {
    assert.equal(selectionLineRange({ line: 1 }, { line: 3, character: 4 }), '2-4');
  });
  it('names a single line once', () => {
    assert.equal(selectionLineRange({ line: 4 }, { line: 4, character: 9 }), '5');
    assert.equal(selectionLineRange({ line: 4 }, { line: 5, character: 0 }), '5');
  });
});
