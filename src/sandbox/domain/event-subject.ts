// What a webhook event is about: the id of its object, read from its data. A session's event names
// it by `payment_id`, a token's by `payment_token`, a dispute's by `dispute_id`, a catalog item's by
// `object.sku`. The outbox orders each endpoint's deliveries by it; a listener shows it per attempt.

/** The id of the event's object; undefined for an event about none (the evolution drill's). */
export function eventObjectId(data: unknown): string | undefined {
  const fields = (data ?? {}) as {
    payment_id?: unknown;
    payment_token?: unknown;
    dispute_id?: unknown;
    object?: { sku?: unknown } | null;
  };
  const id = fields.dispute_id ?? fields.payment_id ?? fields.payment_token ?? fields.object?.sku;
  return typeof id === 'string' ? id : undefined;
}
