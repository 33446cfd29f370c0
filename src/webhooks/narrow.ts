// Narrowing of a verified event to one event type.
import {
  KNOWN_EVENT_TYPES, type KnownWebhookEvent, type KnownWebhookEventType, type PaymentSessionCompleteEvent, type WebhookEvent,
} from './events.js';

/** True when the event has this (documented) event_type; narrows it. */
export function isEventType<Type extends KnownWebhookEventType>(
  event: WebhookEvent,
  eventType: Type,
): event is Extract<KnownWebhookEvent, { event_type?: Type }> {
  return event.event_type === eventType;
}

/**
 * True for a payment_session_complete delivery. Its signed event_type spelling is undocumented, so
 * this accepts any event_type that is not another documented event, carrying a session status.
 */
export function isPaymentSessionComplete(event: WebhookEvent): event is PaymentSessionCompleteEvent {
  return (
    !(KNOWN_EVENT_TYPES as readonly string[]).includes(event.event_type ?? '') &&
    typeof (event.data as { status?: unknown } | undefined)?.status === 'string'
  );
}
