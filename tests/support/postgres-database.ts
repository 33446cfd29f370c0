// A test file's own databases on the run's PostgreSQL server (postgres-server.ts), dropped as the
// file ends (postgres-file-databases.ts).
import { inject } from 'vitest';
import { dropDatabase, freshDatabase } from '../../testkit/postgres.js';

// This file's: a module is loaded once per test file.
const made: string[] = [];

/** The URL of a new, empty database, its name telling the run and `label`. */
export async function testDatabase(label: string): Promise<string> {
  const url = await freshDatabase(inject('postgresUrl'), `${inject('postgresRun')}_${label}`);
  made.push(url);
  return url;
}

/** Drops the databases the test file made, with any connection it left open on them. */
export async function dropTestDatabases(): Promise<void> {
  for (const url of made.splice(0)) await dropDatabase(url);
}
