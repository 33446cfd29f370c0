// The commit watch's -shm descriptors (store/wal-index.ts): one per file for the process, never
// closed while the file exists (closing it would drop SQLite's POSIX locks), closed once the file
// is deleted and no watch reads it any more; a file replaced under its path gets a descriptor of
// its own, and each watch reads the file of its own connection.
import { copyFileSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/sandbox/store/db.js';
import { commitWatchOf, factCache } from '../../src/sandbox/store/fact-cache.js';
import { type CommitWatch, commitWatch } from '../../src/sandbox/store/wal-index.js';
import { openDatabase } from '../../src/sandbox/store/database.js';
import { temporaryDatabases } from '../support/database-files.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const { databaseFile, open } = temporaryDatabases('wal-descriptors-');

/** This process's descriptors of a -shm file: those of the file at its path, or of a deleted one. */
function descriptorsOf(file: string, which: 'linked' | 'deleted'): number {
  const target = which === 'linked' ? `${file}-shm` : `${file}-shm (deleted)`;
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === target;
    } catch {
      return false;
    }
  }).length;
}

/** Collects what is unreachable and lets the finalizers run. */
async function collect(): Promise<void> {
  for (let n = 0; n < 3; n++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** A watch that has looked at a file, made and dropped in a frame of its own. */
function lookOnce(file: string): void {
  commitWatch(file, true).changed();
}

/** Another file's watch looks: a look at a file not yet read closes what may be closed. */
function lookElsewhere(): void {
  const other = databaseFile();
  open(other);
  lookOnce(other);
}

const addRow = (db: Db) =>
  db.prepare('INSERT INTO channel_clocks (channel, offset_ms) VALUES (?, 0)').run(`c${Math.random()}`);

describe("the commit watch's descriptors", () => {
  it('close once the -shm file is deleted and no watch reads it', async () => {
    const file = databaseFile();
    const db = openDatabase(file);
    lookOnce(file);
    // The last connection closes: SQLite deletes -shm; the watch's descriptor is the last one.
    db.close();
    expect(descriptorsOf(file, 'deleted')).toBe(1);
    await collect();
    // Another file's watch looks: the deleted file's descriptor is closed, and its number is
    // likely given to that file's -shm. The closed one must be forgotten: that watch's file deleted
    // in turn, under it, must not be closed for it.
    const other = databaseFile();
    const otherDb = openDatabase(other);
    const otherWatch = commitWatch(other, true);
    expect(otherWatch.changed()).toBe(true);
    expect(descriptorsOf(file, 'deleted')).toBe(0);
    otherDb.close();
    lookElsewhere();
    expect(otherWatch.changed()).toBe(false);
    expect(descriptorsOf(other, 'deleted')).toBe(1);
  });

  it('stay open while a watch still reads a deleted file, and the watch goes on answering', async () => {
    const file = databaseFile();
    const db = openDatabase(file);
    const watch = commitWatch(file, true);
    expect(watch.changed()).toBe(true);
    db.close();
    await collect();
    lookElsewhere();
    expect(descriptorsOf(file, 'deleted')).toBe(1);
    expect(watch.changed()).toBe(false);
  });

  it('stay open while the file exists, though no watch reads it: closing one would drop SQLite locks', async () => {
    const file = databaseFile();
    open(file);
    lookOnce(file);
    await collect();
    lookElsewhere();
    expect(descriptorsOf(file, 'linked')).toBe(2);
  });

  it("are one per file replaced under its path: each watch reads its own connection's file, and the old is closed when unread", async () => {
    const file = databaseFile();
    const before = open(file);
    const onBefore = commitWatch(file, true);
    onBefore.changed();
    // The files deleted under the open connection, and a new database made at the same path.
    rmSync(file);
    rmSync(`${file}-wal`, { force: true });
    rmSync(`${file}-shm`);
    const after = open(file);
    let onAfter: CommitWatch | undefined = commitWatch(file, true);
    expect(onAfter.changed()).toBe(true);
    expect(descriptorsOf(file, 'linked')).toBe(2);
    expect(descriptorsOf(file, 'deleted')).toBe(2);
    // Each sees the commits of its own file, and only those.
    addRow(after);
    expect(onAfter.changed()).toBe(true);
    expect(onBefore.changed()).toBe(false);
    addRow(before);
    expect(onBefore.changed()).toBe(true);
    expect(onAfter.changed()).toBe(false);
    // The replaced file's descriptor is closed once its watch and connection are gone; the new one stays.
    before.close();
    onAfter = undefined;
    await collect();
    lookElsewhere();
    expect(descriptorsOf(file, 'deleted')).toBe(1);
    const again = commitWatch(file, true);
    expect(again.changed()).toBe(true);
    expect(descriptorsOf(file, 'linked')).toBe(2);
    addRow(after);
    expect(again.changed()).toBe(true);
    expect(onBefore.changed()).toBe(false);
  });
});

describe('the watch a fact cache is given', () => {
  it('reads the header of a database in WAL mode: a second look, with no commit between, says no change', () => {
    const db = open(databaseFile());
    const watch = commitWatchOf(db);
    watch.changed();
    expect(watch.changed()).toBe(false);
  });

  it('always says a change for a database out of WAL mode, though a -shm file lies beside it', () => {
    const file = databaseFile();
    // A -shm file of another database, left where this database's would be.
    const wal = open(`${file}.other`);
    addRow(wal);
    const db = open(file);
    db.pragma('journal_mode = DELETE');
    rmSync(`${file}-shm`, { force: true });
    copyFileSync(`${file}.other-shm`, `${file}-shm`);
    const watch = commitWatchOf(db);
    expect([watch.changed(), watch.changed(), watch.changed()]).toEqual([true, true, true]);
  });

  it('is looked at once as the cache is made, with the version it reads then', () => {
    const db = open(databaseFile());
    let looks = 0;
    factCache(db, {
      changed: () => {
        looks += 1;
        return false;
      },
      forget() {},
    });
    expect(looks).toBe(1);
  });
});
