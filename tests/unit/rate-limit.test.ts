// The rate limit's token bucket (domain/rate-limit.ts): it starts full, fills at the rate up to the
// burst, gives whole tokens only, never fills from a clock that went back; and --rate-limit's text.
import { describe, expect, it } from 'vitest';
import { fillSeconds, parseRateLimit, secondsUntilToken, withdraw } from '../../src/sandbox/domain/rate-limit.js';

const LIMIT = { perSecond: 10, burst: 50 };

describe('a withdrawal', () => {
  it('from a key without a bucket starts it full, and takes what it asks', () => {
    expect(withdraw(undefined, LIMIT, 5, 1000)).toEqual({ granted: 5, bucket: { tokens: 45, atMs: 1000 } });
  });

  it('takes no more than the bucket holds, in whole tokens', () => {
    expect(withdraw({ tokens: 2.5, atMs: 1000 }, LIMIT, 5, 1000)).toEqual({
      granted: 2,
      bucket: { tokens: 0.5, atMs: 1000 },
    });
    expect(withdraw({ tokens: 0.9, atMs: 1000 }, LIMIT, 5, 1000).granted).toBe(0);
  });

  it('fills the bucket at the rate for the time since, up to the burst', () => {
    expect(withdraw({ tokens: 0, atMs: 1000 }, LIMIT, 100, 1250)).toEqual({
      granted: 2,
      bucket: { tokens: 0.5, atMs: 1250 },
    });
    expect(withdraw({ tokens: 40, atMs: 0 }, LIMIT, 100, 60_000)).toEqual({
      granted: 50,
      bucket: { tokens: 0, atMs: 60_000 },
    });
  });

  it('adds nothing for a clock that went back, and keeps the later time', () => {
    expect(withdraw({ tokens: 3, atMs: 5000 }, LIMIT, 10, 4000)).toEqual({
      granted: 3,
      bucket: { tokens: 0, atMs: 5000 },
    });
  });
});

describe('the times the answers give', () => {
  it('Retry-After is the whole seconds until a token, at least 1', () => {
    expect(secondsUntilToken(0, { perSecond: 1, burst: 5 })).toBe(1);
    expect(secondsUntilToken(0, { perSecond: 0.25, burst: 5 })).toBe(4);
    expect(secondsUntilToken(0.5, LIMIT)).toBe(1);
    expect(secondsUntilToken(3, LIMIT)).toBe(1);
  });

  it("the policy's window is the seconds an empty bucket takes to fill", () => {
    expect(fillSeconds(LIMIT)).toBe(5);
    expect(fillSeconds({ perSecond: 3, burst: 10 })).toBe(4);
  });
});

describe('--rate-limit', () => {
  it.each([
    ['off', 'off'],
    ['100', { perSecond: 100, burst: 1000 }],
    ['25/50', { perSecond: 25, burst: 50 }],
    ['1/1', { perSecond: 1, burst: 1 }],
  ])('%j is %j', (text, limit) => {
    expect(parseRateLimit(text)).toEqual(limit);
  });

  it.each(['', '0', '10/0', '-5', '1.5', '100/s', 'on', ' 100', '100/', '99999999'])('%j is refused', (text) => {
    expect(parseRateLimit(text)).toEqual({
      problem: `--rate-limit is off, or requests per second and an optional burst (100, or 100/1000), not ${JSON.stringify(text)}`,
    });
  });
});
