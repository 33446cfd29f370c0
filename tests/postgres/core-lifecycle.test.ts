// The PostgreSQL store's core as it opens and closes (store/postgres/core.ts): a start that cannot
// migrate fails with the reason and leaves the database as it was, the connection the migrations
// ran on serves the next caller as a fresh one would, and a closed core serves no one.
import { describe, expect, it } from 'vitest';
import { CORE_MIGRATIONS, openPostgresCore } from '../../src/sandbox/store/postgres/core.js';
import { freePort } from '../../testkit/processes.js';
import { newDatabase, openCore } from './core-support.js';

const BROKEN = { version: CORE_MIGRATIONS.length + 1, description: 'broken', sql: 'SELECT * FROM no_such_table' };

describe('opening the core', () => {
  it('fails with the migration that failed, and leaves the database for a start that can migrate it', async () => {
    const url = await newDatabase('life_broken_migration');
    await expect(openPostgresCore(url, { migrations: [...CORE_MIGRATIONS, BROKEN] })).rejects.toThrow(/no_such_table/);
    const core = await openCore(url);
    expect(await core.q.column('SELECT version FROM schema_migrations ORDER BY version')).toEqual(
      CORE_MIGRATIONS.map((migration) => migration.version),
    );
  });

  it('fails when no server answers', async () => {
    const url = `postgres://postgres:none@127.0.0.1:${await freePort()}/postgres`;
    await expect(openPostgresCore(url)).rejects.toThrow();
  });

  it('hands the connection the migrations ran on back with no listener of theirs left on it', async () => {
    const core = await openCore(await newDatabase('life_listener'));
    // The pool's one connection, the migrations', now serves this read, which listens for its loss itself.
    const listening = await core.read(async () => core.transactions.client()!.listenerCount('error'));
    expect(listening).toBe(1);
  });
});

describe('closing the core', () => {
  it('leaves it closed, serving no statement, and closing it again does nothing', async () => {
    const core = await openCore(await newDatabase('life_close'));
    expect(core.isOpen()).toBe(true);
    expect(await core.q.value('SELECT 1')).toBe(1);
    await core.close();
    expect(core.isOpen()).toBe(false);
    await expect(core.q.value('SELECT 1')).rejects.toThrow();
    await expect(core.close()).resolves.toBeUndefined();
  });
});
