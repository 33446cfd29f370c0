// The customers (users) of each sales channel, each with its business id: the id the list of
// payment sessions' `search` matches as the "user business id". A customer is known by its key
// (domain/provisioning.ts customerKeyOf: the email, lower-cased, or the session or request that
// named none); the business id is minted the first time the key is seen, and never changes.
import type { Db } from './database.js';

export function customersRepository(db: Db) {
  const get = db.prepare('SELECT business_id FROM customers WHERE channel = ? AND customer_key = ?').pluck();
  const insert = db.prepare('INSERT INTO customers (channel, customer_key, business_id) VALUES (?, ?, ?)');
  return {
    /** The business id of the channel's customer with this key, minted by `mint` when the key is new. */
    businessIdOf(channel: string, customerKey: string, mint: () => string): string {
      const known = get.get(channel, customerKey) as string | undefined;
      if (known !== undefined) return known;
      const minted = mint();
      insert.run(channel, customerKey, minted);
      return minted;
    },
  };
}
