// Webhook event types, taken from the contract's `webhooks`.
import type { webhooks } from '../../generated/schema.js';

type Body<Name extends keyof webhooks> = webhooks[Name]['post'] extends {
  requestBody: { content: { 'application/json': infer Payload } };
}
  ? Payload
  : never;

export type PaymentSessionCompleteEvent = Body<'payment_session_complete'>;
export type PaymentTokenUpdatedEvent = Body<'payment_token.updated'>;
export type ItemEligibilityUpdatedEvent = Body<'product_catalog.item.eligibility_updated'>;
export type DisputeCreatedEvent = Body<'dispute.created'>;
export type DisputeUpdatedEvent = Body<'dispute.updated'>;
export type DisputeClosedEvent = Body<'dispute.closed'>;
export type DisputeEvidenceSubmittedEvent = Body<'dispute.evidence_submitted'>;

/**
 * A signed delivery. payment_session_complete's `event_type` is an open string (its dot-notation
 * spelling is undocumented), so narrow with isEventType / isPaymentSessionComplete.
 */
export type WebhookEvent =
  | PaymentSessionCompleteEvent
  | PaymentTokenUpdatedEvent
  | ItemEligibilityUpdatedEvent
  | DisputeCreatedEvent
  | DisputeUpdatedEvent
  | DisputeClosedEvent
  | DisputeEvidenceSubmittedEvent;

/** The events whose event_type the contract spells out. */
export type KnownWebhookEvent = Exclude<WebhookEvent, PaymentSessionCompleteEvent>;
export type KnownWebhookEventType = NonNullable<KnownWebhookEvent['event_type']>;

/** The flat bodies of unsigned legacy deliveries. */
export type LegacyPaymentSessionComplete = Body<'payment_session_complete.legacy'>;
export type LegacyPaymentTokenUpdated = Body<'payment_token_updated.legacy'>;
export type LegacyItemEligibilityUpdated = Body<'product_catalog.item.eligibility_updated.legacy'>;
/** Any dispute event, flat: the canonical dispute, which does not say which event it was. */
export type LegacyDispute = Body<'dispute.legacy'>;

export type LegacyWebhook =
  | { kind: 'payment_session_complete'; data: LegacyPaymentSessionComplete }
  | { kind: 'payment_token_updated'; data: LegacyPaymentTokenUpdated }
  | { kind: 'item_eligibility_updated'; data: LegacyItemEligibilityUpdated }
  | { kind: 'dispute'; data: LegacyDispute };

/** The event_type values the contract spells out (payment_session_complete's is undocumented). */
export const KNOWN_EVENT_TYPES: readonly KnownWebhookEventType[] = [
  'payment_token.updated',
  'payment_token_updated',
  'product_catalog.item.eligibility_updated',
  'dispute.created',
  'dispute.updated',
  'dispute.closed',
  'dispute.evidence_submitted',
];
