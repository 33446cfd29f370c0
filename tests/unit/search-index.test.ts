// The trigram index of sessions is written off the request path: a session's write only queues
// its rowid, the maintenance timer indexes the queue a batch at a time, and a search catches up
// first, so that it finds a session the moment it exists. A database of schema 9 (every session
// indexed by a trigger) keeps its index and queues only what comes after.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { newSession } from '../../src/sandbox/domain/create-session.js';
import { sessionListFilter } from '../../src/sandbox/domain/listing.js';
import type { CreateSessionRequest, Session } from '../../src/sandbox/domain/types.js';
import { startMaintenance } from '../../src/sandbox/maintenance.js';
import { openDatabase, type Db } from '../../src/sandbox/store/database.js';
import { createStore } from '../../src/sandbox/store/index.js';
import { MIGRATIONS } from '../../src/sandbox/store/migrations.js';
import { sessionColumns } from '../../src/sandbox/store/session-columns.js';
import { sessionRequest } from '../support/sandbox.js';

let n = 0;
const session = (email: string, channel = 'dev'): Session => newSession({
  id: `00000000-0000-4000-8000-${String(n++).padStart(12, '0')}`, channel, request: sessionRequest({ customer_email: email }) as CreateSessionRequest,
  now: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(), newId: () => `item${n}-${Math.random()}`,
});
const search = (store: ReturnType<typeof createStore>, needle: string, channel = 'dev') =>
  store.sessions.list(channel, sessionListFilter({ search: needle }), { offset: 0, limit: 30 }).sessions.map((s) => s.customer_email);
const pending = (db: Db) => db.prepare('SELECT COUNT(*) FROM session_search_pending').pluck().get() as number;
const indexed = (db: Db) => db.prepare('SELECT COUNT(*) FROM session_search').pluck().get() as number;

const dirs: string[] = [];
afterEach(() => { for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true }); });

describe('the trigram index of sessions', () => {
  it('queues a created session, and a search indexes the queue before it reads', () => {
    const db = openDatabase(':memory:');
    const store = createStore(db);
    store.sessions.insert(session('amelia.pond@example.com'));
    store.sessions.insert(session('rory.williams@example.com'));
    expect([pending(db), indexed(db)]).toEqual([2, 0]);
    expect(search(store, 'pond')).toEqual(['amelia.pond@example.com']);
    expect([pending(db), indexed(db)]).toEqual([0, 2]);
  });

  it('indexes a changed email again, and forgets the old one', () => {
    const db = openDatabase(':memory:');
    const store = createStore(db);
    const first = session('clara.oswald@example.com');
    store.sessions.insert(first);
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
    expect(search(store, 'noble', 'other')).toHaveLength(1);
    store.sessions.insert(session('jack.harkness@example.com', 'other'));
    db.prepare("DELETE FROM payment_sessions WHERE channel = 'other'").run();
    expect([pending(db), indexed(db)]).toEqual([0, 0]);
  });

  it('is caught up by the maintenance timer, a batch at a time', async () => {
    const db = openDatabase(':memory:');
    const store = createStore(db);
    for (let i = 0; i < 25; i++) store.sessions.insert(session(`companion${i}@example.com`));
    const maintenance = startMaintenance(db, store, { intervalMs: 5, batch: 10 });
    try {
      const seen = new Set<number>();
      for (let tries = 0; tries < 200 && pending(db) > 0; tries++) {
        seen.add(pending(db));
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      expect([pending(db), indexed(db)]).toEqual([0, 25]);
      // Never all at once: the queue went down in steps of the batch.
      expect([...seen].some((left) => left > 0 && left < 25)).toBe(true);
    } finally {
      maintenance.stop();
    }
  });

  it('keeps the index of a database of schema 9, and queues only what comes after', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'search-index-'));
    dirs.push(dir);
    const file = path.join(dir, 'old.db');
    const old = openDatabase(file, MIGRATIONS.filter((m) => m.version <= 9));
    // The store of schema 9 inserted like this; its trigger indexed the row at once.
    old.prepare(`INSERT INTO payment_sessions (seq, id, channel, created_at, idempotency_key, kind, status, captured_at, email_search, name_search, payment_token, document)
      VALUES (1, @id, @channel, @created_at, @idempotency_key, @kind, @status, @captured_at, @email_search, @name_search, @payment_token, @document)`).run(sessionColumns(session('sarah.jane@example.com')));
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
