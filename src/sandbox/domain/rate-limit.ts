// The sandbox's own rate limit, per API key (the reference states none for the service, so the
// contract says nothing of it; openapi/sandbox.yaml does): a token bucket. A key's bucket holds at
// most `burst` tokens and fills at `perSecond`; each request takes one, and a request that finds
// none is refused (429) with the time until one is there. The bucket lives in the database, so the
// limit is the key's across every sandbox on it; each sandbox takes tokens from it a few at a time
// (rate-limiter.ts), and the arithmetic below is the one the stores' SQL does.

export interface RateLimit {
  /** Tokens added per second. */
  perSecond: number;
  /** The most a bucket holds: how many requests may come at once after a quiet spell. */
  burst: number;
}

/** Generous: four times Stripe's test mode (25 per second), and a burst a test suite's setup fits in. */
export const DEFAULT_RATE_LIMIT: RateLimit = { perSecond: 100, burst: 1000 };

export interface Bucket {
  tokens: number;
  /** When it last filled, in Unix milliseconds. */
  atMs: number;
}

/**
 * Fills the bucket to `nowMs` (a clock that went back adds nothing), then takes up to `want` whole
 * tokens: how many it gave, and the bucket after. A key without a bucket starts full.
 */
export function withdraw(
  bucket: Bucket | undefined,
  limit: RateLimit,
  want: number,
  nowMs: number,
): { granted: number; bucket: Bucket } {
  const available = bucket
    ? Math.min(limit.burst, bucket.tokens + (Math.max(0, nowMs - bucket.atMs) * limit.perSecond) / 1000)
    : limit.burst;
  const granted = Math.min(want, Math.floor(available));
  return { granted, bucket: { tokens: available - granted, atMs: Math.max(bucket?.atMs ?? nowMs, nowMs) } };
}

/** Whole seconds until the bucket holds a token again (Retry-After), at least 1. */
export const secondsUntilToken = (tokens: number, limit: RateLimit): number =>
  Math.max(1, Math.ceil((1 - tokens) / limit.perSecond));

/** How long an empty bucket takes to fill: the window of the RateLimit-Policy header. */
export const fillSeconds = (limit: RateLimit): number => Math.ceil(limit.burst / limit.perSecond);

/**
 * --rate-limit: `off`, or `<per second>` or `<per second>/<burst>` (positive whole numbers; the
 * burst defaults to ten seconds' worth). Why it is refused, or the limit.
 */
export function parseRateLimit(text: string): RateLimit | 'off' | { problem: string } {
  if (text === 'off') return 'off';
  const match = /^(\d{1,7})(?:\/(\d{1,8}))?$/.exec(text);
  const perSecond = Number(match?.[1]);
  const burst = match?.[2] === undefined ? perSecond * 10 : Number(match[2]);
  if (!match || perSecond < 1 || burst < 1)
    return {
      problem: `--rate-limit is off, or requests per second and an optional burst (100, or 100/1000), not ${JSON.stringify(text)}`,
    };
  return { perSecond, burst };
}
