// Several sandbox processes share one PostgreSQL database: each due delivery is claimed by one of
// them under a lease, and only the claim that holds it may report its attempt. Each process is a
// pool of its own here, on a real server.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AttemptRecord } from '../../../src/sandbox/store/deliveries.js';
import {
  type ClaimedDelivery,
  type ClaimingDeliveries,
  deliveriesRepository,
} from '../../../src/sandbox/store/postgres/deliveries.js';
import { outboxRepository } from '../../../src/sandbox/store/postgres/outbox.js';
import { type EventsDatabase, eventsDatabase, poolQueries } from './events-database.js';

const NOW = '2026-01-01T00:00:00.000Z';
const LATER = '2026-01-01T00:00:05.000Z';
const MINUTE = 60_000;

let server: EventsDatabase;
let first: ClaimingDeliveries;
let second: ClaimingDeliveries;

beforeAll(async () => {
  server = await eventsDatabase('delivery_claims');
  first = deliveriesRepository(server.q);
  second = deliveriesRepository(poolQueries(server.otherPool()));
});
afterAll(async () => {
  await server?.close();
});
beforeEach(async () => {
  await server.empty();
  await first.addEndpoint({
    id: 'we_1',
    channel: 'dev',
    url: 'http://127.0.0.1:9/hook',
    event_types: ['*'],
    secret: 'whsec_1',
    mode: 'signed',
    created_at: NOW,
  });
});

/** `count` events, each about a resource of its own unless `resource` names one for all. */
async function enqueue(count: number, resource?: string): Promise<void> {
  const outbox = outboxRepository(server.q);
  for (let n = 1; n <= count; n++)
    await outbox.enqueue(
      'dev',
      { event_type: 'payment.completed', data: { payment_id: resource ?? `ps_${n}` } },
      NOW,
      `dlv_${n}`,
    );
}

const attempt = (delivery: ClaimedDelivery, status: number): AttemptRecord => ({
  channel: 'dev',
  delivery_id: delivery.id,
  attempted_at: NOW,
  status,
  latency_ms: 1,
  response: null,
  error: null,
});

const webhookDeliveryId = (delivery: ClaimedDelivery) =>
  (JSON.parse(delivery.payload) as { webhook_delivery_id: string }).webhook_delivery_id;

describe('claims of deliveries by several sandboxes', () => {
  it('gives two owners claiming at once disjoint deliveries, which together are every due one', async () => {
    await enqueue(120);
    const claimAll = async (deliveries: ClaimingDeliveries, owner: string) => {
      const ids: number[] = [];
      for (;;) {
        const claimed = await deliveries.claim('we_1', NOW, 7, owner, MINUTE);
        if (claimed.length === 0) return ids;
        ids.push(...claimed.map((delivery) => delivery.id));
      }
    };
    const [a, b] = await Promise.all([claimAll(first, 'sandbox-a'), claimAll(second, 'sandbox-b')]);
    expect(a.filter((id) => b.includes(id))).toEqual([]);
    expect([...a, ...b].sort((x, y) => x - y)).toEqual(Array.from({ length: 120 }, (_, n) => n + 1));
  });

  it('passes over the deliveries a claim not yet committed holds, without waiting for it', async () => {
    await enqueue(4);
    const client = await server.pool.connect();
    try {
      await client.query('BEGIN');
      const held = await deliveriesRepository(poolQueries(client)).claim('we_1', NOW, 2, 'sandbox-a', MINUTE);
      const other = await second.claim('we_1', NOW, 10, 'sandbox-b', MINUTE);
      expect({ held: held.map((d) => d.id), other: other.map((d) => d.id) }).toEqual({ held: [1, 2], other: [3, 4] });
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    expect(await second.claim('we_1', NOW, 10, 'sandbox-b', MINUTE)).toEqual([]);
  });

  it('claims oldest event first, only when due on the channel’s clock, and leaves leased ones out of due', async () => {
    await enqueue(3);
    const claimed = await first.claim('we_1', NOW, 2, 'sandbox-a', MINUTE);
    expect(claimed.map((d) => [d.id, d.outbox_id, d.claim])).toEqual([
      [1, 1, { owner: 'sandbox-a', seq: 1 }],
      [2, 2, { owner: 'sandbox-a', seq: 1 }],
    ]);
    expect((await second.due('we_1', NOW, { skip: [], limit: 10 })).map((d) => d.id)).toEqual([3]);
    await first.failedByClaim(claimed[0]!.claim, attempt(claimed[0]!, 500), LATER);
    expect(await second.claim('we_1', NOW, 10, 'sandbox-b', MINUTE)).toMatchObject([{ id: 3 }]);
    expect(await second.claim('we_1', LATER, 10, 'sandbox-b', MINUTE)).toMatchObject([
      { id: 1, attempts: 1, claim: { owner: 'sandbox-b', seq: 2 } },
    ]);
  });

  it('keeps one resource’s events one at a time across sandboxes: a later one waits while an earlier is claimed', async () => {
    await enqueue(2, 'ps_same');
    const [earlier] = await first.claim('we_1', NOW, 10, 'sandbox-a', MINUTE);
    expect(await second.claim('we_1', NOW, 10, 'sandbox-b', MINUTE)).toEqual([]);
    expect(await first.deliveredByClaim(earlier!.claim, attempt(earlier!, 200), earlier!.outbox_id, NOW)).toBe(true);
    expect(await second.claim('we_1', NOW, 10, 'sandbox-b', MINUTE)).toMatchObject([{ id: 2, outbox_id: 2 }]);
  });

  it('lets another sandbox claim a delivery whose lease ran out (its sandbox killed), under the same webhook_delivery_id', async () => {
    await enqueue(1);
    // A lease of no time: over as soon as it is taken, as when the sandbox that took it was killed.
    const [lost] = await first.claim('we_1', NOW, 10, 'sandbox-a', 0);
    const [taken] = await second.claim('we_1', NOW, 10, 'sandbox-b', MINUTE);
    expect(taken).toMatchObject({ id: lost!.id, payload: lost!.payload, claim: { owner: 'sandbox-b', seq: 2 } });
    expect(webhookDeliveryId(taken!)).toBe('dlv_1');
    expect(await second.deliveredByClaim(taken!.claim, attempt(taken!, 204), taken!.outbox_id, NOW)).toBe(true);
    expect(await second.isPending(taken!.id)).toBe(false);
    expect((await second.attempts('dev', { after: 0, limit: 10 })).rows).toMatchObject([
      { status: 204, webhook_delivery_id: 'dlv_1', delivery_status: 'delivered', delivery_attempts: 1 },
    ]);
  });

  it('refuses the late report of a sandbox whose lease ran out and was claimed again, and keeps the new claim', async () => {
    await enqueue(1);
    const [lost] = await first.claim('we_1', NOW, 10, 'sandbox-a', 0);
    const [taken] = await second.claim('we_1', NOW, 10, 'sandbox-b', MINUTE);
    expect(await first.deliveredByClaim(lost!.claim, attempt(lost!, 200), lost!.outbox_id, NOW)).toBe(false);
    expect(await first.failedByClaim(lost!.claim, attempt(lost!, 500), null)).toBe(false);
    expect(await first.release(lost!.id, lost!.claim)).toBe(false);
    // Nothing of the late report was kept: no attempt, the event not delivered, the delivery still leased.
    expect((await first.attempts('dev', { after: 0, limit: 10 })).rows).toEqual([]);
    expect(await server.q.value('SELECT delivered_at FROM outbox WHERE id = 1')).toBeNull();
    expect(await first.claim('we_1', NOW, 10, 'sandbox-a', MINUTE)).toEqual([]);
    expect(await second.failedByClaim(taken!.claim, attempt(taken!, 500), LATER)).toBe(true);
  });

  it('refuses a report from the same sandbox’s earlier claim once the delivery was claimed again', async () => {
    await enqueue(1);
    const [earlier] = await first.claim('we_1', NOW, 10, 'sandbox-a', 0);
    const [again] = await first.claim('we_1', NOW, 10, 'sandbox-a', MINUTE);
    expect(again!.claim).toEqual({ owner: 'sandbox-a', seq: 2 });
    expect(await first.deliveredByClaim(earlier!.claim, attempt(earlier!, 200), earlier!.outbox_id, NOW)).toBe(false);
    expect(await first.deliveredByClaim(again!.claim, attempt(again!, 200), again!.outbox_id, NOW)).toBe(true);
  });

  it('takes the report of a claim whose lease ran out when nobody claimed the delivery since', async () => {
    await enqueue(1);
    const [late] = await first.claim('we_1', NOW, 10, 'sandbox-a', 0);
    expect(await first.deliveredByClaim(late!.claim, attempt(late!, 200), late!.outbox_id, NOW)).toBe(true);
    expect(await second.claim('we_1', NOW, 10, 'sandbox-b', MINUTE)).toEqual([]);
  });

  it('hands a released claim to any sandbox at once, and a failed attempt to any sandbox when due again', async () => {
    await enqueue(1);
    const [given] = await first.claim('we_1', NOW, 10, 'sandbox-a', MINUTE);
    expect(await first.release(given!.id, given!.claim)).toBe(true);
    const [retried] = await second.claim('we_1', NOW, 10, 'sandbox-b', MINUTE);
    expect(retried).toMatchObject({ id: given!.id, attempts: 0 });
    expect(await second.failedByClaim(retried!.claim, attempt(retried!, 503), LATER)).toBe(true);
    expect(await first.claim('we_1', NOW, 10, 'sandbox-a', MINUTE)).toEqual([]);
    expect(await first.claim('we_1', LATER, 10, 'sandbox-a', MINUTE)).toMatchObject([{ id: given!.id, attempts: 1 }]);
  });

  it('lets another sandbox deliver what a sandbox killed (kill -9) mid-delivery had claimed, once its lease ended', async () => {
    await enqueue(2);
    const killed = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(import.meta.dirname, 'claiming-sandbox.ts'),
        server.url,
        'we_1',
        'sandbox-k',
        '2000',
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const [line] = (await once(createInterface({ input: killed.stdout! }), 'line')) as [string];
    const lost = JSON.parse(line) as ClaimedDelivery[];
    expect(lost.map((d) => d.id)).toEqual([1, 2]);
    // Its lease holds while it lives: nobody else may claim.
    expect(await second.claim('we_1', NOW, 10, 'sandbox-b', MINUTE)).toEqual([]);
    killed.kill('SIGKILL');
    await once(killed, 'exit');
    // Asked again until the lease ends (the test's own time limit bounds the wait).
    let taken: ClaimedDelivery[] = [];
    while (taken.length === 0) {
      await sleep(50);
      taken = await second.claim('we_1', NOW, 10, 'sandbox-b', MINUTE);
    }
    expect(taken.map((d) => [d.id, webhookDeliveryId(d), d.claim])).toEqual([
      [1, 'dlv_1', { owner: 'sandbox-b', seq: 2 }],
      [2, 'dlv_2', { owner: 'sandbox-b', seq: 2 }],
    ]);
    for (const delivery of taken)
      expect(await second.deliveredByClaim(delivery.claim, attempt(delivery, 200), delivery.outbox_id, NOW)).toBe(true);
    expect(await second.claim('we_1', NOW, 10, 'sandbox-b', MINUTE)).toEqual([]);
  });
});
