// A test file's own database on the run's PostgreSQL server (postgres-server.ts).
import { inject } from 'vitest';
import { freshDatabase } from '../../testkit/postgres.js';

/** The URL of a new, empty database, its name telling the run and `label`. */
export const testDatabase = (label: string): Promise<string> =>
  freshDatabase(inject('postgresUrl'), `${inject('postgresRun')}_${label}`);
