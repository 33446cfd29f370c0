// Writing a session: its document, then the webhook events its change fired, both in the request's
// transaction (event-queue.ts), so that no event is queued for a change that does not commit.
import type { DomainEvent, Session } from '../domain/types.js';
import type { SandboxStore } from '../store/store.js';
import { queueEvents, type WriteContext } from './event-queue.js';

/** Stores a session's new state and queues the events of the move that led to it. */
export async function saveSessionAndQueueEvents(
  store: SandboxStore,
  context: WriteContext,
  session: Session,
  events: DomainEvent[],
): Promise<void> {
  await store.sessions.update(session);
  await queueEvents(store, context, events);
}

/** Stores a new session, in its state after any first move, and queues the events of that move. */
export async function insertSessionAndQueueEvents(
  store: SandboxStore,
  context: WriteContext,
  session: Session,
  events: DomainEvent[],
): Promise<void> {
  await store.sessions.insert(session);
  await queueEvents(store, context, events);
}
