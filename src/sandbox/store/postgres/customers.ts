// The customers of each sales channel and their business ids (../customers.ts): minted the first
// time a key is seen, never changed.
import type { PgQueries } from './queries.js';

export function customersRepository(q: PgQueries) {
  return {
    /**
     * The business id of the channel's customer with this key, minted by `mint` when the key is new.
     * Read then inserted under the write lock (transactions.ts): two sandboxes never mint two ids for
     * one key. Outside a write the insert would be a transaction of its own, and a key minted
     * meanwhile by another sandbox would fail it on the primary key rather than be given two ids.
     */
    async businessIdOf(channel: string, customerKey: string, mint: () => string): Promise<string> {
      const known = await q.value<string>(
        'SELECT business_id FROM customers WHERE channel = $1 AND customer_key = $2',
        [channel, customerKey],
      );
      if (known !== undefined) return known;
      const minted = mint();
      await q.run('INSERT INTO customers (channel, customer_key, business_id) VALUES ($1, $2, $3)', [
        channel,
        customerKey,
        minted,
      ]);
      return minted;
    },
  };
}
