// A released migration is frozen: it runs the SQL and the code of migrations.ts as they shipped,
// not today's repositories or renderings (which later versions change), so the module imports
// nothing of the store or the domain. What the frozen backfills write is checked on a database
// the first version left.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildSandbox } from '../../src/sandbox/http/app.js';
import { migrate, openDatabase } from '../../src/sandbox/store/database.js';
import { createStore } from '../../src/sandbox/store/index.js';
import { MIGRATIONS } from '../../src/sandbox/store/migrations.js';
import { sqliteBackend } from '../../src/sandbox/store/sqlite-backend.js';

const legacy = readFileSync(new URL('./fixtures/session-shape-1.json', import.meta.url), 'utf8');

describe('the migrations', () => {
  it('import nothing but node:crypto and the database type', () => {
    const source = readFileSync(new URL('../../src/sandbox/store/migrations.ts', import.meta.url), 'utf8');
    const imports = [...source.matchAll(/^import\s+(type\s+)?[^;]*?from\s+'([^']+)'/gm)].map(
      (m) => `${m[1] ? 'type ' : ''}${m[2]}`,
    );
    expect(imports).toEqual(['node:crypto', 'type ./db.js']);
  });

  it('give a session of the first shape, whose customer is in its request, a business id, searchable and shown', async () => {
    const db = openDatabase(
      ':memory:',
      MIGRATIONS.filter((m) => m.version <= 2),
    );
    const { id, channel, created_at: createdAt, idempotency_key: key } = JSON.parse(legacy) as Record<string, string>;
    db.prepare(
      'INSERT INTO payment_sessions (id, channel, created_at, idempotency_key, document) VALUES (?, ?, ?, ?, ?)',
    ).run(id, channel, createdAt, key, legacy);
    migrate(db, MIGRATIONS);
    const row = db
      .prepare(
        'SELECT email_search, name_search, user_business_id, list_view_version, document FROM payment_sessions WHERE id = ?',
      )
      .get(id) as Record<string, string | null>;
    expect({ email: row.email_search, name: row.name_search }).toEqual({
      email: 'jane.doe@example.com',
      name: 'jane doe',
    });
    expect(row.user_business_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.parse(row.document!).user_business_id).toBe(row.user_business_id);
    expect(
      db.prepare("SELECT business_id FROM customers WHERE customer_key = 'jane.doe@example.com'").pluck().get(),
    ).toBe(row.user_business_id);
    const app = buildSandbox({ store: sqliteBackend(createStore(db)) });
    try {
      const listed = await app.inject({
        url: `/payments/v1/payment_sessions?search=${row.user_business_id}`,
        headers: { 'x-service-api-key': 'sandbox-dev-key' },
      });
      expect(
        listed.json().payment_sessions.map((s: { id: string; user_business_id: string }) => [s.id, s.user_business_id]),
      ).toEqual([[id, row.user_business_id]]);
    } finally {
      await app.close();
      db.close();
    }
  });
});
