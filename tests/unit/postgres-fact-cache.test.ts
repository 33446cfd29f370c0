// The PostgreSQL store's cache rule (store/postgres/fact-cache.ts), without a server: the
// transactions are told to the cache as the store tells them, and each fact is loaded by a function
// the test controls, so that a load can be held while something changes.
import { describe, expect, it } from 'vitest';
import { factCache } from '../../src/sandbox/store/postgres/fact-cache.js';
import type { Transaction } from '../../src/sandbox/store/postgres/transaction.js';

/** A cache, and the transaction the caller is in (none by default). */
function cacheWith() {
  let current: Transaction | undefined;
  const cache = factCache(() => current);
  return {
    cache,
    in: (tx: Transaction | undefined) => {
      current = tx;
    },
  };
}

/** A load that ends when the test says, counting how often it ran. */
function held<V>(value: V) {
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const load = async () => {
    load.runs++;
    await gate;
    return value;
  };
  load.runs = 0;
  return { load, release: () => release() };
}

describe('the PostgreSQL fact cache', () => {
  it('keeps nothing before it has seen a revision', async () => {
    const { cache } = cacheWith();
    const facts = cache.factMap<number>();
    expect(await facts.fetch('dev', async () => 1)).toBe(1);
    expect(await facts.fetch('dev', async () => 2)).toBe(2);
  });

  it('keeps a fact loaded at its revision, until a later revision is seen', async () => {
    const { cache } = cacheWith();
    const facts = cache.factMap<number>();
    cache.saw(5);
    expect(await facts.fetch('dev', async () => 1)).toBe(1);
    expect(await facts.fetch('dev', async () => 2)).toBe(1);
    cache.saw(5);
    expect(await facts.fetch('dev', async () => 3)).toBe(1);
    cache.saw(6);
    expect(await facts.fetch('dev', async () => 4)).toBe(4);
  });

  it('does not keep a fact whose load straddled a drop', async () => {
    const { cache } = cacheWith();
    const facts = cache.factMap<string>();
    cache.saw(1);
    const slow = held('before the change');
    const loading = facts.fetch('dev', slow.load);
    facts.drop('dev');
    slow.release();
    expect(await loading).toBe('before the change');
    expect(await facts.fetch('dev', async () => 'after the change')).toBe('after the change');
  });

  it('serves and keeps nothing for a read older than the cache', async () => {
    const { cache, in: inside } = cacheWith();
    const facts = cache.factMap<string>();
    cache.saw(3);
    await facts.fetch('dev', async () => 'at 3');
    const older: Transaction = { kind: 'read', revision: 2 };
    cache.began(older);
    inside(older);
    expect(await facts.fetch('dev', async () => 'at 2')).toBe('at 2');
    inside(undefined);
    expect(await facts.fetch('dev', async () => 'not asked')).toBe('at 3');
  });

  it('gives a write what it changed alone, and drops it for everyone as the write commits', async () => {
    const { cache, in: inside } = cacheWith();
    const facts = cache.factMap<string>();
    const write: Transaction = { kind: 'write', revision: 7 };
    cache.began(write);
    inside(write);
    expect(await facts.fetch('dev', async () => 'committed')).toBe('committed');
    facts.drop('dev');
    expect(await facts.fetch('dev', async () => 'written')).toBe('written');
    // A read beside the write, at the committed revision, loads and keeps the committed value...
    const beside: Transaction = { kind: 'read', revision: 7 };
    cache.began(beside);
    inside(beside);
    expect(await facts.fetch('dev', async () => 'committed')).toBe('committed');
    inside(write);
    expect(await facts.fetch('dev', async () => 'not asked')).toBe('written');
    // ...which the write's commit drops.
    cache.committed(write);
    inside(undefined);
    expect(cache.revision()).toBe(8);
    expect(await facts.fetch('dev', async () => 'written, read again')).toBe('written, read again');
  });

  it('keeps nothing of a write that rolled back', async () => {
    const { cache, in: inside } = cacheWith();
    const facts = cache.factMap<string>();
    cache.saw(1);
    await facts.fetch('dev', async () => 'committed');
    const write: Transaction = { kind: 'write', revision: 1 };
    cache.began(write);
    inside(write);
    facts.drop('dev');
    expect(await facts.fetch('dev', async () => 'written')).toBe('written');
    cache.rolledBack(write);
    inside(undefined);
    expect(cache.revision()).toBe(1);
    expect(await facts.fetch('dev', async () => 'committed, read again')).toBe('committed, read again');
  });

  it('keeps no answer in its plain maps for a write', () => {
    const { cache, in: inside } = cacheWith();
    const answers = cache.map<string>();
    cache.saw(1);
    answers.set('page', 'kept');
    const write: Transaction = { kind: 'write', revision: 1 };
    cache.began(write);
    inside(write);
    answers.set('other', 'not kept');
    expect(cache.lease()).toBeUndefined();
    inside(undefined);
    expect([...answers]).toEqual([['page', 'kept']]);
    cache.committed(write);
    expect([...answers]).toEqual([]);
  });
});
