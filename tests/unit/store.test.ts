// The SQLite store: WAL mode, versioned migrations applied once, and all-or-nothing transactions.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../../src/sandbox/store/database.js';
import { createStore } from '../../src/sandbox/store/index.js';
import { MIGRATIONS } from '../../src/sandbox/store/migrations.js';

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
        store.outbox.enqueue('dev', { event_type: 'payment_session_complete', data: {} }, new Date().toISOString());
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(store.outbox.list('dev')).toEqual([]);
  });

  it('keeps the delivery id of an outbox event stable', () => {
    const store = createStore(openDatabase(':memory:'));
    store.outbox.enqueue('dev', { event_type: 'dispute.created', data: { x: 1 } }, '2026-01-01T00:00:00.000Z');
    const [event] = store.outbox.list('dev');
    expect(event!.payload.webhook_delivery_id).toMatch(/^dlv_[0-9a-f]{32}$/);
    expect(store.outbox.list('dev')[0]!.payload.webhook_delivery_id).toBe(event!.payload.webhook_delivery_id);
  });
});
