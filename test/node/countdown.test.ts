// The transfer account's validity as the customer reads it ("Valid for 29:41"): minutes and seconds,
// hours only when there are some, never a leading zero on the first figure, rounded up to the second.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { countdownText } from '../../src/element/countdown.js';

describe('countdownText', () => {
  it('reads as a countdown at every scale, rounded up to the second', () => {
    const cases: [number, string][] = [
      [30 * 60_000, '30:00'],
      [29 * 60_000 + 41_000, '29:41'],
      [5 * 60_000 + 2_001, '5:03'],
      [59_000, '0:59'],
      [1, '0:01'],
      [0, '0:00'],
      [-5_000, '0:00'],
      [65 * 60_000, '1:05:00'],
      [10 * 3_600_000 + 1_000, '10:00:01'],
      [48 * 3_600_000, '48:00:00'],
    ];
    for (const [ms, shown] of cases) assert.equal(countdownText(ms), shown, `${ms} ms`);
  });
});
