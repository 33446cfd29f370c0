// The tokens a sandbox holds in memory (keys/rate-limiter.ts): held tokens are spent for a second
// after they were taken and not from that instant on; an empty bucket refuses from memory, with no
// read, until the very instant a token is due; a clock that steps back does not refuse a key whose
// bucket still holds a token; a request looks three times at most and reads the database twice at
// most, however slow the database; and the HTTP hook spends a held token without asking for more.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildSandbox } from '../../src/sandbox/http/app.js';
import { HOLD_MS, RateLimiter } from '../../src/sandbox/keys/rate-limiter.js';
import { openDatabase } from '../../src/sandbox/store/database.js';
import { createStore } from '../../src/sandbox/store/index.js';
import { sqliteBackend } from '../../src/sandbox/store/sqlite-backend.js';

const closers: Array<() => unknown> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  vi.restoreAllMocks();
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

/**
 * Counts the withdrawals from the shared bucket; past `most` it fails them, so that a request that
 * would keep reading ends instead of looping.
 */
function countWithdrawals(shared: ReturnType<typeof store>, most = 5) {
  const withdraw = shared.rateBuckets.withdraw.bind(shared.rateBuckets);
  const counted = { calls: 0 };
  vi.spyOn(shared.rateBuckets, 'withdraw').mockImplementation((...args) => {
    if (++counted.calls > most) return Promise.reject(new Error('read the database past any bound'));
    return withdraw(...args);
  });
  return counted;
}

async function takeMany(limiter: RateLimiter, key: string, n: number) {
  const decisions = [];
  for (let i = 0; i < n; i++) decisions.push(await limiter.take(key));
  return decisions;
}

const LIMIT = { perSecond: 100, burst: 50 };

describe('tokens held in memory', () => {
  it('are spent until their second is over, and not from that very instant', async () => {
    const time = clock();
    const limiter = new RateLimiter(store(), LIMIT, time.now);
    // Takes ten, spends one: nine held.
    expect((await limiter.take('key-a')).allowed).toBe(true);
    time.advance(HOLD_MS - 1);
    expect(limiter.spend('key-a')).toBe(true);
    time.advance(1);
    expect(limiter.spend('key-a')).toBe(false);
  });
});

describe('an empty bucket', () => {
  it('refuses from memory, with no read, until the very instant a token is due; then a read lets the request through', async () => {
    const shared = store();
    const withdrawals = countWithdrawals(shared, 10);
    const time = clock();
    const limiter = new RateLimiter(shared, LIMIT, time.now);
    expect((await takeMany(limiter, 'key-a', 50)).every((d) => d.allowed)).toBe(true);
    // 105 ms fill 10.5 tokens: ten taken, half a token left in the bucket.
    time.advance(105);
    expect((await takeMany(limiter, 'key-a', 10)).every((d) => d.allowed)).toBe(true);
    expect(await limiter.take('key-a')).toEqual({ allowed: false, retryAfter: 1, tokens: 0.5 });
    expect(withdrawals.calls).toBe(6);
    // Half a token at 100 per second is due in 5 ms: a millisecond before, still refused without a read.
    time.advance(4);
    expect((await limiter.take('key-a')).allowed).toBe(false);
    expect(withdrawals.calls).toBe(6);
    time.advance(1);
    expect((await limiter.take('key-a')).allowed).toBe(true);
    expect(withdrawals.calls).toBe(7);
  });
});

describe('a clock that steps back', () => {
  it('does not refuse a key whose bucket still holds a token', async () => {
    const time = clock();
    // A batch is ten: the first withdrawal leaves exactly one token in the bucket.
    const limiter = new RateLimiter(store(), { perSecond: 100, burst: 11 }, time.now);
    expect((await takeMany(limiter, 'key-a', 10)).every((d) => d.allowed)).toBe(true);
    time.advance(-1);
    expect((await limiter.take('key-a')).allowed).toBe(true);
  });
});

describe('a request whose withdrawals come back after their second is over (a slow database)', () => {
  /** Each read of the clock is a second after the one before: every withdrawal arrives stale. */
  function slowClock(reads: number[] = []) {
    let now = 1_000_000;
    let read = 0;
    return () => {
      const scripted = reads[read++];
      if (scripted !== undefined) return scripted;
      now += HOLD_MS;
      return now;
    };
  }

  it('reads the database twice at most, then is refused', async () => {
    const shared = store();
    const withdrawals = countWithdrawals(shared);
    const limiter = new RateLimiter(shared, LIMIT, slowClock());
    expect((await limiter.take('key-a')).allowed).toBe(false);
    expect(withdrawals.calls).toBe(2);
  });

  it('looks three times at most: a clock that steps back after the third look does not let it spend', async () => {
    // The reads: first look, first withdrawal and its answer, second look, second withdrawal and its
    // answer, third look; then a step back to within the second answer's hold.
    const shared = store();
    countWithdrawals(shared);
    const limiter = new RateLimiter(shared, LIMIT, slowClock([1_000, 2_000, 3_000, 4_000, 5_000, 6_000, 7_000, 6_000]));
    expect((await limiter.take('key-a')).allowed).toBe(false);
  });

  it('holds the tokens of a withdrawal slower than the hold from when they arrive: the key is served', async () => {
    const shared = store();
    const time = clock();
    const withdraw = shared.rateBuckets.withdraw.bind(shared.rateBuckets);
    let calls = 0;
    vi.spyOn(shared.rateBuckets, 'withdraw').mockImplementation(async (...args) => {
      calls++;
      const answer = await withdraw(...args);
      time.advance(HOLD_MS + 500);
      return answer;
    });
    const limiter = new RateLimiter(shared, LIMIT, time.now);
    expect(await limiter.take('key-a')).toEqual({ allowed: true });
    expect(calls).toBe(1);
    // The rest of the batch serves for a second from the answer.
    time.advance(HOLD_MS - 1);
    expect(limiter.spend('key-a')).toBe(true);
  });
});

describe('the HTTP hook', () => {
  it('lets a request through on a token held in memory, without asking the limiter to take one', async () => {
    const take = vi.spyOn(RateLimiter.prototype, 'take');
    const app = buildSandbox({ store: store(), rateLimit: LIMIT });
    closers.unshift(() => app.close());
    for (let i = 0; i < 5; i++) {
      const listed = await app.inject({
        method: 'GET',
        url: '/payments/v1/payment_sessions',
        headers: { 'x-service-api-key': 'sandbox-dev-key' },
      });
      expect(listed.statusCode).toBe(200);
    }
    // The first request takes a batch of ten; the next four spend from it.
    expect(take).toHaveBeenCalledTimes(1);
  });
});
