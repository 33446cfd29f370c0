// Group commit (store/group-commit.ts) begins one transaction per turn of the event loop, whatever
// the number of writes that turn: each write runs in a savepoint inside it, and no empty
// transaction follows.
import { describe, expect, it } from 'vitest';
import { groupCommit } from '../../src/sandbox/store/group-commit.js';

/** A transaction function that records each outermost transaction and each nested one. */
function recordingTransaction() {
  const log: string[] = [];
  let depth = 0;
  const transaction = <T>(fn: () => T): T => {
    log.push(depth === 0 ? 'begin' : 'savepoint');
    depth++;
    try {
      return fn();
    } finally {
      depth--;
      if (depth === 0) log.push('commit');
    }
  };
  return { log, transaction };
}

describe("group commit's transactions", () => {
  it('begins and commits once for the writes of one turn, and once again for a later turn', async () => {
    const { log, transaction } = recordingTransaction();
    const write = groupCommit(transaction);
    expect(await Promise.all([1, 2, 3].map((n) => write(() => n * 10)))).toEqual([10, 20, 30]);
    expect(log).toEqual(['begin', 'savepoint', 'savepoint', 'savepoint', 'commit']);
    // Nothing more is committed once the turn's writes are answered.
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toHaveLength(5);
    expect(await write(() => 'later')).toBe('later');
    expect(log.slice(5)).toEqual(['begin', 'savepoint', 'commit']);
  });
});
