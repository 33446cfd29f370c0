// The trigram index of sessions is written off the request path: a session's write only queues
// its rowid, the maintenance timer indexes the queue a batch at a time, and a search also tests
// the queued rows, so that it finds a session the moment it exists without writing anything. A
// database of schema 9 (every session indexed by a trigger) keeps its index and queues only what
// comes after.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { newSession } from '../../src/sandbox/domain/create-session.js';
import { sessionListFilter } from '../../src/sandbox/domain/listing.js';
import type { CreateSessionRequest, Session } from '../../src/sandbox/domain/types.js';
import { startMaintenance } from '../../src/sandbox/maintenance.js';
import { openDatabase, type Db } from '../../src/sandbox/store/database.js';
import { createStore } from '../../src/sandbox/store/index.js';
import { MIGRATIONS } from '../../src/sandbox/store/migrations.js';
import { sessionColumns } from '../../src/sandbox/store/session-columns.js';
import { sessionRequest } from '../../testkit/sandbox.js';
import { sqliteBackend } from '../../src/sandbox/store/sqlite-backend.js';

let n = 0;
const session = (email: string, channel = 'dev'): Session =>
  newSession({
    id: `00000000-0000-4000-8000-${String(n++).padStart(12, '0')}`,
    channel,
    request: sessionRequest({ customer_email: email }) as CreateSessionRequest,
    now: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
    newId: () => `item${n}-${Math.random()}`,
  });
const search = (store: ReturnType<typeof createStore>, needle: string, channel = 'dev') =>
  store.sessions
    .list(channel, sessionListFilter({ search: needle }), { offset: 0, limit: 30 })
    .sessions.map((s) => s.customer_email);
const pending = (db: Db) => db.prepare('SELECT COUNT(*) FROM session_search_pending').pluck().get() as number;
const indexed = (db: Db) => db.prepare('SELECT COUNT(*) FROM session_search').pluck().get() as number;

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the trigram index of sessions', () => {
  it('queues a created session, which a search finds before it is indexed, and after', () => {
    const db = openDatabase(':memory:');
    const store = createStore(db);
    store.sessions.insert(session('amelia.pond@example.com'));
    store.sessions.insert(session('rory.williams@example.com'));
    expect([pending(db), indexed(db)]).toEqual([2, 0]);
    expect(search(store, 'pond')).toEqual(['amelia.pond@example.com']);
    // The search wrote nothing: the queue is the timer's.
    expect([pending(db), indexed(db)]).toEqual([2, 0]);
    store.sessions.indexPendingSearches();
    expect([pending(db), indexed(db)]).toEqual([0, 2]);
    expect(search(store, 'pond')).toEqual(['amelia.pond@example.com']);
    expect(search(store, 'nobody')).toEqual([]);
  });

  it('indexes a changed email again, and forgets the old one', () => {
    const db = openDatabase(':memory:');
    const store = createStore(db);
    const first = session('clara.oswald@example.com');
    store.sessions.insert(first);
    store.sessions.indexPendingSearches();
    expect(search(store, 'oswald')).toHaveLength(1);
    store.sessions.update({ ...first, customer_email: 'river.song@example.com' });
    expect(pending(db)).toBe(1);
    expect(search(store, 'oswald')).toEqual([]);
    expect(search(store, 'river')).toEqual(['river.song@example.com']);
  });

  it('drops a deleted session from the index and from the queue', () => {
    const db = openDatabase(':memory:');
    const store = createStore(db);
    store.sessions.insert(session('donna.noble@example.com', 'other'));
    store.sessions.insert(session('martha.jones@example.com', 'other'));
    store.sessions.indexPendingSearches();
    expect(search(store, 'noble', 'other')).toHaveLength(1);
    store.sessions.insert(session('jack.harkness@example.com', 'other'));
    db.prepare("DELETE FROM payment_sessions WHERE channel = 'other'").run();
    expect([pending(db), indexed(db)]).toEqual([0, 0]);
  });

  it('is caught up by the maintenance timer, a batch at a time', async () => {
    const db = openDatabase(':memory:');
    const store = createStore(db);
    for (let i = 0; i < 25; i++) store.sessions.insert(session(`companion${i}@example.com`));
    // The timer's ticks are the test's: each tick indexes one batch of 10.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const maintenance = startMaintenance(db, sqliteBackend(store), { intervalMs: 5, batch: 10 });
    try {
      const left = [pending(db)];
      for (let tick = 0; tick < 4; tick++) {
        await vi.advanceTimersByTimeAsync(5);
        left.push(pending(db));
      }
      expect(left).toEqual([25, 15, 5, 0, 0]);
      expect(indexed(db)).toBe(25);
    } finally {
      maintenance.stop();
      vi.useRealTimers();
    }
  });

  it('never stops the sandbox: a failing step (a full disk) is said once and tried again', async () => {
    const db = openDatabase(':memory:');
    const store = createStore(db);
    let failing = true;
    let attempts = 0;
    const failingStore = {
      ...store,
      sessions: {
        ...store.sessions,
        indexPendingSearches: () => {
          attempts++;
          if (failing) throw new Error('database or disk is full');
        },
      },
    } as typeof store;
    const warnings: string[] = [];
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const maintenance = startMaintenance(db, sqliteBackend(failingStore), {
      intervalMs: 2,
      warn: (line) => warnings.push(line),
    });
    try {
      await vi.advanceTimersByTimeAsync(10);
      expect(attempts).toBe(5);
      expect(warnings).toEqual(['Maintenance of the database failed, and is retried: database or disk is full']);
      failing = false;
      await vi.advanceTimersByTimeAsync(6);
      expect(attempts).toBe(8);
      expect(warnings).toHaveLength(1);
      // Failing again after a success: said again, once.
      failing = true;
      await vi.advanceTimersByTimeAsync(4);
      expect(warnings).toEqual(
        Array(2).fill('Maintenance of the database failed, and is retried: database or disk is full'),
      );
    } finally {
      maintenance.stop();
      vi.useRealTimers();
    }
  });

  it('is refused by an older sandbox: a database of a newer schema is not opened', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'search-index-'));
    dirs.push(dir);
    const file = path.join(dir, 'new.db');
    openDatabase(file).close();
    expect(() =>
      openDatabase(
        file,
        MIGRATIONS.filter((m) => m.version <= 9),
      ),
    ).toThrow(`written by a newer sandbox (schema ${Math.max(...MIGRATIONS.map((m) => m.version))}; this one knows 9)`);
  });

  it('keeps the index of a database of schema 9, and queues only what comes after', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'search-index-'));
    dirs.push(dir);
    const file = path.join(dir, 'old.db');
    const old = openDatabase(
      file,
      MIGRATIONS.filter((m) => m.version <= 9),
    );
    // The store of schema 9 inserted like this; its trigger indexed the row at once.
    old
      .prepare(`INSERT INTO payment_sessions (seq, id, channel, created_at, idempotency_key, kind, status, captured_at, email_search, name_search, payment_token, document)
      VALUES (1, @id, @channel, @created_at, @idempotency_key, @kind, @status, @captured_at, @email_search, @name_search, @payment_token, @document)`)
      .run(sessionColumns(session('sarah.jane@example.com')));
    expect(indexed(old)).toBe(1);
    old.close();
    const db = openDatabase(file);
    const store = createStore(db);
    expect([pending(db), indexed(db)]).toEqual([0, 1]);
    store.sessions.insert(session('k9@example.com'));
    expect(pending(db)).toBe(1);
    expect(search(store, 'sarah')).toEqual(['sarah.jane@example.com']);
    expect(search(store, 'k9@')).toEqual(['k9@example.com']);
    db.close();
  });
});
