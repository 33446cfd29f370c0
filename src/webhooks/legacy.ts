// Unsigned legacy deliveries: the flat data object, no envelope, no event_type. The partner's
// shared secret travels in plain text in x-service-api-key, so that is what can be checked.
import { WebhookPayloadError, WebhookSignatureError } from './errors.js';
import type { LegacyWebhook } from './events.js';
import { constantTimeEqual } from './signature.js';
import { bodyText } from './text.js';

export interface LegacyWebhookOptions {
  /** The x-service-api-key header of the delivery. */
  apiKeyHeader?: string | null;
  /**
   * The shared secret it must equal. When given, a mismatch throws. An empty one throws too
   * (reason secret_invalid): an absent header would otherwise equal it.
   */
  sharedSecret?: string;
}

/**
 * Parses a legacy delivery and tells which event it is, from its shape. Throws WebhookSignatureError
 * when the shared secret does not match (or is empty), and WebhookPayloadError when the body is no
 * legacy event.
 */
export function parseLegacyWebhook(
  body: string | Uint8Array | object,
  options: LegacyWebhookOptions = {},
): LegacyWebhook {
  const { apiKeyHeader, sharedSecret } = options;
  if (sharedSecret === '') {
    throw new WebhookSignatureError(
      'secret_invalid',
      'sharedSecret is empty (often an environment variable set to nothing): an absent x-service-api-key header ' +
        'would equal it.',
    );
  }
  if (
    sharedSecret !== undefined &&
    (typeof apiKeyHeader !== 'string' || !constantTimeEqual(apiKeyHeader, sharedSecret))
  ) {
    throw new WebhookSignatureError(
      'signature_mismatch',
      'The x-service-api-key header does not equal the shared secret.',
    );
  }
  let data: unknown = body;
  if (typeof body === 'string' || body instanceof Uint8Array) {
    try {
      data = JSON.parse(bodyText(body));
    } catch {
      throw new WebhookPayloadError('not_json', 'The legacy webhook body is not JSON.');
    }
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new WebhookPayloadError('not_an_object', 'The legacy webhook body is not a JSON object.');
  }
  const record = data as Record<string, unknown>;
  if ('event_type' in record || 'webhook_delivery_id' in record) {
    throw new WebhookPayloadError(
      'signed_envelope',
      'This is a signed envelope, not a legacy delivery: use verifyWebhook or verifyWebhookAsync.',
    );
  }
  if (typeof record.payment_id === 'string' && typeof record.status === 'string') {
    return { kind: 'payment_session_complete', data: record } as LegacyWebhook;
  }
  if (typeof record.payment_token === 'string') {
    return { kind: 'payment_token_updated', data: record } as LegacyWebhook;
  }
  if (
    typeof record.object === 'object' &&
    record.object !== null &&
    typeof (record.object as { sku?: unknown }).sku === 'string'
  ) {
    return { kind: 'item_eligibility_updated', data: record } as LegacyWebhook;
  }
  // Every dispute event arrives as the canonical dispute; the body does not say which event it was.
  if (typeof record.dispute_id === 'string' && typeof record.state === 'string') {
    return { kind: 'dispute', data: record } as LegacyWebhook;
  }
  throw new WebhookPayloadError(
    'unknown_event',
    'The legacy webhook body matches no known event (payment_session_complete, payment_token_updated, item ' +
      'eligibility, dispute).',
  );
}
