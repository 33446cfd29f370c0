// Provision token requests, stored as documents with the columns that find them: by idempotency
// key, by customer (a letter awaiting the clinician), by token (an open request to reuse).
import type { ProvisionRequest } from '../domain/provisioning.js';
import type { Db } from './database.js';

export function provisionRequestsRepository(db: Db) {
  const insert = db.prepare(
    `INSERT INTO provision_requests (id, channel, idempotency_key, customer_key, payment_token, ` +
      `status, document)
    VALUES (@id, @channel, @idempotency_key, @customer_key, @payment_token, @status, @document)`,
  );
  const update = db.prepare(
    'UPDATE provision_requests SET payment_token = @payment_token, status = @status, document = @document WHERE ' +
      'id = @id',
  );
  const get = db.prepare('SELECT document FROM provision_requests WHERE channel = ? AND id = ?').pluck();
  const getAnywhere = db.prepare('SELECT document FROM provision_requests WHERE id = ?').pluck();
  const byKey = db.prepare('SELECT document FROM provision_requests WHERE channel = ? AND idempotency_key = ?').pluck();
  const awaitingLetter = db
    .prepare(
      "SELECT 1 FROM provision_requests WHERE channel = ? AND customer_key = ? AND status = 'awaiting_letter' LIMIT 1",
    )
    .pluck();
  const openForToken = db
    .prepare(
      'SELECT document FROM provision_requests WHERE channel = ? AND payment_token = ? AND status IN ' +
        "('awaiting_customer', 'awaiting_letter')",
    )
    .pluck();
  const columns = (request: ProvisionRequest) => ({
    id: request.id,
    channel: request.channel,
    idempotency_key: request.idempotency_key ?? null,
    customer_key: request.customer_key,
    payment_token: request.payment_token ?? null,
    status: request.status,
    document: JSON.stringify(request),
  });
  const read = (text: unknown) => (text === undefined ? undefined : (JSON.parse(text as string) as ProvisionRequest));
  return {
    insert: (request: ProvisionRequest) => void insert.run(columns(request)),
    update: (request: ProvisionRequest) => void update.run(columns(request)),
    get: (channel: string, id: string) => read(get.get(channel, id)),
    /** Any channel's request: only for the customer's hosted pages, which carry no API key. */
    getForCustomer: (id: string) => read(getAnywhere.get(id)),
    findByIdempotencyKey: (channel: string, key: string) => read(byKey.get(channel, key)),
    /** Whether a letter of the customer awaits the clinician (create payment token: WaitingForVerification). */
    hasLetterAwaited: (channel: string, customerKey: string) => awaitingLetter.get(channel, customerKey) !== undefined,
    /** The requests of a token that still await the customer or the clinician. */
    openForToken: (channel: string, token: string) =>
      (openForToken.all(channel, token) as string[]).map((text) => read(text)!),
  };
}
