// What /health and /ready answer (http/probes.ts) beyond the cases of probes.test.ts: the body of
// /health, an app that no server runs is not stopping, a database whose schema is older than the
// sandbox's is named as behind, and a database that does not answer keeps its own error as the cause.
import { afterEach, describe, expect, it } from 'vitest';
import { buildSandbox } from '../../src/sandbox/http/app.js';
import { openDatabase } from '../../src/sandbox/store/database.js';
import { createStore } from '../../src/sandbox/store/index.js';
import { MIGRATIONS } from '../../src/sandbox/store/migrations.js';
import { sqliteBackend } from '../../src/sandbox/store/sqlite-backend.js';

const newest = Math.max(...MIGRATIONS.map((m) => m.version));
const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A sandbox built as a test builds one: no lifecycle given. */
function sandbox() {
  const db = openDatabase(':memory:');
  const app = buildSandbox({ store: sqliteBackend(createStore(db)) });
  closers.push(async () => {
    await app.close();
    if (db.open) db.close();
  });
  return { app, db };
}

describe('/health', () => {
  it('answers {"status":"ok"}', async () => {
    const response = await sandbox().app.inject({ method: 'GET', url: '/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });
});

describe('an app built without a lifecycle', () => {
  it('is not stopping: /ready answers 200 and no answer closes its connection', async () => {
    const { app } = sandbox();
    const ready = await app.inject({ method: 'GET', url: '/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.headers.connection).not.toBe('close');
    expect((await app.inject({ method: 'GET', url: '/health' })).headers.connection).not.toBe('close');
  });
});

describe('/ready', () => {
  it('answers 503 when the database is behind this sandbox, and says it is behind rather than to update', async () => {
    const { app, db } = sandbox();
    db.prepare('DELETE FROM schema_migrations WHERE version = ?').run(newest);
    const response = await app.inject({ method: 'GET', url: '/ready' });
    expect(response.statusCode).toBe(503);
    const { message } = response.json() as { message: string };
    expect(message).toContain(`version ${newest - 1}, and this sandbox writes by version ${newest}: it is behind.`);
    expect(message).not.toContain('update this one');
  });

  it("keeps the database's own error as the cause of its 503, for an error hook to tell why", async () => {
    const { app, db } = sandbox();
    const seen: Error[] = [];
    app.addHook('onError', async (_request, _reply, error) => {
      seen.push(error);
    });
    await app.ready();
    db.close();
    const response = await app.inject({ method: 'GET', url: '/ready' });
    expect(response.statusCode).toBe(503);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.cause).toBeInstanceOf(Error);
    expect((seen[0]!.cause as Error).message).toMatch(/database connection is not open/);
  });
});
