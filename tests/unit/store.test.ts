// The SQLite store: WAL mode, versioned migrations applied once, and all-or-nothing transactions.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../../src/sandbox/store/database.js';
import { createStore } from '../../src/sandbox/store/index.js';
import { MIGRATIONS } from '../../src/sandbox/store/migrations.js';
import { deliveryId, randomIds } from '../../src/sandbox/ids.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tempDb = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sandbox-store-'));
  dirs.push(dir);
  return path.join(dir, 'nested', 'sandbox.db');
};

describe('store', () => {
  it('opens a file database in WAL mode, creating its folder, with every migration applied once', () => {
    const file = tempDb();
    const first = openDatabase(file);
    expect(first.pragma('journal_mode', { simple: true })).toBe('wal');
    first.close();
    const again = openDatabase(file);
    expect(again.prepare('SELECT version FROM schema_migrations').pluck().all()).toEqual(
      MIGRATIONS.map((m) => m.version),
    );
    again.close();
  });

  it('applies a new migration version, and only that one', () => {
    const db = openDatabase(':memory:');
    migrate(db, [...MIGRATIONS, { version: 99, description: 'test', sql: 'CREATE TABLE probe (x INTEGER)' }]);
    migrate(db, [...MIGRATIONS, { version: 99, description: 'test', sql: 'CREATE TABLE probe (x INTEGER)' }]);
    expect(db.prepare('SELECT count(*) FROM schema_migrations').pluck().get()).toBe(MIGRATIONS.length + 1);
  });

  it('rolls back every write of a transaction that throws', () => {
    const store = createStore(openDatabase(':memory:'));
    expect(() =>
      store.transaction(() => {
        store.outbox.enqueue(
          'dev',
          { event_type: 'payment_session_complete', data: {} },
          new Date().toISOString(),
          deliveryId(randomIds),
        );
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(store.outbox.list('dev', { limit: 10 })).toEqual({ events: [], hasMore: false });
  });

  it('pages the outbox oldest first, by cursor, and by event type', () => {
    const store = createStore(openDatabase(':memory:'));
    for (const type of ['a', 'b', 'a', 'a', 'b'])
      store.outbox.enqueue('dev', { event_type: type, data: {} }, '2026-01-01T00:00:00.000Z', deliveryId(randomIds));
    store.outbox.enqueue('other', { event_type: 'a', data: {} }, '2026-01-01T00:00:00.000Z', deliveryId(randomIds));
    const first = store.outbox.list('dev', { limit: 2 });
    expect(first.events.map((e) => e.event_type)).toEqual(['a', 'b']);
    expect(first.hasMore).toBe(true);
    const rest = store.outbox.list('dev', { limit: 10, after: Number(first.events[1]!.id) });
    expect(rest.events.map((e) => e.event_type)).toEqual(['a', 'a', 'b']);
    expect(rest.hasMore).toBe(false);
    expect(store.outbox.list('dev', { limit: 2, eventType: 'a' }).events).toHaveLength(2);
    expect(store.outbox.list('dev', { limit: 3, eventType: 'a' })).toMatchObject({ hasMore: false });
  });

  it('keeps the delivery id of an outbox event stable: a retry and a redelivery send the payload as first queued', () => {
    const store = createStore(openDatabase(':memory:'));
    store.deliveries.addEndpoint({
      id: 'we_1',
      channel: 'dev',
      url: 'http://127.0.0.1:9/hook',
      event_types: ['*'],
      secret: 'whsec_1',
      mode: 'signed',
      created_at: '2026-01-01T00:00:00.000Z',
    });
    store.outbox.enqueue(
      'dev',
      { event_type: 'dispute.created', data: { dispute_id: 'dp_1' } },
      '2026-01-01T00:00:00.000Z',
      deliveryId(randomIds),
    );
    const [event] = store.outbox.list('dev', { limit: 10 }).events;
    const id = event!.payload.webhook_delivery_id;
    expect(id).toMatch(/^dlv_[0-9a-f]{32}$/);
    const dueAt = (at: string) => store.deliveries.due('we_1', at, { skip: [], limit: 10 });
    const [first] = dueAt('2026-01-01T00:00:00.000Z');
    expect({
      attempts: first!.attempts,
      id: (JSON.parse(first!.payload) as { webhook_delivery_id: string }).webhook_delivery_id,
    }).toEqual({ attempts: 0, id });
    const attempt = (at: string, status: number) => ({
      channel: 'dev',
      delivery_id: first!.id,
      attempted_at: at,
      status,
      latency_ms: 1,
      response: null,
      error: null,
    });
    // A failed attempt: due again later, with the same payload, byte for byte.
    store.deliveries.failed(attempt('2026-01-01T00:00:00.000Z', 500), '2026-01-01T00:00:01.000Z');
    expect(dueAt('2026-01-01T00:00:00.500Z')).toEqual([]);
    const [retry] = dueAt('2026-01-01T00:00:01.000Z');
    expect(retry).toMatchObject({ id: first!.id, attempts: 1, payload: first!.payload });
    // Delivered, then redelivered by hand: a new delivery of the same payload.
    store.deliveries.delivered(attempt('2026-01-01T00:00:01.000Z', 204), first!.outbox_id, '2026-01-01T00:00:01.000Z');
    expect(store.outbox.redeliver('dev', first!.outbox_id, '2026-01-01T00:00:02.000Z')).toBe(1);
    const [again] = dueAt('2026-01-01T00:00:02.000Z');
    expect(again).toMatchObject({ outbox_id: first!.outbox_id, attempts: 0, payload: first!.payload });
    expect(again!.id).not.toBe(first!.id);
  });
});
