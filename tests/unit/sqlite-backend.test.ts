// The SQLite store behind the asynchronous interface (store/sqlite-backend.ts): one connection,
// one transaction at a time, run with BEGIN, COMMIT and ROLLBACK around functions that await.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createStore, openDatabase } from '../../src/sandbox/store/index.js';
import { SQLITE_LONE_LANE, sqliteBackend } from '../../src/sandbox/store/sqlite-backend.js';

function backend() {
  const db = openDatabase(':memory:');
  // The tests write disputes, the simplest rows, for sessions that are never created.
  db.pragma('foreign_keys = OFF');
  const sqlite = createStore(db);
  return { db, sqlite, store: sqliteBackend(sqlite) };
}

/** Lets every other task queued now run: the transaction stays open across it. */
const otherTasks = () => new Promise((resolve) => setImmediate(resolve));

describe('the SQLite backend', () => {
  it('commits what a transaction wrote once its function has resolved', async () => {
    const { sqlite, store } = backend();
    const answer = await store.transaction(async () => {
      await store.disputes.register('ch', 'dp_1', 'ps_1');
      await otherTasks();
      return store.disputes.sessionOf('ch', 'dp_1');
    });
    expect(answer).toBe('ps_1');
    expect(sqlite.disputes.sessionOf('ch', 'dp_1')).toBe('ps_1');
  });

  it('leaves nothing of a transaction whose function rejects', async () => {
    const { db, sqlite, store } = backend();
    const failure = new Error('refused');
    await expect(
      store.transaction(async () => {
        await store.disputes.register('ch', 'dp_1', 'ps_1');
        await otherTasks();
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(sqlite.disputes.sessionOf('ch', 'dp_1')).toBeUndefined();
    expect(db.inTransaction).toBe(false);
  });

  it('empties the cached facts when a transaction rolls back', async () => {
    const { sqlite, store } = backend();
    await expect(
      store.transaction(async () => {
        await store.clock.advance('ch', 60);
        // Read inside the transaction: the cache now holds a value that is never committed.
        expect(await store.clock.offsetSeconds('ch')).toBe(60);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await store.clock.offsetSeconds('ch')).toBe(0);
    expect(sqlite.clock.offsetSeconds('ch')).toBe(0);
  });

  it('answers a call made outside an open transaction only once it has committed', async () => {
    const { store } = backend();
    const order: string[] = [];
    let opened!: () => void;
    const isOpen = new Promise<void>((resolve) => {
      opened = resolve;
    });
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const writing = store.transaction(async () => {
      await store.disputes.register('ch', 'dp_1', 'ps_1');
      opened();
      await held;
      order.push('committing');
    });
    await isOpen;
    // Made from the test, outside the transaction, while its write is not committed.
    const outside = store.disputes.sessionOf('ch', 'dp_1').then((session) => {
      order.push('outside read');
      return session;
    });
    await otherTasks();
    expect(order).toEqual([]);
    release();
    await writing;
    expect(await outside).toBe('ps_1');
    expect(order).toEqual(['committing', 'outside read']);
  });

  it('answers a call from outside only after the open transaction rolled back, without its write', async () => {
    const { store } = backend();
    const order: string[] = [];
    let opened!: () => void;
    const isOpen = new Promise<void>((resolve) => {
      opened = resolve;
    });
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const failing = store.transaction(async () => {
      await store.disputes.register('ch', 'dp_1', 'ps_1');
      opened();
      await held;
      order.push('rolled back');
      throw new Error('refused');
    });
    await isOpen;
    const outside = store.disputes.sessionOf('ch', 'dp_1').then((session) => {
      order.push('outside read');
      return session;
    });
    await otherTasks();
    release();
    await expect(failing).rejects.toThrow('refused');
    expect(await outside).toBeUndefined();
    expect(order).toEqual(['rolled back', 'outside read']);
  });

  it('runs one transaction at a time, in the order they were asked for', async () => {
    const { store } = backend();
    const steps: string[] = [];
    const run = (name: string) =>
      store.transaction(async () => {
        steps.push(`${name} begins`);
        await otherTasks();
        steps.push(`${name} ends`);
      });
    await Promise.all([run('a'), run('b')]);
    expect(steps).toEqual(['a begins', 'a ends', 'b begins', 'b ends']);
  });

  it('runs the calls made inside a transaction in it, nested transactions and writes included, without waiting', async () => {
    const { db, store } = backend();
    const seen = await store.transaction(async () => {
      await store.disputes.register('ch', 'dp_1', 'ps_1');
      const nested = await store.transaction(async () => {
        await store.disputes.register('ch', 'dp_2', 'ps_2');
        return store.disputes.sessionOf('ch', 'dp_1');
      });
      const written = await store.write(async () => store.disputes.sessionOf('ch', 'dp_2'));
      const read = await store.read(async () => store.disputes.sessionOf('ch', 'dp_2'));
      return { nested, written, read, inTransaction: db.inTransaction };
    });
    expect(seen).toEqual({ nested: 'ps_1', written: 'ps_2', read: 'ps_2', inTransaction: true });
  });

  it('rolls back a failed nested transaction alone', async () => {
    const { sqlite, store } = backend();
    await store.transaction(async () => {
      await store.disputes.register('ch', 'dp_1', 'ps_1');
      await expect(
        store.transaction(async () => {
          await store.disputes.register('ch', 'dp_2', 'ps_2');
          throw new Error('refused');
        }),
      ).rejects.toThrow('refused');
    });
    expect(sqlite.disputes.sessionOf('ch', 'dp_1')).toBe('ps_1');
    expect(sqlite.disputes.sessionOf('ch', 'dp_2')).toBeUndefined();
  });

  it('answers each write of a turn only once their shared transaction has committed', async () => {
    const { db, store } = backend();
    const committed: boolean[] = [];
    const begun: boolean[] = [];
    await Promise.all(
      ['dp_1', 'dp_2', 'dp_3'].map((id) =>
        store
          .write(async () => {
            begun.push(db.inTransaction);
            await store.disputes.register('ch', id, `ps_${id}`);
            await otherTasks();
          })
          .then(() => committed.push(!db.inTransaction)),
      ),
    );
    expect(begun).toEqual([true, true, true]);
    expect(committed).toEqual([true, true, true]);
  });

  it('commits the writes of a channel that writes alone SQLITE_LONE_LANE at a time, the rest in the next group', async () => {
    const { db, store } = backend();
    const count = db.prepare('SELECT count(*) FROM disputes').pluck();
    // Read as each write is answered: its group has committed, and the next has not begun (it
    // starts on a later turn), so the count is the writes committed up to the end of its group.
    const seenAtAnswer: number[] = [];
    const writes = SQLITE_LONE_LANE + 6;
    await Promise.all(
      Array.from({ length: writes }, (_, n) =>
        store
          .write(() => store.disputes.register('ch', `dp_${n}`, `ps_${n}`), 'ch')
          .then(() => seenAtAnswer.push(count.get() as number)),
      ),
    );
    expect(SQLITE_LONE_LANE).toBe(64);
    expect(seenAtAnswer).toEqual([
      ...Array<number>(SQLITE_LONE_LANE).fill(SQLITE_LONE_LANE),
      ...Array<number>(6).fill(writes),
    ]);
  });

  it('rolls back a failed write of a turn alone, the others committed', async () => {
    const { sqlite, store } = backend();
    const outcomes = await Promise.allSettled([
      store.write(() => store.disputes.register('ch', 'dp_1', 'ps_1')),
      store.write(async () => {
        await store.disputes.register('ch', 'dp_2', 'ps_2');
        // The same dispute again: the primary key refuses it, after dp_2 was written.
        await store.disputes.register('ch', 'dp_1', 'ps_x');
      }),
      store.write(() => store.disputes.register('ch', 'dp_3', 'ps_3')),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(sqlite.disputes.sessionOf('ch', 'dp_1')).toBe('ps_1');
    expect(sqlite.disputes.sessionOf('ch', 'dp_2')).toBeUndefined();
    expect(sqlite.disputes.sessionOf('ch', 'dp_3')).toBe('ps_3');
  });

  it('keeps a list answer computed asynchronously: the same read again computes nothing', async () => {
    const { store } = backend();
    let computed = 0;
    const compute = async () => {
      computed++;
      await otherTasks();
      return `answer ${computed}`;
    };
    expect(await store.sessions.answer('ch', 'list', compute)).toBe('answer 1');
    expect(await store.sessions.answer('ch', 'list', compute)).toBe('answer 1');
    expect(computed).toBe(1);
  });

  it('does not keep an answer whose computation rejects', async () => {
    const { store } = backend();
    await expect(
      store.sessions.answer('ch', 'list', async () => {
        throw new Error('too large');
      }),
    ).rejects.toThrow('too large');
    expect(await store.sessions.answer('ch', 'list', async () => 'computed')).toBe('computed');
  });

  it('turns a synchronous failure of the SQLite store into a rejection', async () => {
    const { store } = backend();
    await store.disputes.register('ch', 'dp_1', 'ps_1');
    await expect(store.disputes.register('ch', 'dp_1', 'ps_1')).rejects.toThrow(/UNIQUE constraint/);
  });

  it('is one backend per SQLite store: asked for twice, the same one, with one queue for the connection', () => {
    const { sqlite, store } = backend();
    expect(sqliteBackend(sqlite)).toBe(store);
  });

  it('passes on a failure of the answer cache itself, rather than computing the answer past it', async () => {
    const { sqlite, store } = backend();
    const kept = sqlite.sessions.answer;
    let calls = 0;
    // The cache fails once, as it is probed; asked again, it would keep what it is given.
    sqlite.sessions.answer = (channel, key, compute) => {
      calls += 1;
      if (calls === 1) throw new Error('the cache failed');
      return kept(channel, key, compute);
    };
    await expect(store.sessions.answer('ch', 'list', async () => 'computed')).rejects.toThrow('the cache failed');
  });

  it('refuses every write of a turn when their shared transaction cannot begin, and none is written', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'sqlite-backend-'));
    try {
      const file = path.join(folder, 'sandbox.db');
      const db = openDatabase(file);
      db.pragma('foreign_keys = OFF');
      // A second connection holds the write lock; this one waits for it only briefly.
      db.pragma('busy_timeout = 20');
      const other = new Database(file);
      other.exec('BEGIN IMMEDIATE');
      const sqlite = createStore(db);
      const store = sqliteBackend(sqlite);
      const writes = [
        store.write(() => store.disputes.register('ch', 'dp_1', 'ps_1')),
        store.write(() => store.disputes.register('ch', 'dp_2', 'ps_2')),
      ];
      for (const write of writes) await expect(write).rejects.toThrow(/database is locked/);
      other.exec('ROLLBACK');
      other.close();
      expect(sqlite.disputes.sessionOf('ch', 'dp_1')).toBeUndefined();
      expect(sqlite.disputes.sessionOf('ch', 'dp_2')).toBeUndefined();
      db.close();
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('runs a transaction asked for from outside the open one after it, never inside it: its commit is its own', async () => {
    const { sqlite, store } = backend();
    let begun!: () => void;
    const firstHasBegun = new Promise<void>((resolve) => {
      begun = resolve;
    });
    const first = store.transaction(async () => {
      await store.disputes.register('ch', 'dp_1', 'ps_1');
      begun();
      await otherTasks();
      throw new Error('refused');
    });
    await firstHasBegun;
    // Asked for while the first is open, from outside it: had it joined the first, its write would
    // be rolled back with it after it had answered.
    const second = store.transaction(() => store.disputes.register('ch', 'dp_2', 'ps_2'));
    await expect(first).rejects.toThrow('refused');
    await second;
    expect(sqlite.disputes.sessionOf('ch', 'dp_1')).toBeUndefined();
    expect(sqlite.disputes.sessionOf('ch', 'dp_2')).toBe('ps_2');
  });

  it('empties the cached facts when a nested transaction rolls back alone', async () => {
    const { store } = backend();
    await store.transaction(async () => {
      await expect(
        store.transaction(async () => {
          await store.clock.advance('ch', 60);
          expect(await store.clock.offsetSeconds('ch')).toBe(60);
          throw new Error('refused');
        }),
      ).rejects.toThrow('refused');
      expect(await store.clock.offsetSeconds('ch')).toBe(0);
    });
    expect(await store.clock.offsetSeconds('ch')).toBe(0);
  });

  it("reads another process's committed facts as a transaction begins, not the ones it had cached", async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'sqlite-backend-'));
    try {
      const file = path.join(folder, 'sandbox.db');
      const mine = sqliteBackend(createStore(openDatabase(file)));
      const theirs = sqliteBackend(createStore(openDatabase(file)));
      expect(await mine.transaction(() => mine.clock.offsetSeconds('ch'))).toBe(0);
      await theirs.transaction(() => theirs.clock.advance('ch', 60));
      expect(await mine.transaction(() => mine.clock.offsetSeconds('ch'))).toBe(60);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('passes on the error of a function that ended the transaction itself, with nothing left to roll back', async () => {
    const { db, store } = backend();
    await expect(
      store.transaction(async () => {
        // As a statement with ON CONFLICT ROLLBACK would: SQLite ends the transaction, then the caller fails.
        db.exec('ROLLBACK');
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(db.inTransaction).toBe(false);
  });
});
