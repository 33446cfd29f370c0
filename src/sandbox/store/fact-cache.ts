// The facts nearly every request reads and that rarely change (each channel's clock, armed faults
// and features), kept in memory instead of read from SQLite on every request.
//
// Another process may share the database file and change them. SQLite's `PRAGMA data_version`
// tells, at the cost of one call, whether another connection has committed since this one last
// looked: the store looks at the start of every transaction and of every read that takes none,
// and empties the cache when it has. This connection's own writes drop what they change, and
// every rollback empties the cache, since a value read inside a rolled-back transaction was never
// committed. The pragma is a read transaction of its own, the largest cost of a cached read: it
// runs only when the wal-index header says a commit may have happened (wal-index.ts).
import type { Db } from './database.js';
import { type CommitWatch, commitWatch } from './wal-index.js';

export interface FactCache {
  /** A map of cached facts, emptied with the rest. */
  map<V>(): Map<string, V>;
  /**
   * Empties the cache when another connection has committed since the last look: the wal-index
   * header first, the pragma only when it changed. For a look outside a transaction, or at the
   * start of one that holds its snapshot already (BEGIN IMMEDIATE).
   */
  revalidate(): void;
  /** Empties the cache. */
  clear(): void;
}

/** SQLite's fact cache, which looks at the wal-index header before it asks the database. */
export interface SqliteFactCache extends FactCache {
  /**
   * The same, always by the pragma: at the start of a deferred transaction, whose snapshot the
   * pragma takes, so that the facts kept and the transaction's reads are of one snapshot (the
   * header looked at before the snapshot could miss a commit that lands before it).
   */
  revalidateSnapshot(): void;
}

/** The commit watch of the database's file: in WAL mode only, as openDatabase opens every file. */
export function commitWatchOf(db: Db): CommitWatch {
  return commitWatch(db.name, db.pragma('journal_mode', { simple: true }) === 'wal');
}

export function factCache(db: Db, watch: CommitWatch = commitWatchOf(db)): SqliteFactCache {
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  watch.changed();
  let seen = dataVersion.get();
  const maps: Array<Map<string, unknown>> = [];
  const clear = () => {
    for (const map of maps) map.clear();
  };
  const revalidateSnapshot = () => {
    let version: unknown;
    try {
      version = dataVersion.get();
    } catch (error) {
      // The header may have been taken as seen, but not the version: the next look must ask
      // again, and meanwhile nothing cached may be trusted.
      watch.forget();
      clear();
      throw error;
    }
    if (version === seen) return;
    seen = version;
    clear();
  };
  return {
    map<V>() {
      const map = new Map<string, V>();
      maps.push(map as Map<string, unknown>);
      return map;
    },
    revalidate() {
      if (watch.changed()) revalidateSnapshot();
    },
    revalidateSnapshot,
    clear,
  };
}
