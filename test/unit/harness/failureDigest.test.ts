import * as assert from 'node:assert/strict';
import { failureDigest } from '../../harness/failureDigest';

describe('npm test: why a tier failed, at the end of the output', () => {
  const mocha = [
    '  chat panel', '    ✔ streams', '    1) keeps the prompt', '', '  2 passing (3s)', '  \u001b[31m1 failing\u001b[0m', '',
    '  1) chat panel', '       keeps the prompt:', '     AssertionError: expected the composer to hold "hi"', '      at Context.<anonymous> (out/test/ui/chat.test.js:10:5)', '', '',
  ].join('\n');

  it("takes mocha's failure list, from \"N failing\" on, without colours or trailing blank lines", () => {
    assert.deepEqual(failureDigest(mocha), [
      '  1 failing', '', '  1) chat panel', '       keeps the prompt:', '     AssertionError: expected the composer to hold "hi"', '      at Context.<anonymous> (out/test/ui/chat.test.js:10:5)',
    ]);
  });

  it('takes the last lines of output that has no failure list (a crash, lint, types)', () => {
    const lines = Array.from({ length: 50 }, (_, i) => `line ${i}`);
    assert.deepEqual(failureDigest(lines.join('\n')), lines.slice(20));
  });

  it('bounds a long list and says how much more the log holds', () => {
    const long = ['3 failing', ...Array.from({ length: 200 }, (_, i) => `detail ${i}`)].join('\n');
    const digest = failureDigest(long, 10);
    assert.equal(digest.length, 11);
    assert.equal(digest[10], '… 191 more lines in the tier\'s log');
  });
});
