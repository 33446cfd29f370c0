// The PostgreSQL store as a whole (store/postgres/index.ts): every migration applied once, every
// repository wired to the core's transactions and caches. Two stores on one database act as two
// sandbox processes: a session written through one is read at once through the other, though
// each keeps its answers; a delivery a write queues wakes the dispatcher once it is committed.
import { afterEach, describe, expect, it } from 'vitest';
import { newSession } from '../../src/sandbox/domain/create-session.js';
import type { CreateSessionRequest, Session } from '../../src/sandbox/domain/types.js';
import { createPostgresStore, type PostgresStore, STORE_MIGRATIONS } from '../../src/sandbox/store/postgres/index.js';
import { sessionRequest } from '../../testkit/sandbox.js';
import { newDatabase } from './core-support.js';

const stores: PostgresStore[] = [];
async function storeOn(url: string): Promise<PostgresStore> {
  const store = await createPostgresStore(url);
  stores.push(store);
  return store;
}
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
});

const session = (id: string, channel = 'dev'): Session =>
  newSession({
    id,
    channel,
    request: sessionRequest() as CreateSessionRequest,
    now: '2026-03-01T00:00:00.000Z',
    newId: () => `${id}-item`,
  });

describe('the PostgreSQL store', () => {
  it('applies every migration once, however many stores open the database', async () => {
    const url = await newDatabase('store_migrations');
    const [here] = await Promise.all([storeOn(url), storeOn(url)]);
    expect(await here.q.column('SELECT version FROM schema_migrations ORDER BY version')).toEqual(
      STORE_MIGRATIONS.map((migration) => migration.version),
    );
    expect(STORE_MIGRATIONS.map((migration) => migration.version)).toEqual(STORE_MIGRATIONS.map((_, i) => i + 1));
  });

  it("reads a session another sandbox wrote at once, though it keeps the channel's answers", async () => {
    const url = await newDatabase('store_answers');
    const here = await storeOn(url);
    const there = await storeOn(url);
    const count = () =>
      here.read(() =>
        here.sessions.answer('dev', 'count', async () =>
          String(await here.q.value("SELECT count(*) FROM payment_sessions WHERE channel = 'dev'")),
        ),
      );
    expect(await count()).toBe('0');
    await there.write(() => there.sessions.insert(session('ps_1')));
    expect(await count()).toBe('1');
    expect(await here.read(() => here.sessions.detailView('dev', 'ps_1'))).toContain('"ps_1"');
    // Its own write too.
    await here.write(() => here.sessions.insert(session('ps_2')));
    expect(await count()).toBe('2');
  });

  it('wakes the dispatcher once a queued delivery is committed, and the dispatcher finds it due', async () => {
    const url = await newDatabase('store_wake_up');
    const store = await storeOn(url);
    // What the woken reads is read outside the write, as another connection would: only what is committed.
    const elsewhere = await storeOn(url);
    await store.transaction(() =>
      store.deliveries.addEndpoint({
        id: 'we_1',
        channel: 'dev',
        url: 'https://example.test/hook',
        event_types: ['*'],
        secret: 'whsec_test',
        mode: 'signed',
        created_at: '2026-03-01T00:00:00.000Z',
      }),
    );
    const insideTheWrite: boolean[] = [];
    const found = new Promise<number>((resolve) => {
      store.deliveryWakeUp.add(() => {
        insideTheWrite.push(store.transactions.current() !== undefined);
        void elsewhere.deliveries
          .due('we_1', '2099-01-01T00:00:00.000Z', { skip: [], limit: 10 })
          .then((due) => resolve(due.length));
      });
    });
    await store.write(() =>
      store.outbox.enqueue(
        'dev',
        { event_type: 'payment.completed', data: { payment_id: 'ps_1' } } as never,
        '2026-03-01T00:00:00.000Z',
        'whd_1',
      ),
    );
    expect(await found).toBe(1);
    expect(insideTheWrite).toEqual([false]);
  });

  it('resets every channel, and another sandbox reads the reset at once', async () => {
    const url = await newDatabase('store_reset');
    const here = await storeOn(url);
    const there = await storeOn(url);
    await here.write(async () => {
      await here.sessions.insert(session('ps_1', 'dev'));
      await here.sessions.insert(session('ps_2', 'other'));
      await here.clock.advance('dev', 60);
    });
    expect(await there.read(() => there.clock.offsetSeconds('dev'))).toBe(60);
    expect(await here.transaction(() => here.reset.all())).toEqual({
      payment_sessions: 2,
      payment_tokens: 0,
      outbox_events: 0,
    });
    expect(await there.read(() => there.sessions.get('dev', 'ps_1'))).toBeUndefined();
    expect(await there.read(() => there.clock.offsetSeconds('dev'))).toBe(0);
  });
});
