// The facts nearly every request reads and that rarely change (each channel's clock, armed faults,
// features and evolution drill), and the answers of reads of sessions (session-answers.ts), kept in
// memory by each sandbox, for several sandboxes on one database.
//
// The rule: what the cache holds is what the database held at one committed revision (revision.ts),
// the cache's. Each transaction reads the revision as it begins (transactions.ts):
// - a later one empties the cache, which then holds that revision;
// - a read whose snapshot is the cache's revision reads and keeps entries; an older snapshot (one
//   that began before a write of this sandbox committed) neither reads nor keeps any;
// - outside any transaction (a single read, a timer) the cache is used at its revision, as of the
//   last look (`saw`: each request reads the revision as it starts);
// - the facts (`factMap`): a write (which holds the write lock, so the cache's revision is the
//   latest) reads and keeps the entries it has not changed; what it changes (`drop`) it reads and
//   keeps for itself alone, and drops from the cache again as it commits, since a read running
//   meanwhile may have kept the value from before the write; its commit moves the cache to the
//   revision it committed. A rollback leaves the cache as it was: a write never kept what it
//   changed there.
// - the plain maps (`map`, as the SQLite store's fact cache gives them: the answers of reads of
//   sessions) keep nothing for a write or an older snapshot (`set` does nothing for them), and are
//   emptied by every commit of a write of this sandbox as well (it may have changed any channel's
//   answers, and a read running meanwhile may have kept one from before it). A caller that may not
//   keep should not read them either (`lease`): a write would read a channel's answer kept by a
//   read from before its change (answer-cache.ts does so).
// A fact is kept only if nothing was dropped or emptied while it was being read (`generation`), so
// that a value read before a change is never kept after it; the session answers keep the same rule
// with tickets of their own.
// So a write acknowledged by one sandbox is seen by the next transaction or request of every other:
// it reads a later revision and empties its cache. Any write empties every other sandbox's cache,
// whichever channel it changed: exact, not narrow.
import type { FactCache } from '../fact-cache.js';
import type { Transaction } from './transaction.js';
import type { TransactionObserver } from './transactions.js';

/** A map of facts under the rule above: read through `fetch`, and dropped by the write that changed one. */
export interface FactMap<V> {
  /** The value under `key`: kept, or loaded by `load` (and kept when the rule allows). */
  fetch(key: string, load: () => Promise<V>): Promise<V>;
  /** The caller's write changed the value under `key`. */
  drop(key: string): void;
}

/** Leave to keep what the caller reads now: still valid when nothing was dropped or emptied since. */
export interface KeepLease {
  valid(): boolean;
}

export interface PgFactCache extends FactCache, TransactionObserver {
  /**
   * A map emptied with the cache and by every commit of this sandbox, that keeps nothing for a
   * caller who may not use the cache (inside a write, or in an older snapshot).
   */
  map<V>(): Map<string, V>;
  /**
   * Leave to read and keep entries of the plain maps, or undefined when the caller may not (a
   * write, an older snapshot).
   */
  lease(): KeepLease | undefined;
  factMap<V>(): FactMap<V>;
  /** The database's committed revision, as read outside any transaction: a later one empties the cache. */
  saw(revision: number): void;
  /** The revision the cache holds, once it has looked. */
  revision(): number | undefined;
}

/** What a write keeps for itself: the keys it changed, and what it read of them since. */
interface OwnChanges {
  touched: Map<number, Set<string>>;
  local: Map<number, Map<string, unknown>>;
  cleared: boolean;
}

/**
 * A Map that keeps what it is given only when `mayKeep` says so. It still answers and deletes for
 * everyone, so that a structure built of several such maps (../answer-cache.ts) stays whole: the
 * condition changes only when the maps are emptied.
 */
class GuardedMap<V> extends Map<string, V> {
  readonly #mayKeep: () => boolean;
  constructor(mayKeep: () => boolean) {
    super();
    this.#mayKeep = mayKeep;
  }
  override set(key: string, value: V): this {
    if (this.#mayKeep()) super.set(key, value);
    return this;
  }
}

export function factCache(current: () => Transaction | undefined): PgFactCache {
  let revision: number | undefined;
  let generation = 0;
  const facts: Array<Map<string, unknown>> = [];
  const plain: Array<Map<string, unknown>> = [];
  const writes = new WeakMap<Transaction, OwnChanges>();
  const emptyPlain = () => {
    for (const map of plain) map.clear();
    generation++;
  };
  const emptyAll = () => {
    for (const map of facts) map.clear();
    emptyPlain();
  };
  /** Whether the caller reads the state the cache holds (a write, only when `inWrite`). */
  const mayUse = (tx: Transaction | undefined, inWrite: boolean) =>
    revision !== undefined && (!tx || ((tx.kind === 'read' || inWrite) && tx.revision === revision));
  const ownChanges = (tx: Transaction | undefined) => (tx?.kind === 'write' ? writes.get(tx) : undefined);

  const cache: PgFactCache = {
    map<V>() {
      const map = new GuardedMap<V>(() => mayUse(current(), false));
      plain.push(map as Map<string, unknown>);
      return map;
    },
    lease() {
      if (!mayUse(current(), false)) return undefined;
      const since = generation;
      return { valid: () => generation === since };
    },
    factMap<V>(): FactMap<V> {
      const id = facts.length;
      const entries = new Map<string, V>();
      facts.push(entries as Map<string, unknown>);
      return {
        async fetch(key, load) {
          const tx = current();
          const mine = ownChanges(tx);
          if (mine && (mine.cleared || mine.touched.get(id)?.has(key))) {
            let local = mine.local.get(id) as Map<string, V> | undefined;
            if (!local) {
              local = new Map();
              mine.local.set(id, local);
            }
            if (local.has(key)) return local.get(key)!;
            const value = await load();
            local.set(key, value);
            return value;
          }
          const usable = mayUse(tx, true);
          if (usable && entries.has(key)) return entries.get(key)!;
          const since = generation;
          const value = await load();
          if (usable && generation === since) entries.set(key, value);
          return value;
        },
        drop(key) {
          const mine = ownChanges(current());
          if (mine) {
            let touched = mine.touched.get(id);
            if (!touched) {
              touched = new Set();
              mine.touched.set(id, touched);
            }
            touched.add(key);
            mine.local.get(id)?.delete(key);
          }
          entries.delete(key);
          generation++;
        },
      };
    },
    // The transactions look at the revision as they begin (began): nothing is left to look at here.
    revalidate() {},
    clear() {
      const mine = ownChanges(current());
      if (mine) mine.cleared = true;
      emptyAll();
    },
    saw(seen) {
      if (revision !== undefined && seen <= revision) return;
      emptyAll();
      revision = seen;
    },
    revision: () => revision,

    began(tx) {
      cache.saw(tx.revision);
      if (tx.kind === 'write') writes.set(tx, { touched: new Map(), local: new Map(), cleared: false });
    },
    committed(tx) {
      const mine = writes.get(tx);
      if (!mine) return;
      writes.delete(tx);
      const committed = tx.revision + 1;
      if (revision === tx.revision && !mine.cleared) {
        // The cache held the state the write began from: every fact but those it changed still holds.
        for (const [id, keys] of mine.touched) for (const key of keys) facts[id]!.delete(key);
        emptyPlain();
        revision = committed;
      } else if (revision === undefined || revision < committed) {
        emptyAll();
        revision = committed;
      }
      // Otherwise a read of this sandbox saw the commit before this line did, and emptied the cache then.
    },
    rolledBack(tx) {
      writes.delete(tx);
    },
    savepointRolledBack(tx) {
      writes.get(tx)?.local.clear();
    },
  };
  return cache;
}
