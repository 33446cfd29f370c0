// Type tests of isEventType, checked by `npm run typecheck` (tsc): each narrowed event exposes its
// own data, and every line under @ts-expect-error must fail to compile. An event with two
// spellings (payment_token.updated and payment_token_updated) narrows under either one; it once
// narrowed to `never`, so that `event.data` did not compile.
import { isEventType, type WebhookEvent } from '../../src/webhooks/index.js';

export function tokenOf(event: WebhookEvent): string | undefined {
  if (isEventType(event, 'payment_token.updated')) return event.data.payment_token;
  if (isEventType(event, 'payment_token_updated')) return event.data.payment_token;
  return undefined;
}

export function disputeOf(event: WebhookEvent): string | undefined {
  if (isEventType(event, 'dispute.created')) {
    // @ts-expect-error: a dispute carries no payment_token
    return event.data.payment_token;
  }
  if (isEventType(event, 'dispute.closed')) return event.data.dispute_id;
  return undefined;
}

export function skuOf(event: WebhookEvent): string | undefined {
  // @ts-expect-error: no such event type
  if (isEventType(event, 'product_catalog.item.updated')) return undefined;
  if (isEventType(event, 'product_catalog.item.eligibility_updated')) return event.data.object.sku;
  return undefined;
}
