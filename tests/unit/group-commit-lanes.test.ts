// The lane of a write given none (store/group-commit.ts): the helpers' own writes (a listener's
// claim, the dashboard's resend) name no channel, and go in the unnamed lane, the lane ''. So they
// are one lane with any write that names the lane '', and such writes waiting alone are grouped
// LONE_LANE at a time, as the writes of one lane are, not shared out as two lanes' would be.
import { AsyncLocalStorage } from 'node:async_hooks';
import { describe, expect, it } from 'vitest';
import { groupCommit, LONE_LANE } from '../../src/sandbox/store/group-commit.js';

/** A transaction function that notes which writes each group (each transaction) ran. */
function notedGroups() {
  const groups: string[][] = [];
  const inside = new AsyncLocalStorage<string[]>();
  const transaction = async <T>(fn: () => Promise<T>): Promise<T> => {
    if (inside.getStore()) return fn();
    const group: string[] = [];
    groups.push(group);
    return inside.run(group, fn);
  };
  const write = groupCommit(transaction, () => inside.getStore() !== undefined);
  const note = (name: string) => async () => {
    inside.getStore()!.push(name);
  };
  return { groups, write, note };
}

describe('a write given no lane', () => {
  it("is in the lane '': with writes of that lane it is one lane, grouped LONE_LANE at a time", async () => {
    const { groups, write, note } = notedGroups();
    const named = Array.from({ length: LONE_LANE }, (_, i) => `named${i + 1}`);
    await Promise.all([write(note('unnamed')), ...named.map((name) => write(note(name), ''))]);
    expect(groups).toEqual([['unnamed', ...named.slice(0, LONE_LANE - 1)], [named.at(-1)]]);
  });
});
