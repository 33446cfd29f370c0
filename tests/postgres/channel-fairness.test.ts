// Channels that do not stall each other, on PostgreSQL (tests/sandbox/channel-fairness.test.ts
// holds the same on SQLite, and says how it is told).
import { afterEach, describe, expect, it } from 'vitest';
import { createPostgresStore, type PostgresStore } from '../../src/sandbox/store/postgres/index.js';
import { fairnessSandbox } from '../support/channel-fairness.js';
import { testDatabase } from '../support/postgres-database.js';

const closers: Array<() => unknown> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function sandbox(label: string) {
  const store: PostgresStore = await createPostgresStore(await testDatabase(label));
  const s = await fairnessSandbox(store);
  closers.push(
    () => s.app.close(),
    () => store.close(),
  );
  return s;
}

describe('channels that do not stall each other, on PostgreSQL', () => {
  it("answers another channel's retrieve among the first of twenty heavy lists sent with it", async () => {
    const s = await sandbox('fair_reads');
    const heavy = Array.from({ length: 20 }, (_, i) => s.heavyRead(i));
    const order = await s.answeredOrder([...heavy, s.devRetrieve]);
    expect(order.indexOf('dev-retrieve')).toBeLessThan(3);
  });

  it("puts each request's writes in its channel's lane of the group commit, which a burst of another channel's cannot fill", async () => {
    const s = await sandbox('fair_writes');
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
