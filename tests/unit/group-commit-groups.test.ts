// How group commit (store/group-commit.ts) forms its groups, over a transaction function that
// records what it is asked and lets the test hold a commit: a group begins only once the one before
// has committed, and the writes that arrived meanwhile form the next one; a group runs in the
// context the store was made in, never in the asking request's; a write asked for inside a
// transaction runs in a savepoint of it at once. The backends' own transactions are in
// group-commit.test.ts (SQLite) and tests/postgres/core-transactions.test.ts.
import { AsyncLocalStorage } from 'node:async_hooks';
import { describe, expect, it } from 'vitest';
import { groupCommit, LONE_LANE, nextGroup, PER_LANE } from '../../src/sandbox/store/group-commit.js';

/** After the callbacks already scheduled for the next turn (where a group begins). */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * A transaction function that logs each transaction it begins and commits, and each savepoint, and
 * whose first commit waits until the test releases it. Transactions are not serialized, as neither
 * PostgreSQL's connections nor a fake are: only group commit keeps its groups apart.
 */
function heldTransactions() {
  const log: string[] = [];
  const inside = new AsyncLocalStorage<true>();
  let release = () => {};
  const firstCommit = new Promise<void>((resolve) => {
    release = resolve;
  });
  let commits = 0;
  const transaction = async <T>(fn: () => Promise<T>): Promise<T> => {
    if (inside.getStore()) {
      log.push('savepoint');
      return fn();
    }
    log.push('begin');
    const value = await inside.run(true, fn);
    if (commits++ === 0) await firstCommit;
    log.push('commit');
    return value;
  };
  const write = groupCommit(transaction, () => inside.getStore() === true);
  return { log, transaction, write, release };
}

describe('group commit forms its groups', () => {
  it('begins a group only once the one before has committed: the writes that arrived meanwhile form the next', async () => {
    const { log, write, release } = heldTransactions();
    const first = write(async () => log.push('a'));
    await nextTurn();
    expect(log).toEqual(['begin', 'savepoint', 'a']);
    // Asked for while the first group is committing.
    const later = [write(async () => log.push('b')), write(async () => log.push('c'))];
    await nextTurn();
    await nextTurn();
    expect(log).toEqual(['begin', 'savepoint', 'a']);
    release();
    await Promise.all([first, ...later]);
    expect(log).toEqual(['begin', 'savepoint', 'a', 'commit', 'begin', 'savepoint', 'b', 'savepoint', 'c', 'commit']);
  });

  it('runs a group in the context the store was made in, not in that of the request that asked first', async () => {
    const { write, release } = heldTransactions();
    release();
    const request = new AsyncLocalStorage<string>();
    const seen = await request.run('request 1', () => write(async () => request.getStore()));
    expect(seen).toBeUndefined();
  });

  it('runs a write asked for inside a transaction in a savepoint of it, at once, rather than waiting for a group', async () => {
    const { log, transaction, write, release } = heldTransactions();
    release();
    const value = await transaction(async () => {
      const inner = await write(async () => 'inner');
      log.push('after the inner write');
      return inner;
    });
    expect(value).toBe('inner');
    expect(log).toEqual(['begin', 'savepoint', 'after the inner write', 'commit']);
  });
});

describe('group commit is fair between lanes', () => {
  it('takes at most PER_LANE writes of each lane into a group while several wait, round the lanes, each in arrival order', () => {
    const pending = [
      ...Array.from({ length: 12 }, (_, i) => ({ lane: 'a', name: `a${i + 1}` })),
      { lane: 'b', name: 'b1' },
      { lane: 'c', name: 'c1' },
      { lane: 'b', name: 'b2' },
      { lane: 'b', name: 'b3' },
    ];
    const { writes, left } = nextGroup(pending);
    expect(PER_LANE).toBe(2);
    expect(writes.map((w) => w.name)).toEqual(['a1', 'b1', 'c1', 'a2', 'b2']);
    expect(left.map((w) => w.name)).toEqual([...Array.from({ length: 10 }, (_, i) => `a${i + 3}`), 'b3']);
  });

  it('takes up to LONE_LANE writes of a lane that waits alone', () => {
    const pending = Array.from({ length: 20 }, (_, i) => ({ lane: 'a', name: `a${i + 1}` }));
    const { writes, left } = nextGroup(pending);
    expect(LONE_LANE).toBe(8);
    expect(writes).toHaveLength(8);
    expect(left.map((w) => w.name)).toEqual(Array.from({ length: 12 }, (_, i) => `a${i + 9}`));
  });

  it("takes up to the backend's own number of writes of a lane that waits alone, and PER_LANE when lanes share", () => {
    const alone = Array.from({ length: 20 }, (_, i) => ({ lane: 'a', name: `a${i + 1}` }));
    const { writes, left } = nextGroup(alone, 12);
    expect(writes.map((w) => w.name)).toEqual(Array.from({ length: 12 }, (_, i) => `a${i + 1}`));
    expect(left.map((w) => w.name)).toEqual(Array.from({ length: 8 }, (_, i) => `a${i + 13}`));
    const shared = [...alone, { lane: 'b', name: 'b1' }];
    expect(nextGroup(shared, 12).writes.map((w) => w.name)).toEqual(['a1', 'b1', 'a2']);
  });

  it("groups a lone lane's writes by the number the backend gave", async () => {
    const groups: number[] = [];
    const inside = new AsyncLocalStorage<boolean>();
    const transaction = async <T>(fn: () => Promise<T>): Promise<T> => {
      if (inside.getStore()) return fn();
      groups.push(0);
      return inside.run(true, fn);
    };
    const write = groupCommit(transaction, () => inside.getStore() === true, 5);
    await Promise.all(
      Array.from({ length: 12 }, () =>
        write(async () => {
          groups[groups.length - 1]! += 1;
        }, 'a'),
      ),
    );
    expect(groups).toEqual([5, 5, 2]);
  });

  it("runs another lane's write in the burst's first group, not after the burst", async () => {
    const { log, write, release } = heldTransactions();
    release();
    const burst = Array.from({ length: 20 }, (_, i) => write(async () => log.push(`a${i}`), 'a'));
    const other = write(async () => log.push('b'), 'b');
    await Promise.all([...burst, other]);
    const firstCommit = log.indexOf('commit');
    expect(log.indexOf('b')).toBeLessThan(firstCommit);
    // The first group: a0, b and a1; then the burst alone, eight at a time.
    expect(log.filter((entry) => entry === 'commit')).toHaveLength(4);
  });
});
