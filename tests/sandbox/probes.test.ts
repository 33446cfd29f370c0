// /health and /ready, as a load balancer asks them (no key): /health says the process is alive,
// /ready whether it should be sent requests: its database answers, the schema is the one this
// sandbox writes by, and it is not stopping. While it stops, every answer closes its connection.
import { afterEach, describe, expect, it } from 'vitest';
import { buildSandbox } from '../../src/sandbox/http/app.js';
import { SANDBOX_FILE } from '../../src/sandbox/http/document.js';
import { loadDocument, violations } from '../../testkit/contract.js';
import { openDatabase } from '../../src/sandbox/store/database.js';
import { createStore } from '../../src/sandbox/store/index.js';
import { MIGRATIONS } from '../../src/sandbox/store/migrations.js';
import { sqliteBackend } from '../../src/sandbox/store/sqlite-backend.js';

const newest = Math.max(...MIGRATIONS.map((m) => m.version));
const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

function sandbox() {
  const db = openDatabase(':memory:');
  let stopping = false;
  const app = buildSandbox({ store: sqliteBackend(createStore(db)), lifecycle: { stopping: () => stopping } });
  closers.push(async () => {
    await app.close();
    if (db.open) db.close();
  });
  return { app, db, stop: () => (stopping = true) };
}

describe('/ready', () => {
  it('answers 200 with the schema version when the database answers and its schema is current, without a key', async () => {
    const { app } = sandbox();
    const response = await app.inject({ method: 'GET', url: '/ready' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ready', schema_version: newest });
  });

  it('answers 503 ServiceUnavailable with Retry-After once the sandbox is stopping, while /health still answers 200', async () => {
    const { app, stop } = sandbox();
    stop();
    const response = await app.inject({ method: 'GET', url: '/ready' });
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('2');
    expect(response.json()).toEqual({ error: 'ServiceUnavailable', message: expect.stringMatching(/stopping/) });
    // The sandbox's own error, as its document lists it.
    expect(
      violations({ $ref: '#/components/schemas/SandboxError' }, response.json(), loadDocument(SANDBOX_FILE)),
    ).toEqual([]);
    expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
  });

  it('answers 503 when a newer sandbox has migrated the database since this one started, and names both versions', async () => {
    const { app, db } = sandbox();
    db.prepare('INSERT INTO schema_migrations (version, description, applied_at) VALUES (?, ?, ?)').run(
      newest + 1,
      'a later version',
      new Date().toISOString(),
    );
    const response = await app.inject({ method: 'GET', url: '/ready' });
    expect(response.statusCode).toBe(503);
    expect(response.json().message).toContain(`version ${newest + 1}, and this sandbox writes by version ${newest}`);
    expect(response.json().message).toContain('update this one');
  });

  it('answers 503 ServiceUnavailable, never 500, when the database does not answer', async () => {
    const { app, db } = sandbox();
    await app.ready();
    db.close();
    const response = await app.inject({ method: 'GET', url: '/ready' });
    expect(response.statusCode).toBe(503);
    expect(response.json().error).toBe('ServiceUnavailable');
    expect(response.headers['retry-after']).toBe('2');
  });
});

describe('while stopping', () => {
  it('every answer asks the client to close its connection, so that its next request goes to another sandbox', async () => {
    const { app, stop } = sandbox();
    const before = await app.inject({ method: 'GET', url: '/health' });
    expect(before.headers.connection).not.toBe('close');
    stop();
    for (const url of ['/health', '/openapi.json', '/payments/v1/payment_sessions']) {
      const response = await app.inject({ method: 'GET', url, headers: { 'x-service-api-key': 'sandbox-dev-key' } });
      expect(response.headers.connection, url).toBe('close');
    }
  });
});
