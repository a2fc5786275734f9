import assert from 'node:assert/strict';
import { formatCredits } from '../../../src/core/credits';

/** What formatCredits must equal (it avoids Intl only to keep ICU out of activation). */
const formats = new Map<number, Intl.NumberFormat>();
const intl = (value: number, digits: number) => formats.set(digits, formats.get(digits) ?? new Intl.NumberFormat('en-US', { maximumFractionDigits: digits })).get(digits)!.format(value);

describe('formatCredits', () => {
  it('reads like en-US money: grouped thousands, trailing zeros dropped', () => {
    assert.equal(formatCredits(1234567.891), '1,234,567.89');
    assert.equal(formatCredits(1234.5), '1,234.5');
    assert.equal(formatCredits(0.00015, 4), '0.0002');
    assert.equal(formatCredits(12, 4), '12');
  });

  it('rounds the decimal the user sees half away from zero, as Intl does, not the binary value as toFixed does', () => {
    assert.equal(formatCredits(1.005), '1.01');
    assert.equal(formatCredits(-1234.565), '-1,234.57');
    assert.equal(formatCredits(999.995), '1,000');
    assert.equal(formatCredits(-0.001), '-0');
  });

  it('gives exactly the text of toLocaleString for edge values and many random ones', () => {
    const edges = [0, -0, 1e-7, -1e-7, 5e-324, 0.1 + 0.2, 2.675, 0.125, 9.995, 123456789012.345, 1e15, 1e21, NaN, Infinity, -Infinity];
    let seed = 11;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const randoms = Array.from({ length: 5000 }, (_, i) => i % 2
      ? (random() - 0.3) * 10 ** Math.floor(random() * 14 - 4)
      // Few decimals: where ties (…5) are common.
      : Math.round((random() - 0.3) * 1e7) / 10 ** (1 + (i % 5)));
    for (const digits of [0, 2, 4, 6]) {
      for (const value of [...edges, ...randoms]) assert.equal(formatCredits(value, digits), intl(value, digits), `${value} with ${digits} digits`);
    }
  });
});
