// The facts nearly every request reads and that rarely change (each channel's clock, armed faults
// and features), kept in memory instead of read from SQLite on every request.
//
// Another process may share the database file and change them. SQLite's `PRAGMA data_version`
// tells, at the cost of one call, whether another connection has committed since this one last
// looked: the store looks at the start of every transaction and of every read that takes none,
// and empties the cache when it has. This connection's own writes drop what they change, and
// every rollback empties the cache, since a value read inside a rolled-back transaction was never
// committed.
import type { Db } from './database.js';

export interface FactCache {
  /** A map of cached facts, emptied with the rest. */
  map<V>(): Map<string, V>;
  /** Empties the cache when another connection has committed since the last look. */
  revalidate(): void;
  /** Empties the cache. */
  clear(): void;
}

export function factCache(db: Db): FactCache {
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  let seen = dataVersion.get();
  const maps: Array<Map<string, unknown>> = [];
  const clear = () => {
    for (const map of maps) map.clear();
  };
  return {
    map<V>() {
      const map = new Map<string, V>();
      maps.push(map as Map<string, unknown>);
      return map;
    },
    revalidate() {
      const version = dataVersion.get();
      if (version === seen) return;
      seen = version;
      clear();
    },
    clear,
  };
}
