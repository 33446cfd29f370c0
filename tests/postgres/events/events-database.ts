// A database of its own for a test file of the webhook events' repositories, on the run's
// PostgreSQL server (tests/support/postgres-server.ts): the schema, the delivery claims' lease
// columns, and a PgQueries over a pool. Each further pool is another sandbox process.
import pg from 'pg';
import { AUTOINCREMENT_MIGRATION } from '../../../src/sandbox/store/postgres/autoincrement-migration.js';
import { DELIVERY_CLAIMS_MIGRATION } from '../../../src/sandbox/store/postgres/delivery-claims-migration.js';
import { migrate } from '../../../src/sandbox/store/postgres/migrate.js';
import type { PgQueries } from '../../../src/sandbox/store/postgres/queries.js';
import { PG_MIGRATIONS } from '../../../src/sandbox/store/postgres/schema.js';
import { testDatabase } from '../../support/postgres-database.js';
import { bigintsAsNumbers, poolQueries } from './pool-queries.js';

export { poolQueries };

export interface EventsDatabase {
  /** The database's URL, for a sandbox process of a test's own. */
  url: string;
  pool: pg.Pool;
  q: PgQueries;
  /** Another pool on the same database: a second sandbox process. */
  otherPool(): pg.Pool;
  /** Empties the events' tables, their sequences from 1 again, with the sessions `sessions` for disputes to name. */
  empty(sessions?: string[]): Promise<void>;
  close(): Promise<void>;
}

export async function eventsDatabase(label: string): Promise<EventsDatabase> {
  const url = await testDatabase(label);
  const pools: pg.Pool[] = [];
  const connect = () => {
    const pool = new pg.Pool({ connectionString: url, max: 4, types: bigintsAsNumbers });
    pools.push(pool);
    return pool;
  };
  const pool = connect();
  const client = await pool.connect();
  try {
    await migrate(client, [...PG_MIGRATIONS, DELIVERY_CLAIMS_MIGRATION, AUTOINCREMENT_MIGRATION]);
  } finally {
    client.release();
  }
  const q = poolQueries(pool);
  return {
    url,
    pool,
    q,
    otherPool: connect,
    async empty(sessions = []) {
      await q.run(
        'TRUNCATE delivery_attempts, deliveries, outbox, webhook_endpoints, disputes, payment_sessions, session_counts ' +
          'RESTART IDENTITY CASCADE',
      );
      await q.run('UPDATE autoincrement SET last = 0');
      for (const id of sessions)
        await q.run(
          "INSERT INTO payment_sessions (id, channel, created_at, document, status, kind) VALUES ($1, 'dev', '', '{}', 'open', 'payment')",
          [id],
        );
    },
    close: async () => {
      await Promise.all(pools.map((each) => each.end()));
    },
  };
}
