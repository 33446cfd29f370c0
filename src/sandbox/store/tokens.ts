// Payment tokens the sandbox issued (tokenize=true sessions), with the action a helper may require.
import type { PaymentTokenRecord as TokenRecord, TokenAction, TokenStatus } from '../domain/types.js';
import type { Db } from './database.js';

export function tokensRepository(db: Db) {
  const insert = db.prepare(`INSERT INTO payment_tokens (token, channel, session_id, status, next_action, created_at, customer_email, customer_name)
    VALUES (@token, @channel, @session_id, @status, @next_action, @created_at, @customer_email, @customer_name)`);
  const get = db.prepare('SELECT * FROM payment_tokens WHERE channel = ? AND token = ?');
  const getAnywhere = db.prepare('SELECT * FROM payment_tokens WHERE token = ?');
  const setStatus = db.prepare('UPDATE payment_tokens SET status = ? WHERE channel = ? AND token = ?');
  const setAction = db.prepare('UPDATE payment_tokens SET next_action = ? WHERE channel = ? AND token = ?');
  return {
    insert(record: TokenRecord): void {
      insert.run(record);
    },
    get(channel: string, token: string): TokenRecord | undefined {
      return get.get(channel, token) as TokenRecord | undefined;
    },
    /** Any channel's token: only for the customer's hosted pages, which carry no API key. */
    getForCustomer(token: string): TokenRecord | undefined {
      return getAnywhere.get(token) as TokenRecord | undefined;
    },
    setStatus(channel: string, token: string, status: TokenStatus): void {
      setStatus.run(status, channel, token);
    },
    setNextAction(channel: string, token: string, action: TokenAction | null): boolean {
      return setAction.run(action, channel, token).changes > 0;
    },
  };
}
