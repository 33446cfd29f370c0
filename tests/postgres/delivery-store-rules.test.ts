// Rules of the PostgreSQL store's deliveries (store/postgres/deliveries.ts) that the shared queue's
// tests (delivery-sharing.test.ts) leave open: the order of what one claim takes.
import { afterEach, describe, expect, it } from 'vitest';
import { createPostgresStore } from '../../src/sandbox/store/postgres/index.js';
import { testDatabase } from '../support/postgres-database.js';
import { addEndpoint, NOW } from '../support/shared-delivery.js';

type PostgresStore = Awaited<ReturnType<typeof createPostgresStore>>;

const stores: PostgresStore[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
});

async function openStore(label: string): Promise<PostgresStore> {
  const store = await createPostgresStore(await testDatabase(label));
  stores.push(store);
  return store;
}

describe('a claim', () => {
  it("gives an event's delivery before the drill's event after it, whatever order the database updated them in", async () => {
    const store = await openStore('claim_follow_up_order');
    await addEndpoint(store, 'we_1');
    // Under the evolution drill, the event and the drill's event after it are two deliveries of one
    // outbox event, of two resources: both due at once.
    await store.transaction(() =>
      store.outbox.enqueue(
        'dev',
        { event_type: 'payment.completed', data: { payment_id: 'ps_1' } },
        NOW,
        'dlv_1',
        'dlv_1_follow_up',
      ),
    );
    // The event's delivery claimed and released first: its row's latest version now comes after the other's.
    const [event] = await store.deliveries.claim('we_1', NOW, 1, 'first', 60_000);
    expect(await store.deliveries.release(event!.id, event!.claim)).toBe(true);
    const claimed = await store.deliveries.claim('we_1', NOW, 10, 'second', 60_000);
    expect(claimed.map((delivery) => delivery.outbox_id)).toEqual([event!.outbox_id, event!.outbox_id]);
    expect(claimed[0]!.id).toBe(event!.id);
    expect(claimed[1]!.id).toBeGreaterThan(event!.id);
  });
});
