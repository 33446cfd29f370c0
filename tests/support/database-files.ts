// SQLite database files for the tests of one test file, each in a temporary folder of its own
// (its real path: /proc's links name the -shm file by it), the connections closed and the folders
// removed after each test.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { openDatabase } from '../../src/sandbox/store/database.js';
import type { Db } from '../../src/sandbox/store/db.js';

export function temporaryDatabases(prefix: string) {
  const dirs: string[] = [];
  const opened: Db[] = [];
  afterEach(() => {
    for (const db of opened.splice(0)) if (db.open) db.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return {
    /** The path of a database file not made yet, in a new folder. */
    databaseFile(): string {
      const dir = realpathSync(mkdtempSync(path.join(tmpdir(), prefix)));
      dirs.push(dir);
      return path.join(dir, 'sandbox.db');
    },
    /** The file opened as the sandbox opens it (WAL mode, migrated), closed after the test. */
    open(file: string): Db {
      const db = openDatabase(file);
      opened.push(db);
      return db;
    },
  };
}
