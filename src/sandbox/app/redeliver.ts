// Sending an outbox event again by hand: the helper (POST /sandbox/v1/outbox/{event_id}/redeliver)
// and the dashboard's Resend both run this, inside the caller's transaction, and answer the same.
import { notFound, quoted } from '../domain/errors.js';
import type { SandboxStore } from '../store/store.js';

/** What a redelivery answers: the event, its webhook_delivery_id (unchanged), and how many deliveries it queued. */
export interface Redelivery {
  event_id: string;
  webhook_delivery_id: string;
  deliveries: number;
}

/** Queues the channel's event `eventId` again for every endpoint subscribed to it now, or NotFound. */
export async function redeliverEvent(
  store: SandboxStore,
  context: { channel: string; now: string },
  eventId: string,
): Promise<Redelivery> {
  const outboxId = /^[0-9]{1,15}$/.test(eventId) ? Number(eventId) : NaN;
  const queued = Number.isNaN(outboxId)
    ? undefined
    : await store.outbox.redeliver(context.channel, outboxId, context.now);
  if (queued === undefined) throw notFound(`No outbox event ${quoted(eventId)}.`);
  const event = (await store.outbox.list(context.channel, { after: outboxId - 1, limit: 1 })).events[0]!;
  return { event_id: eventId, webhook_delivery_id: event.payload.webhook_delivery_id, deliveries: queued };
}
