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

/** A signed delivery: a union discriminated on `event_type`. */
export type WebhookEvent =
  | PaymentSessionCompleteEvent
  | PaymentTokenUpdatedEvent
  | ItemEligibilityUpdatedEvent
  | DisputeCreatedEvent
  | DisputeUpdatedEvent
  | DisputeClosedEvent
  | DisputeEvidenceSubmittedEvent;

export type WebhookEventType = WebhookEvent['event_type'];

/** The flat bodies of unsigned legacy deliveries. */
export type LegacyPaymentSessionComplete = Body<'payment_session_complete.legacy'>;
export type LegacyPaymentTokenUpdated = Body<'payment_token_updated.legacy'>;
export type LegacyItemEligibilityUpdated = Body<'product_catalog.item.eligibility_updated.legacy'>;

export type LegacyWebhook =
  | { kind: 'payment_session_complete'; data: LegacyPaymentSessionComplete }
  | { kind: 'payment_token_updated'; data: LegacyPaymentTokenUpdated }
  | { kind: 'item_eligibility_updated'; data: LegacyItemEligibilityUpdated };

/** The event types a signed delivery can carry, as the contract names them. */
export const WEBHOOK_EVENT_TYPES: readonly WebhookEventType[] = [
  'payment_session_complete',
  'payment_token.updated',
  'payment_token_updated',
  'product_catalog.item.eligibility_updated',
  'dispute.created',
  'dispute.updated',
  'dispute.closed',
  'dispute.evidence_submitted',
];
