// The fact cache looks at the wal-index header before it asks the database (store/wal-index.ts).
// A look cannot see a commit that lands after it, before a deferred transaction's first statement
// takes the snapshot; nor can one copy of the header tell of a commit whose writer stopped between
// the two copies. In both cases the cache must not answer what the database's reads contradict.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/sandbox/store/database.js';
import type { Db } from '../../src/sandbox/store/db.js';
import { createStore } from '../../src/sandbox/store/index.js';
import { sqliteBackend } from '../../src/sandbox/store/sqlite-backend.js';

const dirs: string[] = [];
const opened: Db[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A store whose clock of channel c is cached at 60 s, and another connection to its file. */
function cachedAtSixty() {
  const dir = mkdtempSync(path.join(tmpdir(), 'fact-snapshot-'));
  dirs.push(dir);
  const file = path.join(dir, 'sandbox.db');
  const db = openDatabase(file);
  const other = openDatabase(file);
  opened.push(db, other);
  const store = createStore(db);
  store.transaction(() => store.clock.advance('c', 60));
  store.revalidate();
  expect(store.clock.offsetSeconds('c')).toBe(60);
  const addHour = () =>
    other.prepare("UPDATE channel_clocks SET offset_ms = offset_ms + 3600000 WHERE channel = 'c'").run();
  const tableSeconds = () =>
    (db.prepare("SELECT offset_ms / 1000 FROM channel_clocks WHERE channel = 'c'").pluck().get() as number) ?? 0;
  return { file, store, addHour, tableSeconds };
}

describe('the cached facts of a read transaction', () => {
  it("are of the transaction's snapshot: a commit after BEGIN and before the first read is in neither", () => {
    const { store, addHour, tableSeconds } = cachedAtSixty();
    const inside = store.read(() => {
      addHour();
      return [store.clock.offsetSeconds('c'), tableSeconds()];
    });
    expect(inside).toEqual([60, 60]);
    expect(store.read(() => [store.clock.offsetSeconds('c'), tableSeconds()])).toEqual([3660, 3660]);
  });

  it('are so through the asynchronous store too', async () => {
    const { store, addHour, tableSeconds } = cachedAtSixty();
    const backend = sqliteBackend(store);
    const inside = await backend.read(async () => {
      addHour();
      return [await backend.clock.offsetSeconds('c'), tableSeconds()];
    });
    expect(inside).toEqual([60, 60]);
    expect(await backend.read(async () => backend.clock.offsetSeconds('c'))).toBe(3660);
  });
});

describe('a commit whose writer stopped between the two copies of the wal-index header', () => {
  it('is seen at the next look: copies that differ are taken as a change', () => {
    const { file, store, addHour } = cachedAtSixty();
    const firstCopy = readFileSync(`${file}-shm`).subarray(0, 48).toString('hex');
    addHour();
    // The first copy put back as it was, in another process: the state a writer killed between its
    // two writes leaves (closing a descriptor of -shm here would drop SQLite's locks).
    const putBack = `const fs = require('node:fs'); const fd = fs.openSync(process.argv[1], 'r+');
      fs.writeSync(fd, Buffer.from(process.argv[2], 'hex'), 0, 48, 0); fs.closeSync(fd);`;
    execFileSync(process.execPath, ['-e', putBack, `${file}-shm`, firstCopy]);
    store.revalidate();
    expect(store.clock.offsetSeconds('c')).toBe(3660);
  });
});
