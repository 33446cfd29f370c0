// Several sandbox processes started at once on an empty PostgreSQL database (--db postgres://…):
// every one starts, the migrations run once (the advisory lock of store/postgres/migrate.ts), and a
// session created through one is read through the others.
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { STORE_MIGRATIONS } from '../../src/sandbox/store/postgres/index.js';
import { type SandboxGroup, startSandboxProcesses } from '../../testkit/sandbox-processes.js';
import { testDatabase } from '../support/postgres-database.js';
import { call, createSession, sessionPath } from './sandboxes-support.js';

let group: SandboxGroup | undefined;
afterAll(async () => {
  await group?.stop();
});

describe('three sandboxes started together on an empty database', () => {
  it('all start, and each migration is applied once', async () => {
    const url = await testDatabase('start_three');
    const started = performance.now();
    group = await startSandboxProcesses(3, url, { timeoutMs: 60_000 });
    const seconds = (performance.now() - started) / 1000;
    console.log(`three sandboxes started on an empty database in ${seconds.toFixed(2)} s`);
    expect(group.sandboxes).toHaveLength(3);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query('SELECT version FROM schema_migrations ORDER BY version');
      expect(rows.map((row) => row.version)).toEqual(STORE_MIGRATIONS.map((m) => m.version).sort((a, b) => a - b));
    } finally {
      await client.end();
    }
  });

  it('a session created through one is read through each', async () => {
    const [a] = group!.sandboxes;
    const id = await createSession(a!);
    for (const sandbox of group!.sandboxes) {
      const reply = await call(sandbox, 'GET', sessionPath(id));
      expect(reply.status).toBe(200);
      expect(reply.body.id).toBe(id);
    }
  });
});
