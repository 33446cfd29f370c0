// Narrowing of a verified event to one event type.
import {
  KNOWN_EVENT_TYPES,
  type KnownWebhookEvent,
  type KnownWebhookEventType,
  type PaymentSessionCompleteEvent,
  type WebhookEvent,
} from './events.js';

/**
 * The events whose event_type can be `Type`. An event may allow more than one spelling
 * (payment_token.updated and payment_token_updated), so this picks every event whose spellings
 * include `Type`; a plain Extract would find none for such an event.
 */
export type EventOfType<Type extends KnownWebhookEventType> = KnownWebhookEvent extends infer Event
  ? Event extends { event_type?: infer Spellings }
    ? Type extends Spellings
      ? Event
      : never
    : never
  : never;

/** True when the event has this (documented) event_type; narrows it. */
export function isEventType<Type extends KnownWebhookEventType>(
  event: WebhookEvent,
  eventType: Type,
): event is EventOfType<Type> {
  return event.event_type === eventType;
}

/**
 * True for a payment_session_complete delivery. Its signed event_type spelling is undocumented, so
 * this accepts any event_type that is not another documented event, carrying a session status.
 */
export function isPaymentSessionComplete(event: WebhookEvent): event is PaymentSessionCompleteEvent {
  return (
    !(KNOWN_EVENT_TYPES as readonly (string | undefined)[]).includes(event.event_type) &&
    typeof (event.data as { status?: unknown } | undefined)?.status === 'string'
  );
}
