// The API keys an operator manages, on PostgreSQL (the SQLite twin: ../api-keys.ts). A key found is
// kept under the cache's rule (fact-cache.ts): another sandbox's rotation or revocation moves the
// revision, which every request reads as it starts, so every sandbox sees it at its next request.
import { type KeyScope, keyServes, type ManagedKey, scopeOf } from '../../domain/api-keys.js';
import type { KeyFilter, NewManagedKey } from '../api-keys.js';
import type { PgFactCache } from './fact-cache.js';
import type { PgQueries } from './queries.js';

type KeyFacts = Pick<ManagedKey, 'channel' | 'expires_at' | 'revoked_at'>;

const LISTED = 'seq, id, channel, hint, created_at, expires_at, revoked_at';

/** A listed row: seq is a bigint, which the driver gives as text. */
type ListedRow = ManagedKey & { seq: string; [column: string]: unknown };

const shown = ({ seq: _seq, ...key }: ListedRow): ManagedKey => key as ManagedKey;

export function apiKeysRepository(q: PgQueries, facts: PgFactCache) {
  const cached = facts.factMap<KeyFacts | null>();
  return {
    /** What the key whose hash this is lets its bearer do, when the key serves at `now`. */
    async scopeOf(hash: string, now: string): Promise<KeyScope | undefined> {
      const key = await cached.fetch(hash, async () => {
        const row = await q.one<KeyFacts>('SELECT channel, expires_at, revoked_at FROM api_keys WHERE key_hash = $1', [
          hash,
        ]);
        return row ?? null;
      });
      return key !== null && keyServes(key, now) ? scopeOf(key) : undefined;
    },
    async insert(key: NewManagedKey): Promise<void> {
      await q.run(
        `INSERT INTO api_keys (id, channel, key_hash, hint, created_at, expires_at, revoked_at)
          VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [key.id, key.channel, key.hash, key.hint, key.created_at, key.expires_at, key.revoked_at],
      );
    },
    async get(id: string): Promise<ManagedKey | undefined> {
      const row = await q.one<ListedRow>(`SELECT ${LISTED} FROM api_keys WHERE id = $1`, [id]);
      return row && shown(row);
    },
    async list(filter: KeyFilter): Promise<{ keys: ManagedKey[]; next?: number }> {
      const rows = await q.all<ListedRow>(
        `SELECT ${LISTED} FROM api_keys WHERE ($4 OR channel IS NOT DISTINCT FROM $1::text) AND seq > $2
          ORDER BY seq LIMIT $3`,
        [filter.channel ?? null, filter.after ?? 0, filter.limit + 1, filter.channel === undefined],
      );
      const kept = rows.slice(0, filter.limit);
      return { keys: kept.map(shown), ...(rows.length > filter.limit ? { next: Number(kept.at(-1)!.seq) } : {}) };
    },
    async end(id: string, at: string): Promise<void> {
      const hash = await q.value<string>('UPDATE api_keys SET expires_at = $2 WHERE id = $1 RETURNING key_hash', [
        id,
        at,
      ]);
      if (hash !== undefined) cached.drop(hash);
    },
    async revoke(id: string, at: string): Promise<boolean> {
      const hash = await q.value<string>(
        'UPDATE api_keys SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL RETURNING key_hash',
        [id, at],
      );
      if (hash !== undefined) cached.drop(hash);
      return hash !== undefined;
    },
  };
}
