// Payment tokens the sandbox issued (tokenize=true sessions), with the action a helper may require.
import type { Db } from './database.js';

export type TokenStatus = 'pending_checkout' | 'active' | 'deleted';
export type TokenAction = 'UpdatePaymentMethod' | 'TakeHealthSurvey';

export interface TokenRecord {
  token: string;
  channel: string;
  session_id: string | null;
  status: TokenStatus;
  next_action: TokenAction | null;
  created_at: string;
}

export function tokensRepository(db: Db) {
  const insert = db.prepare('INSERT INTO payment_tokens (token, channel, session_id, status, next_action, created_at) VALUES (@token, @channel, @session_id, @status, @next_action, @created_at)');
  const get = db.prepare('SELECT * FROM payment_tokens WHERE channel = ? AND token = ?');
  const setStatus = db.prepare('UPDATE payment_tokens SET status = ? WHERE channel = ? AND token = ?');
  const setAction = db.prepare('UPDATE payment_tokens SET next_action = ? WHERE channel = ? AND token = ?');
  return {
    insert(record: TokenRecord): void {
      insert.run(record);
    },
    get(channel: string, token: string): TokenRecord | undefined {
      return get.get(channel, token) as TokenRecord | undefined;
    },
    setStatus(channel: string, token: string, status: TokenStatus): void {
      setStatus.run(status, channel, token);
    },
    setNextAction(channel: string, token: string, action: TokenAction | null): boolean {
      return setAction.run(action, channel, token).changes > 0;
    },
  };
}
