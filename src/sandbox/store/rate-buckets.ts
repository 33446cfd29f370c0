// The API keys' rate-limit buckets (domain/rate-limit.ts), in the database so that every sandbox on
// it draws from the same one. A withdrawal is one statement, outside any transaction: it locks the
// key's row alone, never the write lock, so that a key at its limit slows no other channel's writes.
// Its arithmetic is domain/rate-limit.ts's `withdraw`: fill to now, take up to `want` whole tokens.
import type { RateLimit } from '../domain/rate-limit.js';
import type { Db } from './database.js';

/** What a withdrawal gave, and what the bucket holds after it. */
export interface Withdrawal {
  granted: number;
  tokens: number;
}

/** The bucket filled to now: its tokens plus what the time since added, at most the burst. */
const FILLED = 'min(@burst, tokens + max(0, @now - at_ms) * @rate / 1000.0)';

export function rateBucketsRepository(db: Db) {
  // Every SET expression reads the row as it was before the update.
  const withdraw = db.prepare(`INSERT INTO rate_buckets (key_hash, tokens, at_ms, granted)
      VALUES (@hash, @burst - min(@want, @burst), @now, min(@want, @burst))
    ON CONFLICT (key_hash) DO UPDATE SET
      granted = min(@want, CAST(${FILLED} AS INTEGER)),
      tokens = ${FILLED} - min(@want, CAST(${FILLED} AS INTEGER)),
      at_ms = max(at_ms, @now)
    RETURNING granted, tokens`);
  return {
    /** Takes up to `want` tokens from the key's bucket at `nowMs`. */
    withdraw(keyHash: string, limit: RateLimit, want: number, nowMs: number): Withdrawal {
      return withdraw.get({
        hash: keyHash,
        burst: limit.burst,
        rate: limit.perSecond,
        want,
        now: nowMs,
      }) as Withdrawal;
    },
  };
}
