export { createDeliveryDeduplicator, type DeliveryDeduplicator, type DeliveryDeduplicatorOptions } from './dedupe.js';
export {
  WebhookPayloadError,
  WebhookSignatureError,
  type WebhookPayloadFailure,
  type WebhookSignatureFailure,
} from './errors.js';
export * from './events.js';
export { parseLegacyWebhook, type LegacyWebhookOptions } from './legacy.js';
export { isEventType, isPaymentSessionComplete, type EventOfType } from './narrow.js';
export {
  computeSignature,
  computeSignatureAsync,
  parseSignatureHeader,
  SIGNATURE_HEADER,
  signWebhook,
  signWebhookAsync,
  type ParsedSignatureHeader,
  type SignedWebhook,
} from './signature.js';
export { DEFAULT_TOLERANCE_SECONDS, verifyWebhook, verifyWebhookAsync, type VerifyWebhookOptions } from './verify.js';
