// The differences the differential test (differential.test.ts) found between the SQLite and the
// PostgreSQL sandbox, each pinned by the shortest sequence fast-check shrank it to, and named by the
// rule it breaks.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sessionRequest } from '../../testkit/sandbox.js';
import { testDatabase } from '../support/postgres-database.js';
import { postgresSide, type Request, type Side, sqliteSide } from './differential-support.js';

beforeAll(() => {
  // One instant on both sides, as in the differential test: what is created in it ties on time.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.parse('2026-03-02T09:00:00.000Z'));
});
afterAll(() => {
  vi.useRealTimers();
});

/** The normalised answers of one side to `steps`, each built from the answers before it. */
async function answersOf(side: Side, steps: Array<(answers: any[]) => Request>): Promise<any[]> {
  const answers: any[] = [];
  try {
    for (const step of steps) {
      const reply = await side.send(step(answers));
      answers.push({ status: reply.status, body: side.normalise(reply.body) });
    }
  } finally {
    await side.close();
  }
  return answers;
}

describe('the SQLite and the PostgreSQL sandbox', () => {
  // Found with DIFFERENTIAL_SEED=1: [createWebhookListener, createWebhookEndpoint, listenedDelivery,
  // receiveListenerDeliveries]. An event's fan-out numbers its deliveries in the endpoints' order of
  // creation. SQLite takes that order from its index on (channel, created_at), then the rowid, that
  // is, the order of insertion; PostgreSQL has no rowid and breaks a tie of created_at by the
  // endpoint's id (store/postgres/outbox.ts, FAN_OUT), which is random. So a listener and an
  // endpoint made in the same millisecond get their deliveries numbered in either order: the
  // listener's delivery is "1" on SQLite and "2" on PostgreSQL here. Matching SQLite needs an
  // insertion order PostgreSQL keeps (a column, so a migration), or SQLite ordering its fan-out by
  // id (store/outbox.ts): reported, not fixed here. When it is fixed, the second test fails: make it `it`.
  const steps: Array<(answers: any[]) => Request> = [
    () => ({ method: 'POST', url: '/sandbox/v1/webhook_listeners', body: { forward_url: 'http://127.0.0.1:3000/h' } }),
    () => ({ method: 'POST', url: '/sandbox/v1/webhook_endpoints', body: { url: 'https://hooks.example/a' } }),
    () => ({ method: 'POST', url: '/payments/v1/create_payment_session', body: sessionRequest() }),
    (a) => ({
      method: 'POST',
      url: `/sandbox/v1/payment_sessions/${a[2].body.id}/complete_checkout`,
      body: { eligible: true },
    }),
    (a) => ({ method: 'GET', url: `/sandbox/v1/webhook_listeners/${a[0].body.id}/deliveries?wait=0` }),
  ];
  let answers: Promise<{ sqlite: any[]; postgres: any[] }> | undefined;
  const run = () => {
    answers ??= (async () => ({
      sqlite: await answersOf(sqliteSide(), steps),
      postgres: await answersOf(await postgresSide(await testDatabase('diff_pinned')), steps),
    }))();
    return answers;
  };
  const deliveryIds = (answer: any) => answer.body.deliveries.map((d: any) => d.delivery_id);

  it('both answer the sequence, and the listener claims the one delivery of the event on each', async () => {
    const { sqlite, postgres } = await run();
    for (const side of [sqlite, postgres]) {
      expect(side.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
      expect(deliveryIds(side[4])).toHaveLength(1);
    }
  });

  it.fails('number the deliveries of one event alike when two endpoints were created in the same millisecond', async () => {
    const { sqlite, postgres } = await run();
    expect(deliveryIds(postgres[4])).toEqual(deliveryIds(sqlite[4]));
  });
});
