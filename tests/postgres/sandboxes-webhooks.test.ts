// Webhooks from three sandbox processes on one PostgreSQL database: each event is delivered once
// per endpoint, by one of them; a sandbox killed with SIGKILL while its receiver holds a delivery
// leaves it to another, which sends it after the lease under the same webhook_delivery_id; a
// listener's delivery claimed through one sandbox is acknowledged through another.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISPATCH_LEASE_MS } from '../../src/sandbox/delivery/claim.js';
import { type SandboxGroup, startSandboxProcesses } from '../../testkit/sandbox-processes.js';
import { startSandboxProcess } from '../../testkit/sandbox-process.js';
import { type Receiver, startReceiver, until } from '../../testkit/webhook-receiver.js';
import { testDatabase } from '../support/postgres-database.js';
import { authorized, call } from './sandboxes-support.js';

const SECRET = 'whsec_shared_delivery';
const ARGS = ['--public-url', 'http://127.0.0.1:4010'];

let group: SandboxGroup;
const receivers: Receiver[] = [];
beforeAll(async () => {
  group = await startSandboxProcesses(3, await testDatabase('webhooks'), { timeoutMs: 60_000, args: ARGS });
});
afterAll(async () => {
  await group?.stop();
  await Promise.all(receivers.map((receiver) => receiver.close()));
});

async function receiver(options: Parameters<typeof startReceiver>[0] = {}): Promise<Receiver> {
  const started = await startReceiver({ secret: SECRET, ...options });
  receivers.push(started);
  return started;
}

/** The webhook_delivery_id of every event of the development channel. */
async function firedIds(sandbox: { baseUrl: string }): Promise<string[]> {
  const { body } = await call(sandbox, 'GET', '/sandbox/v1/outbox?limit=1000');
  return (body.events as Array<{ payload: { webhook_delivery_id: string } }>).map((e) => e.payload.webhook_delivery_id);
}

const idsOf = (received: Receiver['accepted']) => received.map((d) => d.body.webhook_delivery_id as string);

describe('three sandboxes on one PostgreSQL database deliver webhooks', () => {
  it('delivers each of 30 events once per endpoint, whichever sandbox fired it', async () => {
    const endpoints = [await receiver(), await receiver()];
    const added = [];
    for (const [i, endpoint] of endpoints.entries())
      added.push(
        await call(group.at(i), 'POST', '/sandbox/v1/webhook_endpoints', {
          body: { url: endpoint.url, secret: SECRET },
        }),
      );
    expect(added.map((reply) => reply.status)).toEqual([200, 200]);
    // 30 checkouts spread over the three sandboxes, each firing its events.
    await Promise.all(Array.from({ length: 30 }, (_, i) => authorized(group.at(i))));
    const fired = await firedIds(group.at(0));
    expect(fired.length).toBeGreaterThanOrEqual(30);
    for (const endpoint of endpoints)
      await until(() => new Set(idsOf(endpoint.accepted)).size === fired.length, 30_000, 'every event');
    // Every delivery recorded delivered once, through whichever sandbox sent it.
    const log = async () =>
      (await call(group.at(2), 'GET', '/sandbox/v1/webhook_deliveries?limit=1000')).body.attempts as Array<{
        status: number;
        delivery_status: string;
      }>;
    await until(async () => (await log()).length === 2 * fired.length, 15_000, 'every attempt recorded');
    expect((await log()).every((a) => a.status === 204 && a.delivery_status === 'delivered')).toBe(true);
    for (const endpoint of endpoints) {
      expect(idsOf(endpoint.accepted).sort()).toEqual([...fired].sort());
      expect(endpoint.rejected).toEqual([]);
    }
  }, 90_000);

  it('owns one --webhook-url endpoint per channel when three sandboxes start together with it, and delivers each event there once', async () => {
    const target = await receiver();
    const args = [...ARGS, '--webhook-url', target.url, '--webhook-secret', SECRET];
    const together = await startSandboxProcesses(3, await testDatabase('webhook_url'), { timeoutMs: 60_000, args });
    try {
      const listed = await call(together.at(1), 'GET', '/sandbox/v1/webhook_endpoints');
      expect((listed.body.endpoints as Array<{ url: string }>).map((endpoint) => endpoint.url)).toEqual([target.url]);
      await Promise.all(Array.from({ length: 6 }, (_, i) => authorized(together.at(i))));
      const fired = await firedIds(together.at(0));
      await until(() => new Set(idsOf(target.accepted)).size === fired.length, 30_000, 'every event');
      // Given time to send any event a second time, through a second endpoint of the same URL.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(idsOf(target.accepted).sort()).toEqual([...fired].sort());
    } finally {
      await together.stop();
    }
  }, 90_000);

  it(
    'sends again, after the lease and under the same webhook_delivery_id, a delivery whose sandbox was killed while its receiver held it',
    async () => {
      // A database of its own, so that the one sandbox running when the event fires is the one that sends it.
      const db = await testDatabase('webhooks_kill');
      const holding = await receiver({ answer: (n) => (n === 0 ? 'hold' : 'ok') });
      const first = await startSandboxProcess({ db, args: ARGS, timeoutMs: 60_000 });
      let second: Awaited<ReturnType<typeof startSandboxProcess>> | undefined;
      try {
        await call(first, 'POST', '/sandbox/v1/webhook_endpoints', { body: { url: holding.url, secret: SECRET } });
        const session = await authorized(first);
        await until(() => holding.held().length === 1, 15_000, 'the delivery held at the receiver');
        const sentFirst = JSON.parse(holding.held()[0]!).webhook_delivery_id as string;
        // Killed at once: alive past its attempt's 10 s timeout, it would record a failure and retry itself.
        await first.kill();
        second = await startSandboxProcess({ db, args: ARGS, timeoutMs: 60_000 });
        await until(() => holding.accepted.length > 0, DISPATCH_LEASE_MS + 15_000, 'the delivery sent again');
        const [again] = holding.accepted;
        expect(again!.body.webhook_delivery_id).toBe(sentFirst);
        expect(again!.body.data.payment_id ?? again!.body.data.payment_session_id).toBe(session);
        // The killed sandbox recorded nothing: the one attempt logged of the event is the second sandbox's.
        const attemptsOfEvent = async () =>
          (
            (await call(second!, 'GET', '/sandbox/v1/webhook_deliveries?limit=1000')).body.attempts as Array<{
              status: number;
              webhook_delivery_id: string;
            }>
          ).filter((attempt) => attempt.webhook_delivery_id === sentFirst);
        await until(async () => (await attemptsOfEvent()).length > 0, 15_000, 'the attempt recorded');
        expect((await attemptsOfEvent()).map((attempt) => attempt.status)).toEqual([204]);
      } finally {
        holding.releaseHeld('reset');
        await second?.stop();
      }
    },
    120_000 + DISPATCH_LEASE_MS,
  );

  it("hands a listener's delivery through one sandbox once, and takes its acknowledgement through another", async () => {
    const [a, b, c] = group.sandboxes as [
      SandboxGroup['sandboxes'][0],
      SandboxGroup['sandboxes'][0],
      SandboxGroup['sandboxes'][0],
    ];
    const listener = (
      await call(a, 'POST', '/sandbox/v1/webhook_listeners', {
        body: { forward_url: 'http://localhost:3999/webhooks', event_types: ['payment_session_complete'] },
      })
    ).body;
    await authorized(c);
    const pulled = await call(a, 'GET', `/sandbox/v1/webhook_listeners/${listener.id}/deliveries?wait=10`);
    expect(pulled.body.deliveries).toHaveLength(1);
    const [delivery] = pulled.body.deliveries;
    // Held by that claim: no sandbox hands it again meanwhile.
    for (const other of [b, c])
      expect(
        (await call(other, 'GET', `/sandbox/v1/webhook_listeners/${listener.id}/deliveries`)).body.deliveries,
      ).toEqual([]);
    const report = { delivery_id: delivery.delivery_id, claim_id: delivery.claim_id, status: 204, latency_ms: 3 };
    const acknowledged = await call(b, 'POST', `/sandbox/v1/webhook_listeners/${listener.id}/attempts`, {
      body: report,
    });
    expect(acknowledged.status).toBe(200);
    expect(acknowledged.body.attempt).toMatchObject({ status: 204, delivery_status: 'delivered' });
    // Once: the same report through the third sandbox is refused.
    const again = await call(c, 'POST', `/sandbox/v1/webhook_listeners/${listener.id}/attempts`, { body: report });
    expect([again.status, again.body.error]).toEqual([400, 'InvalidState']);
  }, 60_000);
});
