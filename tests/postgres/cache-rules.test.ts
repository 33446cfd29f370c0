// The rule of the PostgreSQL store's fact cache (store/postgres/fact-cache.ts), held by the cache
// alone: the transactions are told to it as transactions.ts tells them (began, committed,
// rolledBack), and each load counts, so that what the cache kept, served or emptied shows. The
// cache never serves a value the caller's state does not hold (a write's change before its commit,
// a value read before a change), and keeps what still holds, so that the next read touches no table.
import { describe, expect, it } from 'vitest';
import { factCache } from '../../src/sandbox/store/postgres/fact-cache.js';
import type { Transaction } from '../../src/sandbox/store/postgres/transaction.js';

/** A cache at `revision`, with one map of facts, whose callers run outside any transaction unless `as` says. */
function cacheAt(revision: number) {
  let current: Transaction | undefined;
  const cache = factCache(() => current);
  cache.saw(revision);
  const facts = cache.factMap<string>();
  let loads = 0;
  /** Calls `fn` as a caller inside `tx` would (what the cache reads of the caller, it reads at once). */
  const as = <T>(tx: Transaction | undefined, fn: () => T): T => {
    const before = current;
    current = tx;
    try {
      return fn();
    } finally {
      current = before;
    }
  };
  return {
    cache,
    as,
    loads: () => loads,
    /** The fact under `key`, as `tx` reads it; `stored` is what the table would answer. */
    fetch: (key: string, stored: string, tx?: Transaction) =>
      as(tx, () =>
        facts.fetch(key, async () => {
          loads++;
          return stored;
        }),
      ),
    /** The same, with a load that ends when the test says. */
    slowFetch(key: string, stored: string) {
      let done!: () => void;
      const gate = new Promise<void>((resolve) => {
        done = resolve;
      });
      const pending = facts.fetch(key, async () => {
        loads++;
        await gate;
        return stored;
      });
      return { pending, done: () => done() };
    },
    drop: (key: string, tx: Transaction) => as(tx, () => facts.drop(key)),
    /** A write that began at `revision` (holding the write lock, so it commits `revision + 1`). */
    write(from: number): Transaction {
      const tx: Transaction = { kind: 'write', revision: from };
      cache.began(tx);
      return tx;
    },
  };
}

describe('the fact cache', () => {
  it('keeps no value loaded across a change and the commit of the write that made it', async () => {
    const { cache, fetch, slowFetch, drop, write } = cacheAt(1);
    const lease = cache.lease()!;
    const slow = slowFetch('clock', 'before the write');
    const writing = write(1);
    drop('clock', writing);
    cache.committed(writing);
    slow.done();
    expect(await slow.pending).toBe('before the write');
    expect(await fetch('clock', 'after the write')).toBe('after the write');
    // The plain maps' leave, taken before both, is spent too.
    expect(lease.valid()).toBe(false);
  });

  it('serves a write the facts it did not change, and keeps what it reads of them past its commit', async () => {
    const { cache, fetch, drop, write, loads } = cacheAt(1);
    expect(await fetch('clock', 'stored')).toBe('stored');
    expect(loads()).toBe(1);
    const writing = write(1);
    expect(await fetch('clock', 'stored', writing)).toBe('stored');
    expect(loads()).toBe(1);
    expect(await fetch('features', 'stored', writing)).toBe('stored');
    expect(loads()).toBe(2);
    drop('faults', writing);
    cache.committed(writing);
    expect(cache.revision()).toBe(2);
    expect(await fetch('clock', 'stored')).toBe('stored');
    expect(await fetch('features', 'stored')).toBe('stored');
    expect(loads()).toBe(2);
  });

  it('gives a write what it changed for itself alone, and a rollback leaves none of it behind', async () => {
    const { cache, fetch, drop, write } = cacheAt(1);
    expect(await fetch('clock', 'committed clock')).toBe('committed clock');
    const writing = write(1);
    drop('clock', writing);
    drop('features', writing);
    expect(await fetch('clock', 'written clock', writing)).toBe('written clock');
    expect(await fetch('features', 'written features', writing)).toBe('written features');
    // A read beside the write reads the committed state.
    expect(await fetch('clock', 'committed clock')).toBe('committed clock');
    expect(await fetch('features', 'committed features')).toBe('committed features');
    cache.rolledBack(writing);
    expect(await fetch('clock', 'committed clock')).toBe('committed clock');
    expect(await fetch('features', 'committed features')).toBe('committed features');
  });

  it('empties every fact and plain map when cleared', async () => {
    const { cache, fetch, loads } = cacheAt(1);
    const map = cache.map<string>();
    expect(await fetch('clock', 'first')).toBe('first');
    map.set('page', 'kept');
    cache.clear();
    expect(map.get('page')).toBeUndefined();
    expect(await fetch('clock', 'second')).toBe('second');
    expect(loads()).toBe(2);
  });

  it('gives a write that cleared it every fact for itself alone, and a rollback leaves none of them behind', async () => {
    const { cache, as, fetch, write } = cacheAt(1);
    const writing = write(1);
    as(writing, () => cache.clear());
    expect(await fetch('clock', 'reset inside the write', writing)).toBe('reset inside the write');
    expect(await fetch('clock', 'committed')).toBe('committed');
    cache.rolledBack(writing);
    expect(await fetch('clock', 'committed')).toBe('committed');
  });

  it('empties, as a write that cleared it commits, what reads beside that write kept', async () => {
    const { cache, as, fetch, write } = cacheAt(1);
    const writing = write(1);
    as(writing, () => cache.clear());
    // A read beside the write keeps the committed state, which the write's commit ends.
    expect(await fetch('clock', 'before the reset')).toBe('before the reset');
    expect(await fetch('clock', 'not loaded')).toBe('before the reset');
    cache.committed(writing);
    expect(cache.revision()).toBe(2);
    expect(await fetch('clock', 'after the reset')).toBe('after the reset');
  });

  it('empties nothing as a write commits that a read of this sandbox has already seen committed', async () => {
    const { cache, fetch, drop, write, loads } = cacheAt(1);
    const writing = write(1);
    drop('clock', writing);
    // A request looked at the revision once the write had committed, before the write's own line ran.
    cache.saw(2);
    expect(await fetch('clock', 'written')).toBe('written');
    expect(loads()).toBe(1);
    cache.committed(writing);
    expect(cache.revision()).toBe(2);
    expect(await fetch('clock', 'written')).toBe('written');
    expect(loads()).toBe(1);
  });
});
