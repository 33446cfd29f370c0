// Queuing webhook events in the outbox, in the request's transaction: an event is queued exactly
// when the change that fired it commits, and the delivery worker (src/sandbox/delivery/) sends it.
import type { DomainEvent } from '../domain/types.js';
import { deliveryId, type IdSource } from '../ids.js';
import type { SandboxStore } from '../store/store.js';

/** What every write needs from its request: the channel written to, its clock, and where ids come from. */
export interface WriteContext {
  channel: string;
  now: string;
  ids: IdSource;
}

export async function queueEvents(store: SandboxStore, context: WriteContext, events: DomainEvent[]): Promise<void> {
  // Stored as fired, whatever the evolution drill: it shapes a delivery as it is sent. Under it,
  // each event is followed by the drill's event of an unknown type, with a delivery id of its own.
  const drill = (await store.drill.get(context.channel)).enabled;
  // The delivery ids are fixed now, so that every retry of an event carries the same one.
  for (const event of events) {
    const followUp = drill ? deliveryId(context.ids) : undefined;
    await store.outbox.enqueue(context.channel, event, context.now, deliveryId(context.ids), followUp);
  }
}
