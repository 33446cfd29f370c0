// Brings a PostgreSQL database's schema up to date (schema.ts), once, however many sandboxes start
// on it at the same moment.
import { PG_MIGRATIONS, type PgMigration, type SqlClient } from './schema.js';

/**
 * The key of the transaction-level advisory lock the migrations run under. Any constant would do;
 * it only has to be the same in every sandbox, and unlike other uses of advisory locks on a shared
 * server. A transaction lock is released by COMMIT or ROLLBACK, and by the server when the
 * connection drops, so a sandbox killed mid-migration leaves no lock behind.
 */
export const MIGRATION_LOCK_KEY = 4_702_216_193_301_057n;

/** What migrate() did: the versions it applied, oldest first (none when the schema was current). */
export interface MigrationResult {
  applied: number[];
}

/**
 * Applies the migrations the database lacks, in one transaction on `client` (a connection of its
 * own: a pool's client, not the pool, whose queries could each run on another connection).
 */
export async function migrate(client: SqlClient, migrations: PgMigration[] = PG_MIGRATIONS): Promise<MigrationResult> {
  await client.query('BEGIN');
  try {
    // Taken before anything is read: a second sandbox waits here, then reads every migration the
    // first applied. (Read before the lock, two starts would both apply version 1, and one fail.)
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY.toString()]);
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, description TEXT NOT NULL, ' +
        'applied_at TEXT NOT NULL)',
    );
    const { rows } = await client.query('SELECT version FROM schema_migrations');
    const applied = new Set(rows.map((row) => Number(row.version)));
    // A database a newer sandbox has migrated would be written by rules this one does not know:
    // refused, rather than left inconsistent for the newer one (as the SQLite store refuses).
    const known = Math.max(0, ...migrations.map((m) => m.version));
    const newest = Math.max(0, ...applied);
    if (newest > known) throw new Error(newerSchemaMessage(newest, known));
    const done: number[] = [];
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (applied.has(migration.version)) continue;
      await client.query(migration.sql);
      await migration.run?.(client);
      await client.query('INSERT INTO schema_migrations (version, description, applied_at) VALUES ($1, $2, $3)', [
        migration.version,
        migration.description,
        new Date().toISOString(),
      ]);
      done.push(migration.version);
    }
    await client.query('COMMIT');
    return { applied: done };
  } catch (error) {
    // A connection that dropped cannot roll back; the server has already done so.
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}

/** A pool of connections, as node-postgres' pg.Pool is. */
export interface ConnectionPool {
  connect(): Promise<
    SqlClient & {
      release(error?: Error | boolean): void;
      on(event: 'error', listener: () => void): unknown;
      off(event: 'error', listener: () => void): unknown;
    }
  >;
}

/** migrate() on a connection of the pool's own, given back after (destroyed when it failed). */
export async function migratePool(pool: ConnectionPool, migrations?: PgMigration[]): Promise<MigrationResult> {
  const client = await pool.connect();
  const onLost = () => {};
  // Its loss is the migration's failed statement; unheard, the 'error' event would end the process.
  client.on('error', onLost);
  try {
    const result = await migrate(client, migrations);
    client.release();
    return result;
  } catch (error) {
    // A connection whose transaction failed may be in any state: given the error, the pool makes a new one.
    client.release(error as Error);
    throw error;
  } finally {
    client.off('error', onLost);
  }
}

/** The one line a sandbox older than its database stops with. */
export const newerSchemaMessage = (newest: number, known: number) =>
  `This database was written by a newer sandbox (schema ${newest}; this one knows ${known}): update the sandbox, ` +
  'or start with another --db.';
