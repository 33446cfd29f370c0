// Queuing webhook events in the outbox, in the request's transaction: an event is queued exactly
// when the change that fired it commits, and the delivery worker (src/sandbox/delivery/) sends it.
import type { DomainEvent } from '../../domain/types.js';
import { deliveryId, type IdSource } from '../../ids.js';
import type { Store } from '../../store/index.js';

/** What every write needs from its request: the channel written to, its clock, and where ids come from. */
export interface WriteContext {
  channel: string;
  now: string;
  ids: IdSource;
}

export function queueEvents(store: Store, context: WriteContext, events: DomainEvent[]): void {
  // As the channel delivers them: under the evolution drill, as a later version would.
  const delivered = store.events.shape(context.channel, events, () => context.ids.uuid());
  // The delivery id is fixed now, so that every retry of the event carries the same one.
  for (const event of delivered) store.outbox.enqueue(context.channel, event, context.now, deliveryId(context.ids));
}
