// A payment token's next action on the PostgreSQL store (store/postgres/tokens.ts): set, and
// cleared, on the one token named, as the SQLite store sets it.
import { afterEach, describe, expect, it } from 'vitest';
import type { PaymentTokenRecord } from '../../src/sandbox/domain/types.js';
import { createPostgresStore } from '../../src/sandbox/store/postgres/index.js';
import { testDatabase } from '../support/postgres-database.js';

type PostgresStore = Awaited<ReturnType<typeof createPostgresStore>>;

const stores: PostgresStore[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
});

const token = (name: string): PaymentTokenRecord => ({
  token: name,
  channel: 'dev',
  session_id: null,
  status: 'active',
  next_action: null,
  created_at: '2026-01-01T00:00:00.000Z',
  customer_email: 'jane@example.com',
  customer_name: 'Jane Doe',
  customer_key: 'jane@example.com',
  card_brand: 'visa',
  card_last4: '4242',
  card_expires: '2027-01',
  lmn_expires_at: null,
  provision_request_id: null,
  metadata: null,
  success_url: null,
  failure_url: null,
});

describe("a payment token's next action", () => {
  it('is set on the token named, and cleared again, leaving the other tokens as they were', async () => {
    const store = await createPostgresStore(await testDatabase('token_next_action'));
    stores.push(store);
    await store.tokens.insert(token('ptok_named'));
    await store.tokens.insert(token('ptok_other'));
    await store.tokens.setNextAction('dev', 'ptok_named', 'TakeHealthSurvey');
    expect((await store.tokens.get('dev', 'ptok_named'))?.next_action).toBe('TakeHealthSurvey');
    expect((await store.tokens.get('dev', 'ptok_other'))?.next_action).toBeNull();
    await store.tokens.setNextAction('dev', 'ptok_named', null);
    expect((await store.tokens.get('dev', 'ptok_named'))?.next_action).toBeNull();
  });
});
