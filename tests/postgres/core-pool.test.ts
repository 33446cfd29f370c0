// The PostgreSQL store's connections (store/postgres/connection.ts): the pool never opens more
// than its bound, a statement that runs too long is cancelled with an error rather than waited
// for, and a server that stops and starts again is served again without a restart of the sandbox.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from '../../testkit/embedded-postgres.js';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../testkit/processes.js';
import { newDatabase, openCore } from './core-support.js';

describe('the pool', () => {
  it('opens no more connections than its bound, and serves every caller in turn', async () => {
    const url = await newDatabase('pool_bound');
    const core = await openCore(url, { pool: { max: 2 } });
    const watcher = await openCore(url);
    const database = new URL(url).pathname.slice(1);
    const connections = () =>
      watcher.q.value<number>(
        'SELECT count(*) FROM pg_stat_activity ' +
          'WHERE datname = $1 AND application_name = $2 AND pid <> pg_backend_pid()',
        [database, 'hsa-fsa-sandbox'],
      );
    let most = 0;
    let done = false;
    const watching = (async () => {
      while (!done) {
        // The watcher asks on one connection at a time, which the query leaves out.
        most = Math.max(most, Number(await connections()));
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        core.read(async () => {
          await core.q.value('SELECT pg_sleep(0.2)');
          return i;
        }),
      ),
    );
    done = true;
    await watching;
    expect(answers).toEqual([0, 1, 2, 3, 4, 5]);
    expect(most).toBe(2);
  });

  it('cancels a statement that runs past the statement timeout, with an error', async () => {
    const core = await openCore(await newDatabase('pool_timeout'), { pool: { statementTimeoutMs: 200 } });
    await expect(core.q.value('SELECT pg_sleep(30)')).rejects.toThrow(/statement timeout/);
    await expect(core.read(() => core.q.value('SELECT pg_sleep(30)'))).rejects.toThrow(/statement timeout/);
    // The connection serves again.
    expect(await core.read(() => core.q.value('SELECT 1'))).toBe(1);
  });

  it('gives bigint columns as numbers', async () => {
    const core = await openCore(await newDatabase('pool_bigint'));
    expect(await core.q.value('SELECT 9007199254740991::bigint')).toBe(Number.MAX_SAFE_INTEGER);
    expect(await core.q.value('SELECT count(*) FROM customers')).toBe(0);
  });
});

describe('a server stopped and started again', () => {
  it('is served again by the same store, without a restart', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'sandbox-pg-restart-'));
    const port = await freePort();
    const server = new EmbeddedPostgres({
      databaseDir: dataDir,
      port,
      user: 'postgres',
      password: 'restart',
      authMethod: 'scram-sha-256',
      persistent: true,
      createPostgresUser: userInfo().uid === 0,
      initdbFlags: ['--encoding=UTF8', '--no-sync'],
      postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'fsync=off'],
      onLog: () => {},
      onError: () => {},
    });
    await server.initialise();
    await server.start();
    try {
      const core = await openCore(`postgres://postgres:restart@127.0.0.1:${port}/postgres`);
      await core.transaction(() => core.clock.advance('dev', 60));
      expect(await core.read(() => core.clock.offsetSeconds('dev'))).toBe(60);

      await server.stop();
      await expect(core.read(() => core.clock.offsetSeconds('dev'))).rejects.toThrow();
      await server.start();

      expect(await core.read(() => core.clock.offsetSeconds('dev'))).toBe(60);
      await core.transaction(() => core.clock.advance('dev', 60));
      expect(await core.read(() => core.clock.offsetSeconds('dev'))).toBe(120);
      await core.close();
    } finally {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
