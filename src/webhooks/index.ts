export { createDeliveryDeduplicator, type DeliveryDeduplicator, type DeliveryDeduplicatorOptions } from './dedupe.js';
export { WebhookSignatureError, type WebhookSignatureFailure } from './errors.js';
export * from './events.js';
export { parseLegacyWebhook, type LegacyWebhookOptions } from './legacy.js';
export { isEventType, isPaymentSessionComplete } from './narrow.js';
export { computeSignature, parseSignatureHeader, SIGNATURE_HEADER, signWebhook, type ParsedSignatureHeader, type SignedWebhook } from './signature.js';
export { DEFAULT_TOLERANCE_SECONDS, verifyWebhook, type VerifyWebhookOptions } from './verify.js';
