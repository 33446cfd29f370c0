// The rate limit per API key as a sandbox applies it (keys/rate-limiter.ts, http/rate-limit.ts):
// the key's bucket is in the database, shared by every sandbox on it, and each takes its tokens a
// tenth of a second's worth at a time. The clock is the test's, so that "a second later" is a fact.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildSandbox } from '../../src/sandbox/http/app.js';
import { SANDBOX_FILE } from '../../src/sandbox/http/document.js';
import { loadDocument, violations } from '../../testkit/contract.js';
import { HOLD_MS, RateLimiter } from '../../src/sandbox/keys/rate-limiter.js';
import { openDatabase } from '../../src/sandbox/store/database.js';
import { createStore } from '../../src/sandbox/store/index.js';
import { sqliteBackend } from '../../src/sandbox/store/sqlite-backend.js';

const closers: Array<() => unknown> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

function store() {
  const db = openDatabase(':memory:');
  closers.push(() => db.close());
  return sqliteBackend(createStore(db));
}

/** A clock the test moves. */
function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

async function takeMany(limiter: RateLimiter, key: string, n: number) {
  const decisions = [];
  for (let i = 0; i < n; i++) decisions.push(await limiter.take(key));
  return decisions;
}

const LIMIT = { perSecond: 100, burst: 50 };

describe('the rate limiter', () => {
  it('lets a burst through, then refuses with the seconds until a token, reading the database once per ten requests', async () => {
    const shared = store();
    const withdraw = vi.spyOn(shared.rateBuckets, 'withdraw');
    const time = clock();
    const limiter = new RateLimiter(shared, LIMIT, time.now);
    const decisions = await takeMany(limiter, 'key-a', 60);
    expect(decisions.filter((d) => d.allowed)).toHaveLength(50);
    expect(decisions[50]).toEqual({ allowed: false, retryAfter: 1, tokens: 0 });
    // Five withdrawals of ten; the last left the bucket empty, so the refusals are made from memory alone.
    expect(withdraw).toHaveBeenCalledTimes(5);
    // A tenth of a second later, ten tokens are due.
    time.advance(100);
    const later = await takeMany(limiter, 'key-a', 11);
    expect(later.filter((d) => d.allowed)).toHaveLength(10);
  });

  it("keeps each key's bucket apart", async () => {
    const limiter = new RateLimiter(store(), LIMIT, clock().now);
    await takeMany(limiter, 'key-a', 50);
    expect((await limiter.take('key-a')).allowed).toBe(false);
    expect((await limiter.take('key-b')).allowed).toBe(true);
  });

  it('holds across sandboxes on one database: two of them together let the burst through once, not twice', async () => {
    const shared = store();
    const time = clock();
    const one = new RateLimiter(shared, LIMIT, time.now);
    const two = new RateLimiter(shared, LIMIT, time.now);
    let allowed = 0;
    for (let i = 0; i < 60; i++) if ((await (i % 2 ? one : two).take('key-a')).allowed) allowed++;
    expect(allowed).toBe(50);
  });

  it('drops the tokens it took and did not spend within a second, never giving them back: it can only under-use the limit', async () => {
    const shared = store();
    const time = clock();
    const limiter = new RateLimiter(shared, { perSecond: 100, burst: 20 }, time.now);
    // Takes ten, spends one: nine held.
    expect((await limiter.take('key-a')).allowed).toBe(true);
    time.advance(HOLD_MS);
    // The nine are dropped; the bucket had ten left, and a second filled it back to its burst of 20.
    const decisions = await takeMany(limiter, 'key-a', 25);
    expect(decisions.filter((d) => d.allowed)).toHaveLength(20);
  });

  it('makes one withdrawal for the requests that find the key empty at once', async () => {
    const shared = store();
    const withdraw = vi.spyOn(shared.rateBuckets, 'withdraw');
    const limiter = new RateLimiter(shared, LIMIT, clock().now);
    const decisions = await Promise.all(Array.from({ length: 10 }, () => limiter.take('key-a')));
    expect(decisions.every((d) => d.allowed)).toBe(true);
    expect(withdraw).toHaveBeenCalledTimes(1);
  });

  it('spends from memory without a promise, and says so when it holds nothing', async () => {
    const limiter = new RateLimiter(store(), LIMIT, clock().now);
    expect(limiter.spend('key-a')).toBe(false);
    await limiter.take('key-a');
    for (let i = 0; i < 9; i++) expect(limiter.spend('key-a')).toBe(true);
    expect(limiter.spend('key-a')).toBe(false);
  });
});

describe('a request past the limit', () => {
  function sandbox() {
    const app = buildSandbox({ store: store(), rateLimit: { perSecond: 1, burst: 2 } });
    closers.unshift(() => app.close());
    return app;
  }
  const list = (app: ReturnType<typeof sandbox>, key: string) =>
    app.inject({ method: 'GET', url: '/payments/v1/payment_sessions', headers: { 'x-service-api-key': key } });

  it('answers 429 TooManyRequests in the error shape, with Retry-After and the RateLimit fields', async () => {
    const app = sandbox();
    expect((await list(app, 'sandbox-dev-key')).statusCode).toBe(200);
    expect((await list(app, 'sandbox-dev-key')).statusCode).toBe(200);
    const refused = await list(app, 'sandbox-dev-key');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      error: 'TooManyRequests',
      message: 'This API key is past its rate limit (1 requests per second, in bursts of up to 2): retry in 1 s.',
    });
    // The sandbox's own error, as its document lists it.
    expect(
      violations({ $ref: '#/components/schemas/SandboxError' }, refused.json(), loadDocument(SANDBOX_FILE)),
    ).toEqual([]);
    expect(refused.headers).toMatchObject({
      'retry-after': '1',
      'ratelimit-policy': '"sandbox";q=2;w=2',
      ratelimit: '"sandbox";r=0;t=1',
    });
  });

  it('is refused for its key alone: another key, and the routes that take none, are answered', async () => {
    const app = sandbox();
    for (let i = 0; i < 3; i++) await list(app, 'sandbox-dev-key');
    expect((await list(app, 'sandbox-dev-key')).statusCode).toBe(429);
    expect((await list(app, 'sandbox-other-key')).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
  });

  it('is never counted for an unknown key: it is refused 401 before the limit is looked at', async () => {
    const app = sandbox();
    for (let i = 0; i < 5; i++) expect((await list(app, 'no-such-key')).statusCode).toBe(401);
    expect((await list(app, 'sandbox-dev-key')).statusCode).toBe(200);
  });
});
