/** The account menu's line per host of an environment with alternates. */
import assert from 'node:assert/strict';
import { hostLines } from '../../../src/core/account/hostLines';
import type { HostState } from '../../../src/core/api/hostHealth';

const NOW = 1_000_000;
const A = 'https://a.example';
const B = 'https://b.example';
const C = 'https://c.example';
const state = (origin: string, failures: number, setAsideUntil: number, lastError?: string): HostState => ({ origin, failures, setAsideUntil, probing: false, ...(lastError && { lastError }) });

describe('host lines of the account menu', () => {
  it('says nothing for an environment with one host', () => {
    assert.deepEqual(hostLines([A], [state(A, 3, NOW + 5000, 'timeout')], A, NOW), []);
    assert.deepEqual(hostLines(undefined, [], undefined, NOW), []);
  });

  it('tells a host set aside for how many seconds (rounded up) and why, once or after failures in a row', () => {
    assert.deepEqual(hostLines([A, B], [state(A, 1, NOW + 4200, 'connection refused'), state(B, 3, NOW + 20_000, 'timeout')], undefined, NOW), [
      `${A}: set aside for 5 s after a failure (connection refused)`,
      `${B}: set aside for 20 s after 3 failures in a row (timeout)`,
    ]);
  });

  it('tells a failed host whose time is up that the next request tries it, the last one served, and the rest available', () => {
    assert.deepEqual(hostLines([A, B, C], [state(A, 2, NOW - 1, 'reset'), state(B, 0, 0)], B, NOW), [
      `${A}: failed (reset); tried again with the next request`,
      `${B}: served the last request`,
      `${C}: available`,
    ]);
  });
});
