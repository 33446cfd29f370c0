// What the PostgreSQL schema (store/postgres/schema.ts) keeps by itself, as the SQLite schema does:
// the counts of sessions, tokens and catalog items follow every write; seq numbers follow creation
// without the writer choosing them; idempotency keys are unique per channel; the outbox knows the
// session an event is about; text timestamps order as bytes; and a search by substring, or a page
// of a channel, is answered by an index.
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { migrate } from '../../src/sandbox/store/postgres/migrate.js';
import { testDatabase } from '../support/postgres-database.js';

let db: pg.Client;
beforeAll(async () => {
  db = new pg.Client({ connectionString: await testDatabase('schema') });
  await db.connect();
  await migrate(db);
});
afterAll(async () => {
  await db.end();
});

const rows = async (text: string, values: unknown[] = []) => (await db.query(text, values)).rows;

let next = 0;
/** A session row with what the columns need; `id` unique per call. */
async function insertSession(fields: { channel?: string; status?: string; kind?: string; email?: string } = {}) {
  const id = `ps_${++next}`;
  const [row] = await rows(
    `INSERT INTO payment_sessions (id, channel, created_at, document, kind, status, email_search)
     VALUES ($1, $2, $3, '{}', $4, $5, $6) RETURNING seq::int AS seq, id`,
    [
      id,
      fields.channel ?? 'dev',
      new Date(Date.UTC(2026, 0, 1, 0, 0, next)).toISOString(),
      fields.kind ?? 'authorization',
      fields.status ?? 'pending',
      fields.email ?? null,
    ],
  );
  return row as { seq: number; id: string };
}

describe('the counts kept by triggers', () => {
  beforeEach(async () => {
    await db.query(
      'TRUNCATE payment_sessions, session_counts, payment_tokens, token_counts, catalog_items, ' +
        'catalog_counts, disputes CASCADE',
    );
  });

  it('sessions per channel, status and kind follow each insert, status change and delete', async () => {
    const a = await insertSession({ channel: 'team-a' });
    await insertSession({ channel: 'team-a' });
    await insertSession({ channel: 'team-b', kind: 'capture' });
    await db.query("UPDATE payment_sessions SET status = 'captured' WHERE id = $1", [a.id]);
    await db.query('UPDATE payment_sessions SET document = \'{"x":1}\' WHERE id = $1', [a.id]);
    await db.query("DELETE FROM payment_sessions WHERE channel = 'team-b'");
    expect(await rows('SELECT channel, status, kind, n::int AS n FROM session_counts ORDER BY 1, 2, 3')).toEqual([
      { channel: 'team-a', status: 'captured', kind: 'authorization', n: 1 },
      { channel: 'team-a', status: 'pending', kind: 'authorization', n: 1 },
      { channel: 'team-b', status: 'pending', kind: 'capture', n: 0 },
    ]);
  });

  it('active tokens per channel follow a token becoming active, and leaving it', async () => {
    const token = (name: string, status: string) =>
      db.query(
        "INSERT INTO payment_tokens (token, channel, status, created_at) VALUES ($1, 'dev', $2, '2026-01-01T00:00:00Z')",
        [name, status],
      );
    await token('pt_1', 'active');
    await token('pt_2', 'pending_checkout');
    await token('pt_3', 'active');
    await db.query("UPDATE payment_tokens SET status = 'active' WHERE token = 'pt_2'");
    await db.query("UPDATE payment_tokens SET status = 'deleted' WHERE token = 'pt_1'");
    await db.query("UPDATE payment_tokens SET next_action = 'x' WHERE token = 'pt_3'");
    await db.query("DELETE FROM payment_tokens WHERE token = 'pt_3'");
    expect(await rows('SELECT channel, n::int AS n FROM token_counts')).toEqual([{ channel: 'dev', n: 1 }]);
  });

  it("catalog items per channel and eligibility, '' for the items awaiting review", async () => {
    const item = (sku: string, eligibility: string | null) =>
      db.query(
        "INSERT INTO catalog_items (channel, sku, product_id, eligibility, updated_at, document) VALUES ('dev', $1, " +
          "$1, $2, '2026-01-01T00:00:00Z', '{}')",
        [sku, eligibility],
      );
    await item('A', null);
    await item('B', null);
    await item('C', 'eligible');
    await db.query("UPDATE catalog_items SET eligibility = 'ineligible' WHERE sku = 'A'");
    await db.query("DELETE FROM catalog_items WHERE sku = 'C'");
    expect(await rows('SELECT eligibility, n::int AS n FROM catalog_counts ORDER BY 1')).toEqual([
      { eligibility: '', n: 1 },
      { eligibility: 'eligible', n: 0 },
      { eligibility: 'ineligible', n: 1 },
    ]);
  });
});

describe('the columns', () => {
  it('seq follows creation, numbered by the database, not the writer', async () => {
    const first = await insertSession();
    const second = await insertSession();
    expect(second.seq).toBeGreaterThan(first.seq);
  });

  it('an idempotency key is unique within its channel, not across channels', async () => {
    const insert = (id: string, channel: string) =>
      db.query(
        'INSERT INTO payment_sessions (id, channel, created_at, idempotency_key, document, kind, status) VALUES ($1, ' +
          "$2, '2026-01-01T00:00:00Z', 'key-1', '{}', 'authorization', 'pending')",
        [id, channel],
      );
    await insert('ps_idem_1', 'idem-a');
    await insert('ps_idem_2', 'idem-b');
    await expect(insert('ps_idem_3', 'idem-a')).rejects.toMatchObject({
      code: '23505',
      constraint: 'payment_sessions_idempotency_key',
    });
  });

  it("the outbox reads from each event's payload the payment session it is about", async () => {
    const event = (deliveryId: string, data: unknown) =>
      db.query(
        "INSERT INTO outbox (delivery_id, channel, event_type, payload, created_at) VALUES ($1, 'dev', 'x', $2, " +
          "'2026-01-01T00:00:00Z')",
        [deliveryId, JSON.stringify({ data })],
      );
    await event('wd_1', { payment_id: 'ps_a' });
    await event('wd_2', { payment: { order_id: 'ps_b' } });
    await event('wd_3', { payment_session_id: 'ps_c' });
    await event('wd_4', { sku: 'A' });
    expect(
      await rows("SELECT delivery_id, payment_session_id FROM outbox WHERE delivery_id LIKE 'wd_%' ORDER BY id"),
    ).toEqual([
      { delivery_id: 'wd_1', payment_session_id: 'ps_a' },
      { delivery_id: 'wd_2', payment_session_id: 'ps_b' },
      { delivery_id: 'wd_3', payment_session_id: 'ps_c' },
      { delivery_id: 'wd_4', payment_session_id: null },
    ]);
  });

  it('keeps the payload byte for byte, as it was signed', async () => {
    const payload = '{"b":1,  "a":"é"}';
    await db.query(
      "INSERT INTO outbox (delivery_id, channel, event_type, payload, created_at) VALUES ('wd_bytes', 'dev', 'x', $1, " +
        "'2026-01-01T00:00:00Z')",
      [payload],
    );
    expect(await rows("SELECT payload FROM outbox WHERE delivery_id = 'wd_bytes'")).toEqual([{ payload }]);
  });

  it('orders text timestamps and ids as bytes, as SQLite does, whatever the locale', async () => {
    const ordered = await rows(
      "SELECT v FROM (VALUES ('a-b'), ('a_b'), ('aB'), ('ab'), ('A.b')) AS t(v) ORDER BY v COLLATE \"C\"",
    );
    const { rows: columns } = await db.query(
      "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public' " +
        "AND column_name IN ('created_at', 'captured_at', 'updated_at', 'due_at', 'first_due_at', 'attempted_at') " +
        "AND collation_name IS DISTINCT FROM 'C'",
    );
    expect(ordered.map((r) => r.v)).toEqual(['A.b', 'a-b', 'aB', 'a_b', 'ab']);
    expect(columns).toEqual([]);
  });
});

describe('the indexes a query reads', () => {
  /** The plan of `text`, with the sequential scans a small table would take off. */
  async function plan(text: string, values: unknown[]): Promise<string> {
    await db.query('BEGIN');
    try {
      await db.query('SET LOCAL enable_seqscan = off');
      const { rows: lines } = await db.query(`EXPLAIN ${text}`, values);
      return lines.map((line) => line['QUERY PLAN']).join('\n');
    } finally {
      await db.query('ROLLBACK');
    }
  }

  it('a search by substring of id, email, name or user reads the trigram index, within its channel', async () => {
    // Enough sessions in the channel that reading them all would cost more than the index.
    await db.query(
      "INSERT INTO payment_sessions (id, channel, created_at, document, kind, status, email_search) SELECT 'ps_many_' " +
        "|| i, 'search', '2026-01-01T00:00:00Z', '{}', 'authorization', 'pending', 'user' || i || '@shop.test' " +
        'FROM generate_series(1, 5000) AS i',
    );
    await insertSession({ channel: 'search', email: 'ada@example.com' });
    // VACUUM moves the rows GIN keeps in its pending list into the index proper, as autovacuum
    // does: while that list is long, the planner prices the index above a scan.
    await db.query('VACUUM ANALYZE payment_sessions');
    const search =
      'SELECT seq FROM payment_sessions WHERE channel = $1 AND (id LIKE $2 OR email_search LIKE $2 OR ' +
      'name_search LIKE $2 OR user_business_id LIKE $2)';
    const searched = await plan(search, ['search', '%example%']);
    for (const column of ['id', 'email', 'name', 'user'])
      expect(searched).toContain(`payment_sessions_search_${column}`);
    expect(await rows(search, ['search', '%example%'])).toHaveLength(1);
    expect(await rows(search, ['dev', '%example%'])).toHaveLength(0);
  });

  it("a page of a channel's sessions, newest first, reads the (channel, seq) index", async () => {
    expect(
      await plan('SELECT id FROM payment_sessions WHERE channel = $1 ORDER BY seq DESC LIMIT 30', ['dev']),
    ).toContain('payment_sessions_channel_seq');
  });
});
