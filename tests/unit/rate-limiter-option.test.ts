// --rate-limit (domain/rate-limit.ts) asks for at least one request per second: a burst given beside
// zero per second does not make a limit that never fills.
import { describe, expect, it } from 'vitest';
import { parseRateLimit } from '../../src/sandbox/domain/rate-limit.js';

describe('--rate-limit', () => {
  it.each(['0/5', '0/1000'])('%j, zero per second with a burst, is refused', (text) => {
    expect(parseRateLimit(text)).toEqual({
      problem: `--rate-limit is off, or requests per second and an optional burst (100, or 100/1000), not ${JSON.stringify(text)}`,
    });
  });
});
