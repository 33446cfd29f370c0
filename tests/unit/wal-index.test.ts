// The commit watch (store/wal-index.ts) lets the fact cache skip `PRAGMA data_version` while the
// wal-index header shows no commit. It must see every commit of every connection, never take a
// stale header as seen, and never close a -shm descriptor SQLite's locks depend on.
import { execFileSync } from 'node:child_process';
import { readdirSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CommitWatch, commitWatch } from '../../src/sandbox/store/wal-index.js';
import { openDatabase } from '../../src/sandbox/store/database.js';
import { temporaryDatabases } from '../support/database-files.js';
import { factCache } from '../../src/sandbox/store/fact-cache.js';
import type { Db } from '../../src/sandbox/store/db.js';

const { databaseFile, open } = temporaryDatabases('wal-index-');

const advance = (db: Db, seconds: number) =>
  db.prepare('INSERT INTO channel_clocks (channel, offset_ms) VALUES (?, ?)').run(`c${Math.random()}`, seconds);

/** This process's open descriptors of a file. */
const descriptorsOf = (file: string) =>
  readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === file;
    } catch {
      return false;
    }
  }).length;

describe('the commit watch of a SQLite file in WAL mode', () => {
  it("answers true at its first look, false while no one commits, and true after another connection's commit", () => {
    const file = databaseFile();
    const here = open(file);
    const there = open(file);
    const watch = commitWatch(here.name, true);
    expect(watch.changed()).toBe(true);
    expect(watch.changed()).toBe(false);
    here.prepare('SELECT count(*) FROM channel_clocks').get();
    expect(watch.changed()).toBe(false);
    advance(there, 1);
    expect(watch.changed()).toBe(true);
    expect(watch.changed()).toBe(false);
  });

  it("answers true after its own connection's commit too, and after each of several commits", () => {
    const file = databaseFile();
    const here = open(file);
    const watch = commitWatch(file, true);
    watch.changed();
    for (let n = 0; n < 3; n++) {
      advance(here, n);
      expect(watch.changed()).toBe(true);
      expect(watch.changed()).toBe(false);
    }
  });

  it('takes the next look as the first after forget(), though nothing was committed', () => {
    const file = databaseFile();
    open(file);
    const watch = commitWatch(file, true);
    watch.changed();
    watch.forget();
    expect(watch.changed()).toBe(true);
    expect(watch.changed()).toBe(false);
  });

  it('always answers true for a database in memory, out of WAL mode, or whose file cannot be found', () => {
    const watches: CommitWatch[] = [
      commitWatch(':memory:', true),
      commitWatch('', true),
      commitWatch(databaseFile(), false),
      commitWatch(path.join(databaseFile(), 'missing', 'sandbox.db'), true),
    ];
    for (const watch of watches) {
      expect(watch.changed()).toBe(true);
      expect(watch.changed()).toBe(true);
    }
  });

  it('answers true while the -shm file does not exist yet, then watches it once SQLite has made it', () => {
    const file = databaseFile();
    const here = open(file);
    here.close();
    // The last connection closed: SQLite deleted the -shm file.
    const watch = commitWatch(file, true);
    expect(watch.changed()).toBe(true);
    expect(watch.changed()).toBe(true);
    const again = open(file);
    again.prepare('SELECT 1').get();
    expect(watch.changed()).toBe(true);
    expect(watch.changed()).toBe(false);
  });

  it('reads one descriptor of the -shm file, however many watches look at it', () => {
    const file = databaseFile();
    open(file);
    const watches = [commitWatch(file, true), commitWatch(file, true), commitWatch(file, true)];
    for (const watch of watches) watch.changed();
    // SQLite's own descriptor, and the watches' one.
    expect(descriptorsOf(`${realpathSync(file)}-shm`)).toBe(2);
  });

  it("keeps SQLite's locks: another process's checkpoint cannot move a reader's snapshot after watches came and went", () => {
    const file = databaseFile();
    advance(open(file), 1);
    const reader = open(file);
    // The snapshot is taken on another table: the pages counted below are not in the reader's
    // cache, and are read from the files as they are at the count.
    reader.exec('BEGIN');
    reader.prepare('SELECT count(*) FROM schema_migrations').get();
    // Stores on the same file open, look and close while the reader holds its snapshot: POSIX
    // drops all of a process's locks on a file when any descriptor of it closes.
    for (let n = 0; n < 3; n++) {
      const other = openDatabase(file);
      factCache(other).revalidate();
      other.close();
    }
    const script = `
      const Database = require('better-sqlite3');
      const db = new Database(process.argv[1]);
      db.pragma('busy_timeout = 2000');
      const insert = db.prepare('INSERT INTO channel_clocks (channel, offset_ms) VALUES (?, 0)');
      db.transaction(() => { for (let n = 0; n < 399; n++) insert.run('other-' + n); })();
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.close();`;
    execFileSync(process.execPath, ['-e', script, file], { cwd: process.cwd() });
    expect(reader.prepare('SELECT count(*) FROM channel_clocks').pluck().get()).toBe(1);
    reader.exec('COMMIT');
    expect(reader.prepare('SELECT count(*) FROM channel_clocks').pluck().get()).toBe(400);
  });
});

describe('the fact cache over its commit watch', () => {
  /** A watch that answers what the test says, and counts forget(). */
  const scriptedWatch = () => {
    const watch = { answer: true, forgotten: 0, changed: () => watch.answer, forget: () => void watch.forgotten++ };
    return watch;
  };

  it("asks the database only when the watch says a commit may have happened: another connection's commit is seen then", () => {
    const file = databaseFile();
    const here = open(file);
    const there = open(file);
    const watch = scriptedWatch();
    const facts = factCache(here, watch);
    const cached = facts.map<number>();
    cached.set('dev', 1);
    advance(there, 5);
    watch.answer = false;
    facts.revalidate();
    expect(cached.get('dev')).toBe(1);
    watch.answer = true;
    facts.revalidate();
    expect(cached.has('dev')).toBe(false);
  });

  it('keeps what it holds when the watch says a commit may have happened but none did', () => {
    const file = databaseFile();
    const watch = scriptedWatch();
    const facts = factCache(open(file), watch);
    const cached = facts.map<number>();
    cached.set('dev', 1);
    facts.revalidate();
    expect(cached.get('dev')).toBe(1);
  });

  it('empties itself and has the watch look again when the database cannot say its version', () => {
    const file = databaseFile();
    const db = open(file);
    const watch = scriptedWatch();
    const facts = factCache(db, watch);
    const cached = facts.map<number>();
    cached.set('dev', 1);
    db.close();
    expect(() => facts.revalidate()).toThrow(/not open/);
    expect(cached.size).toBe(0);
    expect(watch.forgotten).toBe(1);
  });
});
