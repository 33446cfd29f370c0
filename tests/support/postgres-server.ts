// Global setup of the postgres project (vitest.config.ts): one PostgreSQL server for every test
// file of the run, started once (about a second) rather than once per file; each file then takes a
// database of its own on it (freshDatabase), so files running at once stay apart.
import type { TestProject } from 'vitest/node';
import { startTestPostgres } from '../../testkit/postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The server's maintenance database; tests create their own beside it. */
    postgresUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startTestPostgres();
  project.provide('postgresUrl', server.url);
  return () => server.stop();
}
