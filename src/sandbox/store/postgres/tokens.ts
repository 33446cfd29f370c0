// Payment tokens: the twin of ../tokens.ts. Lists are in token-list.ts.
//
// seq follows creation, strictly, so that newest-first order never depends on timestamps alone: the
// table's identity (schema.ts), drawn in the order the writes commit since the store's write lock
// (pg_advisory_xact_lock) serializes every process's writes, as SQLite's one writer does; SQLite's
// MAX(seq) + 1 orders them the same way.
import type { Card } from '../../domain/cards.js';
import type { PaymentTokenRecord as TokenRecord, TokenAction, TokenStatus } from '../../domain/types.js';
import { named } from './named-sql.js';
import type { PgQueries } from './queries.js';

const COLUMNS = [
  'token',
  'channel',
  'session_id',
  'status',
  'next_action',
  'created_at',
  'customer_email',
  'customer_name',
  'customer_key',
  'user_business_id',
  'card_brand',
  'card_last4',
  'card_expires',
  'lmn_expires_at',
  'provision_request_id',
  'metadata',
  'success_url',
  'failure_url',
] as const;

const INSERT = `INSERT INTO payment_tokens (${COLUMNS.join(', ')}, email_search, name_search)
  VALUES (${COLUMNS.map((c) => `@${c}`).join(', ')}, @email_search, @name_search)`;
const SELECT = `SELECT ${COLUMNS.join(', ')} FROM payment_tokens`;

export function tokensRepository(q: PgQueries) {
  return {
    async insert(record: TokenRecord): Promise<void> {
      // Lower-cased here, by JavaScript, as in SQLite: the filters fold all of Unicode the same way.
      const row: Record<string, unknown> = {
        user_business_id: null,
        ...record,
        email_search: record.customer_email?.toLowerCase() ?? null,
        name_search: record.customer_name?.toLowerCase() ?? null,
      };
      await q.run(...named(INSERT, row));
    },
    get: async (channel: string, token: string): Promise<TokenRecord | undefined> =>
      (await q.one(`${SELECT} WHERE channel = $1 AND token = $2`, [channel, token])) as TokenRecord | undefined,
    /** Any channel's token: only for the customer's hosted pages, which carry no API key. */
    getForCustomer: async (token: string): Promise<TokenRecord | undefined> =>
      (await q.one(`${SELECT} WHERE token = $1`, [token])) as TokenRecord | undefined,
    /** The customer's first active token on the channel, if they have one. */
    activeOf: async (channel: string, customerKey: string): Promise<string | undefined> =>
      q.value<string>(
        "SELECT token FROM payment_tokens WHERE channel = $1 AND customer_key = $2 AND status = 'active' " +
          'ORDER BY seq LIMIT 1',
        [channel, customerKey],
      ),
    async setStatus(channel: string, token: string, status: TokenStatus): Promise<void> {
      await q.run('UPDATE payment_tokens SET status = $1 WHERE channel = $2 AND token = $3', [status, channel, token]);
    },
    async setNextAction(channel: string, token: string, action: TokenAction | null): Promise<void> {
      await q.run('UPDATE payment_tokens SET next_action = $1 WHERE channel = $2 AND token = $3', [
        action,
        channel,
        token,
      ]);
    },
    async setCard(channel: string, token: string, card: Card): Promise<void> {
      await q.run(
        'UPDATE payment_tokens SET card_brand = $1, card_last4 = $2, card_expires = $3 WHERE channel = $4 AND token = $5',
        [card.brand, card.last4, card.expires, channel, token],
      );
    },
    /** The customer's letters changed: every token of theirs shows the same letter expiry. */
    async setLetterExpiry(channel: string, customerKey: string, expiresOn: string | null): Promise<void> {
      await q.run('UPDATE payment_tokens SET lmn_expires_at = $1 WHERE channel = $2 AND customer_key = $3', [
        expiresOn,
        channel,
        customerKey,
      ]);
    },
  };
}
