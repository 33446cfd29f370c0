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
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
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
    expect(again.prepare('SELECT version FROM schema_migrations').pluck().all()).toEqual(MIGRATIONS.map((m) => m.version));
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
        store.outbox.enqueue('dev', { event_type: 'payment_session_complete', data: {} }, new Date().toISOString(), deliveryId(randomIds));
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(store.outbox.list('dev', { limit: 10 })).toEqual({ events: [], hasMore: false });
  });

  it('pages the outbox oldest first, by cursor, and by event type', () => {
    const store = createStore(openDatabase(':memory:'));
    for (const type of ['a', 'b', 'a', 'a', 'b']) store.outbox.enqueue('dev', { event_type: type, data: {} }, '2026-01-01T00:00:00.000Z', deliveryId(randomIds));
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

  it('keeps the delivery id of an outbox event stable', () => {
    const store = createStore(openDatabase(':memory:'));
    store.outbox.enqueue('dev', { event_type: 'dispute.created', data: { x: 1 } }, '2026-01-01T00:00:00.000Z', deliveryId(randomIds));
    const [event] = store.outbox.list('dev', { limit: 10 }).events;
    expect(event!.payload.webhook_delivery_id).toMatch(/^dlv_[0-9a-f]{32}$/);
    expect(store.outbox.list('dev', { limit: 10 }).events[0]!.payload.webhook_delivery_id).toBe(event!.payload.webhook_delivery_id);
  });
});
