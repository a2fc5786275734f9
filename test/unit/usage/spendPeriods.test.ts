import * as assert from 'node:assert/strict';
import { dayPeriod, monthPeriod } from '../../../src/core/usage/spendPeriods';

const iso = (at: number) => new Date(at).toISOString();

describe('spend periods in the user\'s time zone', () => {
  it('starts the day at local midnight, not UTC midnight', () => {
    // 23:30 on 14 March in New York (UTC-4 after the DST change) is already the 15th in UTC.
    const at = Date.parse('2026-03-15T03:30:00Z');
    const day = dayPeriod(at, 'America/New_York');
    assert.equal(iso(day.start), '2026-03-14T04:00:00.000Z');
    assert.equal(iso(day.end), '2026-03-15T04:00:00.000Z');
    assert.equal(iso(dayPeriod(at, 'UTC').start), '2026-03-15T00:00:00.000Z');
  });

  it('makes the day of a spring-forward change 23 hours long and of a fall-back one 25', () => {
    const spring = dayPeriod(Date.parse('2026-03-08T12:00:00Z'), 'America/New_York');
    assert.equal(spring.end - spring.start, 23 * 3_600_000);
    assert.equal(iso(spring.start), '2026-03-08T05:00:00.000Z', 'midnight before the change is UTC-5');
    const fall = dayPeriod(Date.parse('2026-11-01T12:00:00Z'), 'America/New_York');
    assert.equal(fall.end - fall.start, 25 * 3_600_000);
  });

  it('starts a day whose midnight a DST jump skipped at the jump', () => {
    // Santiago springs forward at 00:00 local on 6 September 2026: the day begins at 01:00 (UTC-3).
    const day = dayPeriod(Date.parse('2026-09-06T15:00:00Z'), 'America/Santiago');
    assert.equal(iso(day.start), '2026-09-06T04:00:00.000Z');
    assert.equal(iso(day.end), '2026-09-07T03:00:00.000Z');
  });

  it('ends the month at the next month\'s first local midnight, across a year and in February', () => {
    const december = monthPeriod(Date.parse('2026-12-31T22:59:59Z'), 'Europe/Berlin');
    assert.equal(iso(december.start), '2026-11-30T23:00:00.000Z');
    assert.equal(iso(december.end), '2026-12-31T23:00:00.000Z', 'a second later it is January in Berlin');
    const nextYear = monthPeriod(Date.parse('2026-12-31T23:00:00Z'), 'Europe/Berlin');
    assert.equal(iso(nextYear.start), '2026-12-31T23:00:00.000Z');
    const february = monthPeriod(Date.parse('2028-02-15T12:00:00Z'), 'UTC');
    assert.equal(iso(february.end), '2028-03-01T00:00:00.000Z', 'a leap year\'s February has 29 days');
    assert.equal(february.end - february.start, 29 * 86_400_000);
  });

  it('uses the process\'s own zone when none is given', () => {
    const at = Date.parse('2026-06-10T10:00:00Z');
    const day = dayPeriod(at, undefined);
    const local = new Date(at);
    assert.equal(day.start, new Date(local.getFullYear(), local.getMonth(), local.getDate()).getTime());
  });
});
