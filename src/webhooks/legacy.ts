// Unsigned legacy deliveries: the flat data object, no envelope, no event_type. The partner's
// shared secret travels in plain text in x-service-api-key, so that is what can be checked.
import { createHash, timingSafeEqual } from 'node:crypto';
import { WebhookSignatureError } from './errors.js';
import type { LegacyWebhook } from './events.js';

export interface LegacyWebhookOptions {
  /** The x-service-api-key header of the delivery. */
  apiKeyHeader?: string | null;
  /** The shared secret it must equal. When given, a mismatch throws. */
  sharedSecret?: string;
}

function sameSecret(received: string, expected: string): boolean {
  // Hashing first gives equal-length buffers, so the comparison is constant-time whatever the lengths.
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(received), digest(expected));
}

/** Parses a legacy delivery and tells which event it is, from its shape. */
export function parseLegacyWebhook(body: string | Uint8Array | object, options: LegacyWebhookOptions = {}): LegacyWebhook {
  if (options.sharedSecret !== undefined && !sameSecret(options.apiKeyHeader ?? '', options.sharedSecret)) {
    throw new WebhookSignatureError('signature_mismatch', 'The x-service-api-key header does not equal the shared secret.');
  }
  let data: unknown = body;
  if (typeof body === 'string' || body instanceof Uint8Array) {
    try {
      data = JSON.parse(typeof body === 'string' ? body : Buffer.from(body).toString('utf8'));
    } catch {
      throw new WebhookSignatureError('payload_invalid', 'The legacy webhook body is not JSON.');
    }
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new WebhookSignatureError('payload_invalid', 'The legacy webhook body is not a JSON object.');
  }
  const record = data as Record<string, unknown>;
  if ('event_type' in record || 'webhook_delivery_id' in record) {
    throw new WebhookSignatureError('payload_invalid', 'This is a signed envelope, not a legacy delivery: use verifyWebhook.');
  }
  if (typeof record.payment_id === 'string' && typeof record.status === 'string') {
    return { kind: 'payment_session_complete', data: record } as LegacyWebhook;
  }
  if (typeof record.payment_token === 'string') {
    return { kind: 'payment_token_updated', data: record } as LegacyWebhook;
  }
  if (typeof record.object === 'object' && record.object !== null && typeof (record.object as { sku?: unknown }).sku === 'string') {
    return { kind: 'item_eligibility_updated', data: record } as LegacyWebhook;
  }
  throw new WebhookSignatureError('payload_invalid', 'The legacy webhook body matches no known event (payment_session_complete, payment_token_updated, item eligibility).');
}
