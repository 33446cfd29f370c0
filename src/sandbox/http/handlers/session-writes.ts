// Writing a session: its document and the webhook events its change caused, in the request's
// transaction, so that an event is queued exactly when its change commits.
import type { DomainEvent, Session } from '../../domain/types.js';
import { deliveryId, type IdSource } from '../../ids.js';
import type { Store } from '../../store/index.js';

export function save(store: Store, session: Session, events: DomainEvent[], now: string, ids: IdSource): void {
  store.sessions.update(session);
  queue(store, session, events, now, ids);
}

/** Stores a new session, in its state after any first move, with the events of that move. */
export function saveNew(store: Store, session: Session, events: DomainEvent[], now: string, ids: IdSource): void {
  store.sessions.insert(session);
  queue(store, session, events, now, ids);
}

function queue(store: Store, session: Session, events: DomainEvent[], now: string, ids: IdSource): void {
  // The delivery id is fixed now, so that every retry of the event carries the same one.
  for (const event of events) store.outbox.enqueue(session.channel, event, now, deliveryId(ids));
}
