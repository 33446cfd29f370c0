// The PostgreSQL repositories of the webhook events (outbox, deliveries, listeners, activity,
// disputes) against a real server: the store's own tests of them, ported, and the rule that each
// answers exactly as its SQLite twin for the same calls.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deliveryId, randomIds } from '../../../src/sandbox/ids.js';
import { openDatabase } from '../../../src/sandbox/store/database.js';
import type { AttemptRecord, WebhookEndpoint } from '../../../src/sandbox/store/deliveries.js';
import { createStore } from '../../../src/sandbox/store/index.js';
import { activityQueries } from '../../../src/sandbox/store/postgres/activity.js';
import type { Async } from '../../../src/sandbox/store/postgres/async.js';
import { deliveriesRepository } from '../../../src/sandbox/store/postgres/deliveries.js';
import { disputesRepository } from '../../../src/sandbox/store/postgres/dispute-index.js';
import { listenersRepository } from '../../../src/sandbox/store/postgres/listeners.js';
import { outboxRepository } from '../../../src/sandbox/store/postgres/outbox.js';
import type {
  ActivityQueries,
  DeliveriesRepository,
  DisputesRepository,
  ListenersRepository,
  Outbox,
} from '../../../src/sandbox/store/store.js';
import { type EventsDatabase, eventsDatabase } from './events-database.js';

/** The payment sessions the events are about, and disputes name. */
const SESSIONS = ['ps_1', 'ps_2', 'ps_3'];

interface Repositories {
  outbox: Async<Outbox>;
  deliveries: Async<DeliveriesRepository>;
  listeners: Async<ListenersRepository>;
  activity: Async<ActivityQueries>;
  disputes: Async<DisputesRepository>;
}

let server: EventsDatabase;
let pg: Repositories;
let queued = 0;

beforeAll(async () => {
  server = await eventsDatabase('events');
});
afterAll(async () => {
  await server?.close();
});
beforeEach(async () => {
  await server.empty(SESSIONS);
  queued = 0;
  pg = {
    outbox: outboxRepository(server.q, () => {
      queued += 1;
    }),
    deliveries: deliveriesRepository(server.q),
    listeners: listenersRepository(server.q),
    activity: activityQueries(server.q),
    disputes: disputesRepository(server.q),
  };
});

const endpoint = (id: string, eventTypes: string[], channel = 'dev'): WebhookEndpoint => ({
  id,
  channel,
  url: `http://127.0.0.1:9/${id}`,
  event_types: eventTypes,
  secret: `whsec_${id}`,
  mode: 'signed',
  created_at: '2026-01-01T00:00:00.000Z',
});

const attemptOf = (deliveryIdOf: number, at: string, status: number | null): AttemptRecord => ({
  channel: 'dev',
  delivery_id: deliveryIdOf,
  attempted_at: at,
  status,
  latency_ms: 1,
  response: status === null ? null : { text: `answered ${status}`, truncated: false, body_bytes: 12 },
  error: status === null ? 'connection refused' : null,
});

describe('the PostgreSQL outbox (the store tests, ported)', () => {
  it('pages the outbox oldest first, by cursor, and by event type', async () => {
    for (const type of ['a', 'b', 'a', 'a', 'b'])
      await pg.outbox.enqueue('dev', { event_type: type, data: {} }, '2026-01-01T00:00:00.000Z', deliveryId(randomIds));
    await pg.outbox.enqueue('other', { event_type: 'a', data: {} }, '2026-01-01T00:00:00.000Z', deliveryId(randomIds));
    const first = await pg.outbox.list('dev', { limit: 2 });
    expect(first.events.map((e) => e.event_type)).toEqual(['a', 'b']);
    expect(first.hasMore).toBe(true);
    const rest = await pg.outbox.list('dev', { limit: 10, after: Number(first.events[1]!.id) });
    expect(rest.events.map((e) => e.event_type)).toEqual(['a', 'a', 'b']);
    expect(rest.hasMore).toBe(false);
    expect((await pg.outbox.list('dev', { limit: 2, eventType: 'a' })).events).toHaveLength(2);
    expect(await pg.outbox.list('dev', { limit: 3, eventType: 'a' })).toMatchObject({ hasMore: false });
  });

  it('keeps the delivery id of an outbox event stable: a retry and a redelivery send the payload as first queued', async () => {
    await pg.deliveries.addEndpoint(endpoint('we_1', ['*']));
    await pg.outbox.enqueue(
      'dev',
      { event_type: 'dispute.created', data: { dispute_id: 'dp_1' } },
      '2026-01-01T00:00:00.000Z',
      deliveryId(randomIds),
    );
    const [event] = (await pg.outbox.list('dev', { limit: 10 })).events;
    const id = event!.payload.webhook_delivery_id;
    expect(id).toMatch(/^dlv_[0-9a-f]{32}$/);
    const dueAt = (at: string) => pg.deliveries.due('we_1', at, { skip: [], limit: 10 });
    const [first] = await dueAt('2026-01-01T00:00:00.000Z');
    expect({
      attempts: first!.attempts,
      id: (JSON.parse(first!.payload) as { webhook_delivery_id: string }).webhook_delivery_id,
    }).toEqual({ attempts: 0, id });
    // A failed attempt: due again later, with the same payload, byte for byte.
    await pg.deliveries.failed(attemptOf(first!.id, '2026-01-01T00:00:00.000Z', 500), '2026-01-01T00:00:01.000Z');
    expect(await dueAt('2026-01-01T00:00:00.500Z')).toEqual([]);
    const [retry] = await dueAt('2026-01-01T00:00:01.000Z');
    expect(retry).toMatchObject({ id: first!.id, attempts: 1, payload: first!.payload });
    // Delivered, then redelivered by hand: a new delivery of the same payload.
    await pg.deliveries.delivered(
      attemptOf(first!.id, '2026-01-01T00:00:01.000Z', 204),
      first!.outbox_id,
      '2026-01-01T00:00:01.000Z',
    );
    expect(await pg.outbox.redeliver('dev', first!.outbox_id, '2026-01-01T00:00:02.000Z')).toBe(1);
    const [again] = await dueAt('2026-01-01T00:00:02.000Z');
    expect(again).toMatchObject({ outbox_id: first!.outbox_id, attempts: 0, payload: first!.payload });
    expect(again!.id).not.toBe(first!.id);
  });

  it('wakes the dispatcher only when the event queued a delivery', async () => {
    await pg.outbox.enqueue('dev', { event_type: 'a', data: {} }, '2026-01-01T00:00:00.000Z', deliveryId(randomIds));
    expect(queued).toBe(0);
    await pg.deliveries.addEndpoint(endpoint('we_1', ['a']));
    await pg.outbox.enqueue('dev', { event_type: 'a', data: {} }, '2026-01-01T00:00:00.000Z', deliveryId(randomIds));
    expect(queued).toBe(1);
  });
});

describe('the PostgreSQL deliveries', () => {
  it('sends one resource’s events one at a time, in order, and fans a dispute event out to dispute.*', async () => {
    await pg.deliveries.addEndpoint(endpoint('we_1', ['dispute.*']));
    for (const [type, dispute] of [
      ['dispute.created', 'dp_1'],
      ['dispute.updated', 'dp_1'],
      ['dispute.created', 'dp_2'],
    ] as const)
      await pg.outbox.enqueue(
        'dev',
        { event_type: type, data: { dispute_id: dispute } },
        '2026-01-01T00:00:00.000Z',
        deliveryId(randomIds),
      );
    const due = await pg.deliveries.due('we_1', '2026-01-01T00:00:00.000Z', { skip: [], limit: 10 });
    expect(due.map((d) => d.outbox_id)).toEqual([1, 3]);
    expect(await pg.deliveries.due('we_1', '2026-01-01T00:00:00.000Z', { skip: [1], limit: 10 })).toMatchObject([
      { outbox_id: 3 },
    ]);
    await pg.deliveries.delivered(attemptOf(1, '2026-01-01T00:00:00.000Z', 200), 1, '2026-01-01T00:00:00.000Z');
    const next = await pg.deliveries.due('we_1', '2026-01-01T00:00:00.000Z', { skip: [], limit: 10 });
    expect(next.map((d) => d.outbox_id)).toEqual([2, 3]);
  });

  it('ends an endpoint’s pending deliveries with it: gone if never tried, failed if tried', async () => {
    await pg.deliveries.addEndpoint(endpoint('we_1', ['*']));
    for (const session of ['ps_1', 'ps_2'])
      await pg.outbox.enqueue(
        'dev',
        { event_type: 'payment.completed', data: { payment_id: session } },
        '2026-01-01T00:00:00.000Z',
        deliveryId(randomIds),
      );
    await pg.deliveries.failed(attemptOf(1, '2026-01-01T00:00:00.000Z', 500), '2026-01-01T00:01:00.000Z');
    expect(await pg.deliveries.removeEndpoint('dev', 'we_1')).toBe(true);
    expect(await pg.deliveries.removeEndpoint('dev', 'we_1')).toBe(false);
    expect(await server.q.all('SELECT id, status FROM deliveries ORDER BY id')).toEqual([{ id: 1, status: 'failed' }]);
    expect(await pg.deliveries.lastAttempt(1)).toMatchObject({ status: 500, delivery_status: 'failed', url: null });
  });
});

/** The SQLite store's repositories, answering Promises as the PostgreSQL ones do. */
function promised<T extends object>(repository: T): Async<T> {
  return new Proxy(repository, {
    get: (target, key) => {
      const member = Reflect.get(target, key) as unknown;
      return typeof member === 'function'
        ? (...args: unknown[]) => Promise.resolve((member as (...a: unknown[]) => unknown).apply(target, args))
        : member;
    },
  }) as unknown as Async<T>;
}

/** A small deterministic random source (mulberry32). */
function randomOf(seed: number) {
  let state = seed;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
    chance: (p: number) => next() < p,
    /** Where the sequence is, to draw the same numbers again from there. */
    mark: () => state,
    rewind: (mark: number) => {
      state = mark;
    },
  };
}

describe('the PostgreSQL repositories of the webhook events answer as their SQLite twins', () => {
  it.each([1, 2, 3, 4, 5, 6])('for the same random sequence of calls (seed %i)', async (seed) => {
    const sqlite = createStore(openDatabase(':memory:'));
    // Disputes name sessions the sequence never makes.
    sqlite.db.pragma('foreign_keys = OFF');
    const lite: Repositories = {
      outbox: promised(sqlite.outbox),
      deliveries: promised(sqlite.deliveries),
      listeners: promised(sqlite.listeners),
      activity: promised(sqlite.activity),
      disputes: promised(sqlite.disputes),
    };
    const random = randomOf(seed);
    const channels = ['dev', 'other'] as const;
    const types = ['payment.completed', 'payment.refunded', 'dispute.created', 'dispute.updated', 'token.created'];
    const subscriptions = [['*'], ['payment.completed'], ['dispute.*'], ['token.created', 'dispute.created']];
    const sessions = SESSIONS;
    let endpoints = 0;
    let events = 0;
    let disputes = 0;
    const cliOwned = new Set<string>();
    let clock = Date.parse('2026-01-01T00:00:00.000Z');
    const time = () => new Date(clock).toISOString();
    const both = async <T>(call: (r: Repositories) => Promise<T>): Promise<T> => {
      // A call draws its arguments as it runs: the same ones for both.
      const mark = random.mark();
      const expected = await call(lite);
      random.rewind(mark);
      expect(await call(pg)).toEqual(expected);
      return expected;
    };
    for (let step = 0; step < 600; step++) {
      clock += random.int(3) * 500;
      const channel = random.pick(channels);
      const endpointId = `we_${String(random.int(endpoints + 1)).padStart(3, '0')}`;
      switch (random.int(14)) {
        case 0: {
          // Ids in the order of creation: a tie of created_at goes by rowid in SQLite, by id here.
          endpoints += 1;
          const id = `we_${String(endpoints).padStart(3, '0')}`;
          const made = { ...endpoint(id, random.pick(subscriptions), channel), created_at: time() };
          if (random.chance(0.3))
            await both((r) => r.listeners.add({ ...made, polled_at: clock }).then(() => undefined));
          else if (random.chance(0.2) && !cliOwned.has(channel)) {
            // One per channel, as --webhook-url makes it (in a write transaction, which every sandbox serializes):
            // of several, cliEndpoint would name any.
            cliOwned.add(channel);
            await both((r) => r.deliveries.addEndpoint(made, 'cli'));
          } else await both((r) => r.deliveries.addEndpoint(made, 'helper'));
          break;
        }
        case 1:
        case 2: {
          events += 1;
          const type = random.pick(types);
          const session = random.pick(sessions);
          const data = type.startsWith('dispute.')
            ? { dispute_id: `dp_${random.int(3)}`, payment: { order_id: session } }
            : { payment_id: session };
          const followUp = random.chance(0.2) ? `dlv_follow_${events}` : undefined;
          await both((r) => r.outbox.enqueue(channel, { event_type: type, data }, time(), `dlv_${events}`, followUp));
          break;
        }
        case 3:
          await both((r) => r.outbox.redeliver(channel, random.int(events + 2), time()));
          break;
        case 4: {
          const due = await both((r) =>
            r.deliveries.due(endpointId, time(), {
              skip: random.chance(0.3) ? [1, 2, 3] : [],
              limit: 1 + random.int(4),
            }),
          );
          for (const delivery of due) {
            const status = random.pick([200, 204, 500, null]);
            const attempt = { ...attemptOf(delivery.id, time(), status), channel: delivery.channel };
            if (status !== null && status < 300)
              await both((r) => r.deliveries.delivered(attempt, delivery.outbox_id, time()));
            else
              await both((r) =>
                r.deliveries.failed(attempt, random.chance(0.2) ? null : new Date(clock + 1000).toISOString()),
              );
          }
          break;
        }
        case 5:
          if (random.chance(0.2)) await both((r) => r.deliveries.removeEndpoint(channel, endpointId));
          else if (random.chance(0.5))
            await both((r) => r.deliveries.repoint(endpointId, `http://127.0.0.1:9/moved/${step}`, `whsec_${step}`));
          else await both((r) => r.deliveries.setSecret(channel, endpointId, `whsec_s${step}`));
          break;
        case 6:
          await both((r) => r.deliveries.endpoints(channel));
          await both((r) => r.deliveries.cliEndpoint(channel));
          await both((r) => r.deliveries.endpoint(endpointId));
          // No order is promised of every endpoint: compared by id.
          await both(async (r) => (await r.deliveries.allEndpoints()).sort((a, b) => (a.id < b.id ? -1 : 1)));
          break;
        case 7: {
          const delivery = 1 + random.int(events + 2);
          await both((r) => r.deliveries.isPending(delivery));
          await both((r) => r.deliveries.dueAt(delivery));
          await both((r) => r.deliveries.lastAttempt(delivery));
          await both((r) => r.deliveries.nextDue(endpointId));
          break;
        }
        case 8: {
          let after = 0;
          for (let page = 0; page < 20; page++) {
            const { rows, hasMore } = await both((r) => r.deliveries.attempts(channel, { after, limit: 3 }));
            if (!hasMore) break;
            after = rows.at(-1)!.id;
          }
          break;
        }
        case 9: {
          const eventType = random.chance(0.5) ? random.pick(types) : undefined;
          await both((r) =>
            r.outbox.list(channel, {
              limit: 1 + random.int(5),
              after: random.int(events + 1),
              ...(eventType ? { eventType } : {}),
            }),
          );
          break;
        }
        case 10: {
          const session = random.pick(sessions);
          const { rows } = await both((r) =>
            r.activity.sessionEvents(channel, session, { after: random.int(events + 1), limit: 1 + random.int(4) }),
          );
          await both((r) => r.activity.sessionEventTime(channel, session, random.int(events + 1)));
          const newest = await both((r) =>
            r.activity.newestEvents(channel, {
              before: random.chance(0.5) ? Number.MAX_SAFE_INTEGER : events,
              limit: 3,
            }),
          );
          for (const event of [...rows, ...newest.rows]) await both((r) => r.activity.latestAttempts(event));
          break;
        }
        case 11: {
          disputes += 1;
          await both((r) => r.disputes.register(channel, `dp_${disputes}`, random.pick(sessions)));
          await both((r) => r.disputes.sessionOf(channel, `dp_${random.int(disputes + 1)}`));
          await both((r) => r.disputes.page(channel, random.chance(0.5) ? Number.MAX_SAFE_INTEGER : disputes, 2));
          break;
        }
        case 12:
          await both((r) => r.listeners.touch(endpointId, clock - random.int(3) * 1000));
          await both((r) => r.listeners.live(channel, clock - 1000));
          await both((r) => r.listeners.liveOne(channel, endpointId, clock - 1000));
          await both((r) => r.listeners.expired(clock - 500));
          break;
        default:
          break;
      }
    }
    // The sequence did reach the deliveries' log.
    expect((await pg.deliveries.attempts('dev', { after: 0, limit: 1 })).rows.length).toBe(1);
  });
});

describe('the PostgreSQL dashboard revision', () => {
  it('changes with a write of another connection, and with none stays the same', async () => {
    const before = await pg.activity.revision('dev');
    expect(await pg.activity.revision('dev')).toBe(before);
    expect(await pg.activity.revision('other')).not.toBe(before);
    const other = server.otherPool();
    await other.query("INSERT INTO disputes (dispute_id, channel, session_id, seq) VALUES ('dp_r', 'dev', 'ps_1', 99)");
    expect(await pg.activity.revision('dev')).not.toBe(before);
  });
});
