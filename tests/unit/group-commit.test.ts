// Writes that arrive in the same turn of the event loop share one transaction (store/group-commit.ts, over SQLite).
// Each must still behave as if it had a transaction of its own: in arrival order, seeing the writes
// before it, rolled back alone when it fails, and answered only once the whole has committed.
import { describe, expect, it } from 'vitest';
import { createStore, openDatabase } from '../../src/sandbox/store/index.js';
import { sqliteBackend } from '../../src/sandbox/store/sqlite-backend.js';

function store() {
  const db = openDatabase(':memory:');
  db.exec('CREATE TABLE notes (n INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE)');
  return {
    db,
    store: sqliteBackend(createStore(db)),
    notes: () => db.prepare('SELECT text FROM notes ORDER BY n').pluck().all(),
  };
}

describe('group commit', () => {
  it('runs the writes of one turn in one transaction, in arrival order, each seeing those before it', async () => {
    const { db, store: s, notes } = store();
    const insert = db.prepare('INSERT INTO notes (text) VALUES (?)');
    const count = db.prepare('SELECT COUNT(*) FROM notes').pluck();
    const begins: number[] = [];
    const answers = await Promise.all(
      ['a', 'b', 'c'].map((text) =>
        s.write(async () => {
          begins.push(db.inTransaction ? 1 : 0);
          insert.run(text);
          return count.get();
        }),
      ),
    );
    expect(answers).toEqual([1, 2, 3]);
    expect(begins).toEqual([1, 1, 1]);
    expect(notes()).toEqual(['a', 'b', 'c']);
  });

  it('shares one commit among the writes of a turn, and answers none before it', async () => {
    const { db, store: s } = store();
    const insert = db.prepare('INSERT INTO notes (text) VALUES (?)');
    const commits: number[] = [];
    const writes = ['a', 'b', 'c'].map((text) =>
      s.write(async () => insert.run(text)).then(() => commits.push(db.inTransaction ? 0 : 1)),
    );
    // Nothing has run yet: the writes wait for the end of this turn.
    expect(db.prepare('SELECT COUNT(*) FROM notes').pluck().get()).toBe(0);
    await Promise.all(writes);
    // Each answer came after the commit (no transaction open any more).
    expect(commits).toEqual([1, 1, 1]);
    // A write of a later turn gets a transaction of its own.
    await s.write(async () => insert.run('d'));
    expect(db.prepare('SELECT COUNT(*) FROM notes').pluck().get()).toBe(4);
  });

  it('rolls back a write that fails, alone: the others of its turn commit', async () => {
    const { db, store: s, notes } = store();
    const insert = db.prepare('INSERT INTO notes (text) VALUES (?)');
    const outcomes = await Promise.allSettled([
      s.write(async () => insert.run('a')),
      s.write(async () => {
        insert.run('half');
        throw new Error('refused after a write');
      }),
      s.write(async () => insert.run('a')), // the UNIQUE index refuses a second 'a'
      s.write(async () => insert.run('b')),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason.message).toBe('refused after a write');
    expect((outcomes[2] as PromiseRejectedResult).reason.code).toBe('SQLITE_CONSTRAINT_UNIQUE');
    expect(notes()).toEqual(['a', 'b']);
  });

  it('refuses every write of the turn when the shared transaction cannot commit', async () => {
    const { db, store: s, notes } = store();
    const insert = db.prepare('INSERT INTO notes (text) VALUES (?)');
    // A deferred foreign key fails at COMMIT, after every write of the turn has run.
    db.exec(
      'CREATE TABLE parents (id INTEGER PRIMARY KEY); CREATE TABLE children (parent INTEGER REFERENCES parents (id) DEFERRABLE INITIALLY DEFERRED)',
    );
    const outcomes = await Promise.allSettled([
      s.write(async () => insert.run('a')),
      s.write(async () => db.prepare('INSERT INTO children (parent) VALUES (42)').run()),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    expect(notes()).toEqual([]);
  });
});
