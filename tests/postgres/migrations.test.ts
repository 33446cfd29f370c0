// The PostgreSQL schema (store/postgres/schema.ts) and its migration (store/postgres/migrate.ts),
// against a real server: a fresh database gets every table and column the SQLite store has, under
// the same names; sandboxes starting together on an empty database apply each migration once; a
// database a newer sandbox migrated is refused in one line; migrating again changes nothing.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/sandbox/store/database.js';
import { MIGRATIONS } from '../../src/sandbox/store/migrations.js';
import { STORE_MIGRATIONS } from '../../src/sandbox/store/postgres/index.js';
import { migrate, migratePool, newerSchemaMessage } from '../../src/sandbox/store/postgres/migrate.js';
import { PG_MIGRATIONS } from '../../src/sandbox/store/postgres/schema.js';
import { testDatabase } from '../support/postgres-database.js';

/** SQLite's FTS5 trigram indexes and their queue: PostgreSQL searches with GIN trigram indexes instead. */
const SQLITE_ONLY_TABLES = ['search_channels', 'session_search', 'session_search_pending', 'token_search'];

const clients: pg.Client[] = [];
async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  clients.push(client);
  return client;
}
afterAll(async () => {
  await Promise.all(clients.map((client) => client.end()));
});

/**
 * Every table of the SQLite store with its columns (FTS5's own storage left out), at the version
 * PostgreSQL's schema copies (version 1 is SQLite's 21), or at its last.
 */
function sqliteColumns(lastVersion = Number.POSITIVE_INFINITY): Map<string, string[]> {
  const db = openDatabase(
    ':memory:',
    MIGRATIONS.filter((m) => m.version <= lastVersion),
  );
  const tables = db
    .prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    .all() as Array<{ name: string; sql: string }>;
  const virtual = tables.filter((t) => t.sql.startsWith('CREATE VIRTUAL TABLE')).map((t) => t.name);
  const shadow = (name: string) => virtual.some((v) => name.startsWith(`${v}_`) && name !== 'session_search_pending');
  const columns = new Map<string, string[]>();
  for (const { name } of tables.filter((t) => !shadow(t.name)))
    columns.set(name, (db.pragma(`table_xinfo(${name})`) as Array<{ name: string }>).map((c) => c.name).sort());
  db.close();
  return columns;
}

async function postgresColumns(client: pg.Client): Promise<Map<string, string[]>> {
  const { rows } = await client.query<{ table_name: string; column_name: string }>(
    "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public' " +
      "AND table_name IN (SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' " +
      "AND table_type = 'BASE TABLE')",
  );
  const columns = new Map<string, string[]>();
  for (const row of rows) columns.set(row.table_name, [...(columns.get(row.table_name) ?? []), row.column_name]);
  for (const names of columns.values()) names.sort();
  return columns;
}

/** The SQLite version whose schema PostgreSQL's version 1 copies; later ones have twins of their own. */
const SCHEMA_COPIES_SQLITE_VERSION = 21;

describe('a fresh database', () => {
  let client: pg.Client;
  beforeAll(async () => {
    client = await connect(await testDatabase('fresh'));
    await migrate(client);
  });

  it('has every table and column of the SQLite store, under the same names, but the full-text tables', async () => {
    const sqlite = sqliteColumns(SCHEMA_COPIES_SQLITE_VERSION);
    for (const table of SQLITE_ONLY_TABLES) {
      expect(sqlite.has(table), `${table} is a table of the SQLite store`).toBe(true);
      sqlite.delete(table);
    }
    expect(Object.fromEntries(await postgresColumns(client))).toEqual(Object.fromEntries(sqlite));
  });

  it("has, once the store's migrations ran, the columns of the SQLite store's deliveries at its last version", async () => {
    const store = await connect(await testDatabase('fresh_store'));
    await migrate(store, STORE_MIGRATIONS);
    expect((await postgresColumns(store)).get('deliveries')).toEqual(sqliteColumns().get('deliveries'));
  });

  it('records each migration it applied', async () => {
    const { rows } = await client.query('SELECT version, description FROM schema_migrations ORDER BY version');
    expect(rows).toEqual(PG_MIGRATIONS.map(({ version, description }) => ({ version, description })));
  });

  it('holds a secret of 32 random bytes for the hosted pages', async () => {
    const { rows } = await client.query('SELECT secret FROM page_secret');
    expect(rows).toHaveLength(1);
    expect((rows[0].secret as Buffer).length).toBe(32);
  });
});

describe('migrating', () => {
  it('runs each migration once when five sandboxes start together on an empty database', async () => {
    const url = await testDatabase('concurrent');
    const starters = await Promise.all(Array.from({ length: 5 }, () => connect(url)));
    const results = await Promise.all(starters.map((client) => migrate(client)));
    const versions = PG_MIGRATIONS.map((m) => m.version);
    expect(results.flatMap((r) => r.applied).sort()).toEqual(versions);
    const { rows } = await starters[0]!.query('SELECT version FROM schema_migrations ORDER BY version');
    expect(rows.map((row) => row.version)).toEqual(versions);
  });

  it('migrates through a pool on a connection of its own, which it gives back', async () => {
    const pool = new pg.Pool({ connectionString: await testDatabase('pool'), max: 2 });
    try {
      expect(await migratePool(pool)).toEqual({ applied: PG_MIGRATIONS.map((m) => m.version) });
      expect(await migratePool(pool)).toEqual({ applied: [] });
      expect(pool.totalCount - pool.idleCount).toBe(0);
    } finally {
      await pool.end();
    }
  });

  it('destroys, rather than gives back to the pool, the connection of a migration that failed', async () => {
    const pool = new pg.Pool({ connectionString: await testDatabase('pool_failing'), max: 1 });
    try {
      const next = Math.max(...PG_MIGRATIONS.map((m) => m.version)) + 1;
      const failing = { version: next, description: 'fails', sql: 'SELECT 1 / 0' };
      await expect(migratePool(pool, [...PG_MIGRATIONS, failing])).rejects.toMatchObject({ code: '22012' });
      expect(pool.totalCount).toBe(0);
    } finally {
      await pool.end();
    }
  });

  it('applies the migrations in the order of their versions, whatever the order they are given in', async () => {
    const client = await connect(await testDatabase('unordered'));
    const versions = STORE_MIGRATIONS.map((m) => m.version);
    expect(versions.length).toBeGreaterThan(2);
    expect(await migrate(client, [...STORE_MIGRATIONS].reverse())).toEqual({ applied: versions });
  });

  it('changes nothing the second time', async () => {
    const client = await connect(await testDatabase('again'));
    await migrate(client);
    const before = (await client.query('SELECT secret FROM page_secret')).rows;
    expect(await migrate(client)).toEqual({ applied: [] });
    expect((await client.query('SELECT secret FROM page_secret')).rows).toEqual(before);
    expect((await client.query('SELECT count(*)::int AS n FROM schema_migrations')).rows[0].n).toBe(
      PG_MIGRATIONS.length,
    );
  });

  it('refuses, in one line, a database a newer sandbox has migrated, and leaves it as it was', async () => {
    const client = await connect(await testDatabase('newer'));
    await migrate(client);
    const known = Math.max(...PG_MIGRATIONS.map((m) => m.version));
    await client.query(
      "INSERT INTO schema_migrations VALUES ($1, 'from a later sandbox', '2030-01-01T00:00:00.000Z')",
      [known + 1],
    );
    const refusal = migrate(client);
    await expect(refusal).rejects.toThrow(newerSchemaMessage(known + 1, known));
    expect(newerSchemaMessage(known + 1, known)).toBe(
      `This database was written by a newer sandbox (schema ${known + 1}; this one knows ${known}): update the ` +
        'sandbox, or start with another --db.',
    );
    // The refusal rolled its transaction back: the connection is usable, and the row still there.
    expect((await client.query('SELECT max(version) AS v FROM schema_migrations')).rows[0].v).toBe(known + 1);
  });

  it('applies nothing of a run whose migration fails: one transaction, all or none', async () => {
    const client = await connect(await testDatabase('failing'));
    const next = Math.max(...PG_MIGRATIONS.map((m) => m.version)) + 1;
    const failing = { version: next, description: 'fails', sql: 'CREATE TABLE half_done (a INT); SELECT 1 / 0;' };
    await expect(migrate(client, [...PG_MIGRATIONS, failing])).rejects.toMatchObject({ code: '22012' });
    const { rows } = await client.query(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_name IN " +
        "('half_done', 'payment_sessions', 'schema_migrations')",
    );
    expect(rows).toEqual([]);
  });

  it('applies, on a database an older sandbox migrated, only the versions it lacks', async () => {
    const client = await connect(await testDatabase('older'));
    await migrate(client);
    const next = Math.max(...PG_MIGRATIONS.map((m) => m.version)) + 1;
    const later = { version: next, description: 'a later column', sql: 'ALTER TABLE faults ADD COLUMN later TEXT' };
    expect(await migrate(client, [...PG_MIGRATIONS, later])).toEqual({ applied: [next] });
    const { rows } = await client.query(
      "SELECT 1 FROM information_schema.columns WHERE table_name = 'faults' AND column_name = 'later'",
    );
    expect(rows).toHaveLength(1);
  });
});
