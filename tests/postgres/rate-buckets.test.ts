// The rate-limit buckets' one statement (store/rate-buckets.ts and its PostgreSQL twin) does the
// domain's arithmetic (domain/rate-limit.ts, `withdraw`): a seeded random sequence of withdrawals
// of random sizes at random times, some with a clock that went back, gives on both backends what
// the domain gives. And several withdrawals from one key at once, on PostgreSQL, give no more than
// the bucket held: the row takes them one at a time.
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { type Bucket, type RateLimit, withdraw } from '../../src/sandbox/domain/rate-limit.js';
import { openDatabase } from '../../src/sandbox/store/database.js';
import { createStore } from '../../src/sandbox/store/index.js';
import { createPostgresStore, type PostgresStore } from '../../src/sandbox/store/postgres/index.js';
import { sqliteBackend } from '../../src/sandbox/store/sqlite-backend.js';
import type { SandboxStore } from '../../src/sandbox/store/store.js';
import { testDatabase } from '../support/postgres-database.js';

const opened: PostgresStore[] = [];
afterAll(async () => {
  for (const store of opened) await store.close();
});

async function stores(): Promise<Array<[string, SandboxStore]>> {
  const postgres = await createPostgresStore(await testDatabase('rate_buckets'));
  opened.push(postgres);
  return [
    ['SQLite', sqliteBackend(createStore(openDatabase(':memory:')))],
    ['PostgreSQL', postgres],
  ];
}

const step = fc.record({ want: fc.integer({ min: 1, max: 40 }), elapsedMs: fc.integer({ min: -500, max: 3000 }) });

describe('a withdrawal from the database', () => {
  it('gives what the domain gives, on SQLite and PostgreSQL, over random sequences', async () => {
    const backends = await stores();
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.record({ perSecond: fc.integer({ min: 1, max: 1000 }), burst: fc.integer({ min: 1, max: 200 }) }),
        fc.array(step, { minLength: 1, maxLength: 12 }),
        async (limit: RateLimit, steps) => {
          const key = `key-${run++}`;
          let model: Bucket | undefined;
          let nowMs = 1_700_000_000_000;
          for (const { want, elapsedMs } of steps) {
            nowMs += elapsedMs;
            const expected = withdraw(model, limit, want, nowMs);
            model = expected.bucket;
            for (const [name, store] of backends) {
              const got = await store.rateBuckets.withdraw(key, limit, want, nowMs);
              expect(got.granted, name).toBe(expected.granted);
              expect(got.tokens, name).toBeCloseTo(expected.bucket.tokens, 6);
            }
          }
        },
      ),
      { seed: 4242, numRuns: 60 },
    );
  });

  it('on PostgreSQL, forty withdrawals of one key at once give out no more than its burst', async () => {
    const postgres = (await stores())[1]![1];
    const limit = { perSecond: 1, burst: 25 };
    const nowMs = Date.now();
    const results = await Promise.all(
      Array.from({ length: 40 }, () => postgres.rateBuckets.withdraw('contended', limit, 1, nowMs)),
    );
    expect(results.reduce((sum, r) => sum + r.granted, 0)).toBe(25);
  });
});
