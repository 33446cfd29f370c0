// Opens the SQLite database (a file, or :memory:), in WAL mode, and brings its schema up to date.
import Database from 'better-sqlite3';
import { MIGRATIONS, type Migration } from './migrations.js';
import { createPrivately } from './private-files.js';
import type { Db } from './db.js';

export type { Db };

export function openDatabase(file: string, migrations: Migration[] = MIGRATIONS): Db {
  // A new file is created 0600 in a 0700 folder first: SQLite would create it 0644 (less the
  // umask), and it gives the -wal and -shm files the database file's mode. SQLite opens the file
  // at the end of a link, and writes -wal and -shm beside it: it is given that file's path.
  const db = new Database(file === ':memory:' ? file : createPrivately(file));
  // First: another process opening the same file at once holds its locks for a moment, and the
  // pragmas and the migrations below should wait for it rather than fail.
  db.pragma('busy_timeout = 5000');
  whenNotBusy(() => db.pragma('journal_mode = WAL'));
  // OFF in WAL mode: a committed write is in the operating system's hands before the answer goes
  // out, so it survives a crash of the sandbox (kill -9; tests/contract/crash.test.ts), though not
  // of the machine. NORMAL added an fsync to every checkpoint, which cost a fifth of create's
  // throughput and doubled its p99 (npm run bench); a sandbox's data is test data.
  db.pragma('synchronous = OFF');
  // The server checkpoints the WAL ten times a second, off the request path (maintenance.ts); the
  // automatic checkpoint, which a commit would otherwise run every 1,000 pages, is only a backstop.
  db.pragma('wal_autocheckpoint = 20000');
  db.pragma('foreign_keys = ON');
  whenNotBusy(() => migrate(db, migrations));
  return db;
}

/**
 * Runs `step` again while SQLite answers SQLITE_BUSY, for a few seconds. busy_timeout waits for a
 * lock, except where waiting could deadlock: two processes that open the same new file at once
 * both hold a read lock while one switches it to WAL, and SQLite then answers one of them
 * "database is locked" at once (1 of 10 opens, on a loaded machine). Retried, it finds WAL set.
 */
function whenNotBusy<T>(step: () => T): T {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  // A lock that is merely held was already waited for (busy_timeout): that BUSY is final.
  const deadline = Date.now() + 5_000;
  for (;;) {
    try {
      return step();
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() > deadline) throw error;
      Atomics.wait(pause, 0, 0, 10 + Math.random() * 40);
    }
  }
}

export function migrate(db: Db, migrations: Migration[]): void {
  // Read and applied under the write lock, in one transaction: a sandbox that starts on the same
  // new file at the same moment waits here, then finds every migration applied. (Read before the
  // lock, two starts both applied migration 1, and one failed: "duplicate column name: seq".)
  db.transaction(() => {
    db.exec(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, description TEXT NOT NULL, ' +
        'applied_at TEXT NOT NULL)',
    );
    const applied = new Set(db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[]);
    // A file a newer sandbox has migrated would be written by rules this one does not know (a
    // search queue, stored renderings): refused, rather than left inconsistent for the newer one.
    const known = Math.max(0, ...migrations.map((m) => m.version));
    const newest = Math.max(0, ...applied);
    if (newest > known)
      throw new Error(
        `This database was written by a newer sandbox (schema ${newest}; this one knows ${known}): update the ` +
          `sandbox, or start with another --db.`,
      );
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (applied.has(migration.version)) continue;
      db.exec(migration.sql);
      migration.run?.(db);
      db.prepare('INSERT INTO schema_migrations (version, description, applied_at) VALUES (?, ?, ?)').run(
        migration.version,
        migration.description,
        new Date().toISOString(),
      );
    }
  }).immediate();
}
