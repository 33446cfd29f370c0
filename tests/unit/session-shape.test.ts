// Stored session documents carry the version of their shape. A database written by the previous
// version of the sandbox (its schema, and documents without a version) opens, its sessions read
// back in the current shape, and they are stored in that shape at their next write.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SESSION_SHAPE_VERSION, upgradeSession } from '../../src/sandbox/domain/session-shape.js';
import { buildSandbox } from '../../src/sandbox/http/app.js';
import { migrate, openDatabase } from '../../src/sandbox/store/database.js';
import { createStore } from '../../src/sandbox/store/index.js';
import { MIGRATIONS } from '../../src/sandbox/store/migrations.js';
import { documentViolations } from '../../testkit/sandbox.js';
import { sqliteBackend } from '../../src/sandbox/store/sqlite-backend.js';

const legacy = readFileSync(new URL('./fixtures/session-shape-1.json', import.meta.url), 'utf8');
const KEY = { 'x-service-api-key': 'sandbox-dev-key' };

/** A database as the previous version left it: schema versions 1 and 2, one unstamped session. */
function previousVersionDatabase() {
  const db = openDatabase(
    ':memory:',
    MIGRATIONS.filter((m) => m.version <= 2),
  );
  const { id, channel, created_at: createdAt, idempotency_key: key } = JSON.parse(legacy) as Record<string, string>;
  db.prepare(
    'INSERT INTO payment_sessions (id, channel, created_at, idempotency_key, document) VALUES (?, ?, ?, ?, ?)',
  ).run(id, channel, createdAt, key, legacy);
  return { db, id: id! };
}

describe('stored session shapes', () => {
  it('upgrades an unstamped document: items gain disputed, lose refunded_quantity, and the customer is kept', () => {
    const session = upgradeSession(JSON.parse(legacy));
    expect(session.shape_version).toBe(SESSION_SHAPE_VERSION);
    expect(session.items.map((i) => [i.disputed, 'refunded_quantity' in i])).toEqual([
      [0, false],
      [0, false],
    ]);
    expect({ email: session.customer_email, name: session.customer_name }).toEqual({
      email: 'Jane.Doe@example.com',
      name: 'Jane Doe',
    });
  });

  it('refuses a document written by a newer sandbox rather than misread it', () => {
    expect(() => upgradeSession({ ...JSON.parse(legacy), shape_version: SESSION_SHAPE_VERSION + 1 })).toThrow(
      /newer sandbox/,
    );
  });

  it('serves a database written by the previous version, and writes its sessions back in the current shape', async () => {
    const { db, id } = previousVersionDatabase();
    migrate(db, MIGRATIONS);
    const app = buildSandbox({ store: sqliteBackend(createStore(db)) });
    try {
      const detail = await app.inject({ method: 'GET', url: `/payments/v1/payment_session/${id}`, headers: KEY });
      expect(detail.statusCode).toBe(200);
      expect(documentViolations('GET', `/payments/v1/payment_session/${id}`, 200, detail.json())).toEqual([]);
      expect(detail.json()).toMatchObject({
        status: 'captured',
        status_summary: 'Partially Refunded',
        capture_amount: 6000,
      });
      expect(detail.json().order_items.map((i: { total_refundable: number }) => i.total_refundable)).toEqual([
        3499, 1501,
      ]);

      const listed = await app.inject({
        method: 'GET',
        url: '/payments/v1/payment_sessions?search=jane.doe&status=captured',
        headers: KEY,
      });
      expect(listed.json().payment_sessions.map((s: { id: string }) => s.id)).toEqual([id]);

      const refund = await app.inject({
        method: 'POST',
        url: '/payments/v1/refund',
        headers: { ...KEY, 'content-type': 'application/json' },
        payload: { payment_id: id, amount: 500, idempotency_key: 'rf-2', reason: 'customer_request' },
      });
      expect(refund.statusCode).toBe(200);
      const stored = JSON.parse(
        db.prepare('SELECT document FROM payment_sessions WHERE id = ?').pluck().get(id) as string,
      );
      expect(stored.shape_version).toBe(SESSION_SHAPE_VERSION);
      expect(stored.items[0]).not.toHaveProperty('refunded_quantity');
    } finally {
      await app.close();
      db.close();
    }
  });
});
