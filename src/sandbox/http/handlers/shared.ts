// Small helpers the handlers share.
import { randomUUID } from 'node:crypto';
import type { DomainEvent, Session } from '../../domain/types.js';
import type { Store } from '../../store/index.js';

export const newId = () => randomUUID().replace(/-/g, '').slice(0, 20);
export const ok = (body: unknown) => ({ status: 200, body });

/** The sandbox's hosted checkout page of a session. */
export function checkoutUrl(origin: string, session: Session): string {
  return `${origin}/checkout/${session.id}${session.request.use_iframe ? '?mode=iframe' : ''}`;
}

/** Saves the session and queues its events, inside the request's transaction. */
export function save(store: Store, session: Session, events: DomainEvent[], now: string): void {
  store.sessions.update(session);
  for (const event of events) store.outbox.enqueue(session.channel, event, now);
}
