// Payment tokens: issued by tokenize=true sessions and by provision token requests, with their card,
// letter expiry and the action a charge must wait for. Lists live in token-list.ts.
import type { Card } from '../domain/cards.js';
import type { PaymentTokenRecord as TokenRecord, TokenAction, TokenStatus } from '../domain/types.js';
import type { Db } from './database.js';

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

export function tokensRepository(db: Db) {
  // seq follows creation, strictly, so that newest-first order never depends on timestamps alone.
  const insert = db.prepare(`INSERT INTO payment_tokens (${COLUMNS.join(', ')}, email_search, name_search, seq)
    VALUES (${COLUMNS.map((c) => `@${c}`).join(', ')}, @email_search, @name_search,
      (SELECT IFNULL(MAX(seq), 0) + 1 FROM payment_tokens))`);
  const select = `SELECT ${COLUMNS.join(', ')} FROM payment_tokens`;
  const get = db.prepare(`${select} WHERE channel = ? AND token = ?`);
  const getAnywhere = db.prepare(`${select} WHERE token = ?`);
  const activeOf = db
    .prepare(
      "SELECT token FROM payment_tokens WHERE channel = ? AND customer_key = ? AND status = 'active' ORDER BY seq " +
        'LIMIT 1',
    )
    .pluck();
  const setStatus = db.prepare('UPDATE payment_tokens SET status = ? WHERE channel = ? AND token = ?');
  const setAction = db.prepare('UPDATE payment_tokens SET next_action = ? WHERE channel = ? AND token = ?');
  const setCard = db.prepare(
    'UPDATE payment_tokens SET card_brand = @brand, card_last4 = @last4, card_expires = @expires WHERE channel = ' +
      '@channel AND token = @token',
  );
  const setLetter = db.prepare('UPDATE payment_tokens SET lmn_expires_at = ? WHERE channel = ? AND customer_key = ?');
  return {
    insert(record: TokenRecord): void {
      // Lower-cased here, not by SQLite's lower(), which folds ASCII only: the filters fold all of Unicode.
      insert.run({
        user_business_id: null,
        ...record,
        email_search: record.customer_email?.toLowerCase() ?? null,
        name_search: record.customer_name?.toLowerCase() ?? null,
      });
    },
    get(channel: string, token: string): TokenRecord | undefined {
      return get.get(channel, token) as TokenRecord | undefined;
    },
    /** Any channel's token: only for the customer's hosted pages, which carry no API key. */
    getForCustomer(token: string): TokenRecord | undefined {
      return getAnywhere.get(token) as TokenRecord | undefined;
    },
    /** The customer's first active token on the channel, if they have one. */
    activeOf(channel: string, customerKey: string): string | undefined {
      return activeOf.get(channel, customerKey) as string | undefined;
    },
    setStatus(channel: string, token: string, status: TokenStatus): void {
      setStatus.run(status, channel, token);
    },
    setNextAction(channel: string, token: string, action: TokenAction | null): void {
      setAction.run(action, channel, token);
    },
    setCard(channel: string, token: string, card: Card): void {
      setCard.run({ ...card, channel, token });
    },
    /** The customer's letters changed: every token of theirs shows the same letter expiry. */
    setLetterExpiry(channel: string, customerKey: string, expiresOn: string | null): void {
      setLetter.run(expiresOn, channel, customerKey);
    },
  };
}
