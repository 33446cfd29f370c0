// The clock's text (store/clock-text.ts) keeps the last millisecond's: it must be the ISO text of
// whatever instant it is given, the same one again or another.
import { describe, expect, it } from 'vitest';
import { clockText } from '../../src/sandbox/store/clock-text.js';

describe("the clock's ISO text", () => {
  it('is the ISO text of each instant, asked once, again, and after another', () => {
    const instants = [0, 1_764_000_000_123, 1_764_000_000_123, 1_764_000_000_124, 0, 253_402_300_799_999];
    for (const ms of instants) expect(clockText(ms)).toBe(new Date(ms).toISOString());
  });

  it('refuses an instant that is no time, as a Date does, however the last one was kept', () => {
    expect(clockText(5)).toBe('1970-01-01T00:00:00.005Z');
    expect(() => clockText(Number.NaN)).toThrow(RangeError);
    expect(() => clockText(Number.NaN)).toThrow(RangeError);
    expect(clockText(5)).toBe('1970-01-01T00:00:00.005Z');
  });
});
