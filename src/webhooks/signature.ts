// The x-service-signature scheme: `t=<unix-timestamp>,v0=<hex>`, where the hex is
// HMAC-SHA256(secret, `<t>.<raw body>`). Several v0 entries may appear during a secret rotation.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { WebhookSignatureError } from './errors.js';

export const SIGNATURE_HEADER = 'x-service-signature';

export interface ParsedSignatureHeader {
  timestamp: number;
  /** `t` exactly as received: the signed text uses it, not a re-formatted number. */
  timestampText: string;
  /** Every v0 signature (lowercase hex, as the service sends). */
  signatures: string[];
}

/** Parses `t=…,v0=…[,v0=…]`. Entries of other versions are ignored; t must appear exactly once. */
export function parseSignatureHeader(header: string | null | undefined): ParsedSignatureHeader {
  if (header === undefined || header === null || header === '') {
    throw new WebhookSignatureError('missing_header', `The ${SIGNATURE_HEADER} header is missing.`);
  }
  let timestampText: string | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const separator = part.indexOf('=');
    const key = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (separator <= 0 || value === '') {
      throw new WebhookSignatureError('malformed_header', `${SIGNATURE_HEADER} has a malformed entry ${JSON.stringify(part)}; expected t=<unix>,v0=<hex>.`);
    }
    if (key === 't') {
      if (timestampText !== undefined || !/^\d{1,12}$/.test(value)) {
        throw new WebhookSignatureError('malformed_header', `${SIGNATURE_HEADER} must carry exactly one numeric t=<unix-timestamp>.`);
      }
      timestampText = value;
    } else if (key === 'v0') {
      if (!/^[0-9a-f]{64}$/.test(value)) {
        throw new WebhookSignatureError('malformed_header', `${SIGNATURE_HEADER} has a v0 that is not 64 lowercase hex digits.`);
      }
      signatures.push(value);
    }
  }
  if (timestampText === undefined) {
    throw new WebhookSignatureError('malformed_header', `${SIGNATURE_HEADER} has no t=<unix-timestamp>.`);
  }
  if (signatures.length === 0) {
    throw new WebhookSignatureError('no_signature', `${SIGNATURE_HEADER} has no v0 signature.`);
  }
  return { timestamp: Number(timestampText), timestampText, signatures };
}

/** HMAC-SHA256 over `<timestamp>.<rawBody>`, lowercase hex. */
export function computeSignature(rawBody: string | Uint8Array, secret: string, timestamp: number | string): string {
  const hmac = createHmac('sha256', secret);
  hmac.update(`${timestamp}.`);
  hmac.update(rawBody);
  return hmac.digest('hex');
}

/** Constant-time comparison of two hex signatures. */
export function signaturesEqual(expectedHex: string, receivedHex: string): boolean {
  const expected = Buffer.from(expectedHex, 'hex');
  const received = Buffer.from(receivedHex, 'hex');
  return expected.length === received.length && timingSafeEqual(expected, received);
}

export interface SignedWebhook {
  /** The exact bytes to send as the body. */
  body: string;
  /** The value of the x-service-signature header. */
  signatureHeader: string;
  timestamp: number;
}

/**
 * Signs a payload as the service does. Pass several secrets to emit one v0 per secret, as during a
 * rotation. For tests and the sandbox.
 */
export function signWebhook(
  payload: unknown,
  secret: string | readonly string[],
  timestamp: number = Math.floor(Date.now() / 1000),
): SignedWebhook {
  const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const secrets = typeof secret === 'string' ? [secret] : secret;
  const signatures = secrets.map((s) => `v0=${computeSignature(body, s, timestamp)}`);
  return { body, timestamp, signatureHeader: [`t=${timestamp}`, ...signatures].join(',') };
}
