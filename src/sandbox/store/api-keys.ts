// The API keys an operator manages (domain/api-keys.ts), stored by their hash. A request's key is
// looked up by its hash and kept in the fact cache (fact-cache.ts): another sandbox's rotation or
// revocation is a commit, which empties it, so every sandbox on the file sees it at its next request.
import { type KeyScope, keyServes, type ManagedKey, scopeOf } from '../domain/api-keys.js';
import type { Db } from './database.js';
import type { FactCache } from './fact-cache.js';

/** A managed key as it is written: its hash beside what is listed. */
export interface NewManagedKey extends ManagedKey {
  hash: string;
}

/** Which keys a listing reads: one channel's, or the admin keys (channel null), or all; and from where. */
export interface KeyFilter {
  channel?: string | null;
  after?: number;
  limit: number;
}

/** The fields that decide whether a key serves. */
type KeyFacts = Pick<ManagedKey, 'channel' | 'expires_at' | 'revoked_at'>;

const LISTED = 'seq, id, channel, hint, created_at, expires_at, revoked_at';

export function apiKeysRepository(db: Db, facts: FactCache) {
  const byHash = db.prepare('SELECT channel, expires_at, revoked_at FROM api_keys WHERE key_hash = ?');
  const byId = db.prepare(`SELECT ${LISTED} FROM api_keys WHERE id = ?`);
  const insert = db.prepare(
    `INSERT INTO api_keys (id, channel, key_hash, hint, created_at, expires_at, revoked_at)
      VALUES (@id, @channel, @hash, @hint, @created_at, @expires_at, @revoked_at)`,
  );
  const page = db.prepare(
    `SELECT ${LISTED} FROM api_keys WHERE (@all = 1 OR channel IS @channel) AND seq > @after ORDER BY seq LIMIT @limit`,
  );
  const setEnd = db.prepare('UPDATE api_keys SET expires_at = @at WHERE id = @id');
  const setRevoked = db.prepare('UPDATE api_keys SET revoked_at = @at WHERE id = @id AND revoked_at IS NULL');
  // Keys that exist only: an unknown key is read each time, and a flood of them fills nothing.
  const cached = facts.map<KeyFacts>();
  const shown = (row: ManagedKey & { seq: number }) => {
    const { seq: _seq, ...key } = row;
    return key;
  };
  return {
    /** What the key whose hash this is lets its bearer do, when the key serves at `now`. */
    scopeOf(hash: string, now: string): KeyScope | undefined {
      let key = cached.get(hash);
      if (key === undefined) {
        key = byHash.get(hash) as KeyFacts | undefined;
        if (key === undefined) return undefined;
        cached.set(hash, key);
      }
      return keyServes(key, now) ? scopeOf(key) : undefined;
    },
    insert(key: NewManagedKey): void {
      insert.run(key);
    },
    get(id: string): ManagedKey | undefined {
      const row = byId.get(id) as (ManagedKey & { seq: number }) | undefined;
      return row && shown(row);
    },
    /** A page of keys in the order they were made, of one channel or of all; `after` is the last page's cursor. */
    list(filter: KeyFilter): { keys: ManagedKey[]; next?: number } {
      const rows = page.all({
        all: filter.channel === undefined ? 1 : 0,
        channel: filter.channel ?? null,
        after: filter.after ?? 0,
        limit: filter.limit + 1,
      }) as Array<ManagedKey & { seq: number }>;
      const more = rows.length > filter.limit;
      const kept = rows.slice(0, filter.limit);
      return { keys: kept.map(shown), ...(more ? { next: kept.at(-1)!.seq } : {}) };
    },
    /** Ends the key at `at` (a rotation's overlap). */
    end(id: string, at: string): void {
      setEnd.run({ id, at });
      cached.clear();
    },
    /** Ends the key now; false when it was already revoked. */
    revoke(id: string, at: string): boolean {
      const changed = setRevoked.run({ id, at }).changes > 0;
      cached.clear();
      return changed;
    },
  };
}
