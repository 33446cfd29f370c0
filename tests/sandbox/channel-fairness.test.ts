// Channels that do not stall each other, on SQLite (tests/postgres/channel-fairness.test.ts holds
// the same on PostgreSQL): another channel's retrieve, sent with twenty heavy lists of channel
// other, is answered among the first, not after them (told by the order of the answers alone); and
// each request's writes go in its channel's lane of the group commit, of which a group takes eight
// at most (tests/unit/group-commit-groups.test.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/sandbox/store/database.js';
import { createStore } from '../../src/sandbox/store/index.js';
import { sqliteBackend } from '../../src/sandbox/store/sqlite-backend.js';
import { fairnessSandbox } from '../support/channel-fairness.js';

const closers: Array<() => unknown> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function sandbox() {
  const db = openDatabase(':memory:');
  const s = await fairnessSandbox(sqliteBackend(createStore(db)));
  closers.push(
    () => s.app.close(),
    () => db.close(),
  );
  return s;
}

describe('channels that do not stall each other, on SQLite', () => {
  it("answers another channel's retrieve among the first of twenty heavy lists sent with it", async () => {
    const s = await sandbox();
    const heavy = Array.from({ length: 20 }, (_, i) => s.heavyRead(i));
    const order = await s.answeredOrder([...heavy, s.devRetrieve]);
    expect(order.indexOf('dev-retrieve')).toBeLessThan(2);
  });

  it("puts each request's writes in its channel's lane of the group commit, which a burst of another channel's cannot fill", async () => {
    const s = await sandbox();
    const lanes: unknown[] = [];
    const write = s.store.write.bind(s.store);
    s.store.write = (fn, lane) => {
      lanes.push(lane);
      return write(fn, lane);
    };
    await s.answeredOrder([s.otherCreate(0), s.devCreate]);
    expect(lanes.sort()).toEqual(['dev', 'other']);
  });
});
