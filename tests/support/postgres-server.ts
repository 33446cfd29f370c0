// Global setup of the postgres project (vitest.config.ts): one PostgreSQL server for every test
// file of the run, started once (about a second) rather than once per file; each file then takes a
// database of its own on it (testDatabase), so files running at once stay apart. On a server
// SANDBOX_TEST_POSTGRES_URL names, which outlives the run, the run's databases are dropped at its end.
import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { dropDatabases, startTestPostgres } from '../../testkit/postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The server's maintenance database; tests create their own beside it. */
    postgresUrl: string;
    /** The start of the names of this run's databases. */
    postgresRun: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startTestPostgres();
  const run = `sandbox_test_${randomBytes(3).toString('hex')}`;
  project.provide('postgresUrl', server.url);
  project.provide('postgresRun', run);
  return async () => {
    if (server.restart === undefined) await dropDatabases(server.url, run);
    await server.stop();
  };
}
