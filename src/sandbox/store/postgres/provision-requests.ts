// Provision token requests, stored as documents with the columns that find them: the twin of
// ../provision-requests.ts. findByIdempotencyKey and then insert, in one write transaction, have one
// effect however many processes create at once: the store's write lock (pg_advisory_xact_lock)
// serializes them, and the unique index on (channel, idempotency_key) is the backstop.
//
// seq is the PostgreSQL table's identity, standing for SQLite's hidden rowid: a token's open
// requests come in SQLite's order, by status and then as they were written (its index on (channel,
// payment_token, status) ends in the rowid), and the caller takes the first of each status.
import type { ProvisionRequest } from '../../domain/provisioning.js';
import { named } from './named-sql.js';
import type { PgQueries } from './queries.js';

const INSERT = `INSERT INTO provision_requests (id, channel, idempotency_key, customer_key, payment_token, status, document)
  VALUES (@id, @channel, @idempotency_key, @customer_key, @payment_token, @status, @document)`;
const UPDATE = `UPDATE provision_requests SET payment_token = @payment_token, status = @status, document = @document
  WHERE id = @id`;

export function provisionRequestsRepository(q: PgQueries) {
  const columns = (request: ProvisionRequest) => ({
    id: request.id,
    channel: request.channel,
    idempotency_key: request.idempotency_key ?? null,
    customer_key: request.customer_key,
    payment_token: request.payment_token ?? null,
    status: request.status,
    document: JSON.stringify(request),
  });
  const read = (text: string | undefined) => (text === undefined ? undefined : (JSON.parse(text) as ProvisionRequest));
  const document = async (sql: string, keys: string[]) => read(await q.value<string>(sql, keys));
  return {
    async insert(request: ProvisionRequest): Promise<void> {
      await q.run(...named(INSERT, columns(request)));
    },
    async update(request: ProvisionRequest): Promise<void> {
      await q.run(...named(UPDATE, columns(request)));
    },
    get: (channel: string, id: string) =>
      document('SELECT document FROM provision_requests WHERE channel = $1 AND id = $2', [channel, id]),
    /** Any channel's request: only for the customer's hosted pages, which carry no API key. */
    getForCustomer: (id: string) => document('SELECT document FROM provision_requests WHERE id = $1', [id]),
    findByIdempotencyKey: (channel: string, key: string) =>
      document('SELECT document FROM provision_requests WHERE channel = $1 AND idempotency_key = $2', [channel, key]),
    /** Whether a letter of the customer awaits the clinician (create payment token: WaitingForVerification). */
    hasLetterAwaited: async (channel: string, customerKey: string): Promise<boolean> =>
      (await q.value(
        "SELECT 1 FROM provision_requests WHERE channel = $1 AND customer_key = $2 AND status = 'awaiting_letter' LIMIT 1",
        [channel, customerKey],
      )) !== undefined,
    /** The requests of a token that still await the customer or the clinician. */
    openForToken: async (channel: string, token: string): Promise<ProvisionRequest[]> =>
      (
        await q.column<string>(
          'SELECT document FROM provision_requests WHERE channel = $1 AND payment_token = $2 AND status IN ' +
            `('awaiting_customer', 'awaiting_letter') ORDER BY status COLLATE "C", seq`,
          [channel, token],
        )
      ).map((text) => read(text)!),
  };
}
