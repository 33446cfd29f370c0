// The API keys' rate-limit buckets on PostgreSQL (the SQLite twin, with the rule: ../rate-buckets.ts).
// One statement, on a connection of the pool outside any transaction: the key's row is locked for
// its own time only, and several sandboxes' withdrawals from one key take their turns on that row.
import type { RateLimit } from '../../domain/rate-limit.js';
import type { Withdrawal } from '../rate-buckets.js';
import type { PgQueries } from './queries.js';

/** The bucket filled to now ($5): its tokens plus what the time since added at $2 per second, at most the burst ($3). */
const FILLED = 'least($3::float8, b.tokens + greatest(0, $5::bigint - b.at_ms) * $2::float8 / 1000.0)';

export function rateBucketsRepository(q: PgQueries) {
  return {
    async withdraw(keyHash: string, limit: RateLimit, want: number, nowMs: number): Promise<Withdrawal> {
      // Every SET expression reads the row as it was before the update.
      const row = await q.one<{ granted: number; tokens: number }>(
        `INSERT INTO rate_buckets AS b (key_hash, tokens, at_ms, granted)
          VALUES ($1, $3::float8 - least($4::int, $3::int), $5::bigint, least($4::int, $3::int))
        ON CONFLICT (key_hash) DO UPDATE SET
          granted = least($4::int, floor(${FILLED})::int),
          tokens = ${FILLED} - least($4::int, floor(${FILLED})::int),
          at_ms = greatest(b.at_ms, $5::bigint)
        RETURNING granted, tokens`,
        [keyHash, limit.perSecond, limit.burst, want, nowMs],
      );
      return { granted: Number(row!.granted), tokens: Number(row!.tokens) };
    },
  };
}
