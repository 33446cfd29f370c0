// The payloads of the webhook events the sandbox queues.
import { amountFields, sessionItems } from './views.js';
import type { DomainEvent, Session } from './types.js';

/**
 * The token a completion reports: the one the session charged, or the one it issued once its
 * checkout completed (a canceled or ineligible checkout issues none).
 */
const tokenOf = (session: Session) =>
  session.payment_token ??
  (session.status === 'pending' || session.status === 'canceled' ? undefined : session.issued_payment_token);

/** payment_session_complete: the session's outcome, echoing metadata. */
export function completionEvent(session: Session, now: string): DomainEvent {
  return {
    event_type: 'payment_session_complete',
    data: {
      payment_id: session.id,
      created_at: now,
      status: session.status,
      ...(amountFields(session).capture_amount !== undefined
        ? { capture_amount: amountFields(session).capture_amount }
        : {}),
      order_items: sessionItems(session),
      ...(session.request.metadata !== undefined ? { metadata: session.request.metadata } : {}),
      ...(tokenOf(session) !== undefined ? { payment_token: tokenOf(session) } : {}),
    },
  };
}
