// What the PostgreSQL store tells about itself (the metrics and probes read it): the pool's use
// (connections open, idle, and callers waiting for one), the schema version the database holds
// beside the newest the store knows, and the outbox's depth (the deliveries still pending).
import { afterEach, describe, expect, it } from 'vitest';
import { createPostgresStore, type PostgresStore } from '../../src/sandbox/store/postgres/index.js';
import { testDatabase } from '../support/postgres-database.js';
import { addEndpoint, NOW } from '../support/shared-delivery.js';

const stores: PostgresStore[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
});

async function openStore(label: string): Promise<PostgresStore> {
  const store = await createPostgresStore(await testDatabase(label));
  stores.push(store);
  return store;
}

describe("the PostgreSQL store's pool use", () => {
  it('counts the connections open and idle: one taken by a transaction is open, not idle', async () => {
    const store = await openStore('pool_use');
    await store.revalidate();
    const rested = store.poolUse();
    expect(rested).toEqual({ open: expect.any(Number), idle: expect.any(Number), waiting: 0 });
    expect(rested!.open).toBeGreaterThanOrEqual(1);
    expect(rested!.idle).toBe(rested!.open);
    const during = await store.transaction(async () => store.poolUse());
    expect(during!.idle).toBe(during!.open - 1);
  });
});

describe("the PostgreSQL store's schema versions", () => {
  it('of a database it migrated: the database holds the newest version the store knows', async () => {
    const store = await openStore('schema_versions');
    const versions = await store.schemaVersions();
    expect(versions.known).toBeGreaterThan(0);
    expect(versions.database).toBe(versions.known);
  });
});

describe("the PostgreSQL store's outbox depth", () => {
  it("counts every endpoint's pending deliveries, and no longer those that ended", async () => {
    const store = await openStore('pending_count');
    expect(await store.deliveries.pendingCount()).toBe(0);
    await addEndpoint(store, 'we_1');
    await addEndpoint(store, 'we_2');
    for (const n of [1, 2])
      await store.transaction(() =>
        store.outbox.enqueue(
          'dev',
          { event_type: 'payment.completed', data: { payment_id: `ps_${n}` } },
          NOW,
          `dlv_${n}`,
        ),
      );
    expect(await store.deliveries.pendingCount()).toBe(4);
    // A removed endpoint's pending deliveries end.
    expect(await store.deliveries.removeEndpoint('dev', 'we_1')).toBe(true);
    expect(await store.deliveries.pendingCount()).toBe(2);
  });
});
