// What the tests of the PostgreSQL store's core share: cores opened on a fresh database of the
// run's server, closed after each test.
import { afterEach } from 'vitest';
import {
  openPostgresCore,
  type PostgresCore,
  type PostgresCoreOptions,
} from '../../src/sandbox/store/postgres/core.js';
import { testDatabase } from '../support/postgres-database.js';

const opened: PostgresCore[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((core) => core.close()));
});

/** A fresh database's URL. */
export const newDatabase = testDatabase;

/** A core on `url`, closed after the test. */
export async function openCore(url: string, options: PostgresCoreOptions = {}): Promise<PostgresCore> {
  const core = await openPostgresCore(url, options);
  opened.push(core);
  return core;
}

/** Two cores on one fresh database, as two sandbox processes would have. */
export async function twoSandboxes(
  label: string,
  options: PostgresCoreOptions = {},
): Promise<[PostgresCore, PostgresCore]> {
  const url = await newDatabase(label);
  const first = await openCore(url, options);
  return [first, await openCore(url, options)];
}
