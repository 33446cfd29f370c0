// Migration 7 on a database written before it: tokens issued by tokenize=true sessions keep working,
// numbered in creation order, counted, searchable and listed.
import { describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../../src/sandbox/store/database.js';
import { createStore } from '../../src/sandbox/store/index.js';
import { MIGRATIONS } from '../../src/sandbox/store/migrations.js';

describe('migration 7: payment tokens, provision requests, letters, the catalog', () => {
  it('carries the tokens of version 6 over: listed newest first, counted, filtered by email', () => {
    const db = openDatabase(
      ':memory:',
      MIGRATIONS.filter((m) => m.version <= 6),
    );
    const insert =
      db.prepare(`INSERT INTO payment_tokens (token, channel, session_id, status, next_action, created_at, customer_email, customer_name)
      VALUES (?, 'dev', NULL, ?, NULL, ?, ?, ?)`);
    insert.run('ptok_old', 'active', '2026-01-01T00:00:00.000Z', 'Old.Customer@example.com', 'Old Customer');
    insert.run('ptok_new', 'active', '2026-02-01T00:00:00.000Z', null, null);
    insert.run('ptok_gone', 'deleted', '2026-03-01T00:00:00.000Z', 'gone@example.com', null);
    migrate(db, MIGRATIONS);
    const store = createStore(db);
    const page = store.tokens.list('dev', {}, { offset: 0, limit: 10 });
    expect(page.tokens.map((t) => t.token)).toEqual(['ptok_new', 'ptok_old']);
    expect(page.count).toBe(2);
    expect(
      store.tokens.list('dev', { email: 'old.customer' }, { offset: 0, limit: 10 }).tokens.map((t) => t.token),
    ).toEqual(['ptok_old']);
    expect(store.tokens.get('dev', 'ptok_old')).toMatchObject({
      customer_key: 'old.customer@example.com',
      card_last4: '4242',
      card_expires: '9999-12',
    });
    // A token issued after the migration follows the old ones.
    store.tokens.insert({ ...store.tokens.get('dev', 'ptok_new')!, token: 'ptok_newest' });
    expect(store.tokens.list('dev', {}, { offset: 0, limit: 1 }).tokens.map((t) => t.token)).toEqual(['ptok_newest']);
    db.close();
  });
});
