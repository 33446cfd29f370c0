// The x-service-signature scheme: `t=<unix-timestamp>,v0=<hex>`, where the hex is
// HMAC-SHA256(secret, `<t>.<raw body>`). Several v0 entries may appear during a secret rotation.
// Each signer has a sync form (node:crypto, loaded at call time) and an async one (Web Crypto), so
// that this module loads in edge runtimes; everything else here is shared and pure.
import { WebhookSignatureError } from './errors.js';
import { nodeCrypto } from './node-crypto.js';

export const SIGNATURE_HEADER = 'x-service-signature';

export interface ParsedSignatureHeader {
  timestamp: number;
  /** `t` exactly as received: the signed text uses it, not a re-formatted number. */
  timestampText: string;
  /** Every v0 signature, in lowercase hex (the reference says hex, not which case: either is read). */
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
      throw new WebhookSignatureError(
        'malformed_header',
        `${SIGNATURE_HEADER} has a malformed entry ${JSON.stringify(part)}; expected t=<unix>,v0=<hex>.`,
      );
    }
    if (key === 't') {
      if (timestampText !== undefined || !/^\d{1,12}$/.test(value)) {
        throw new WebhookSignatureError(
          'malformed_header',
          `${SIGNATURE_HEADER} must carry exactly one numeric t=<unix-timestamp>.`,
        );
      }
      timestampText = value;
    } else if (key === 'v0') {
      if (!/^[0-9a-f]{64}$/i.test(value)) {
        throw new WebhookSignatureError('malformed_header', `${SIGNATURE_HEADER} has a v0 that is not 64 hex digits.`);
      }
      signatures.push(value.toLowerCase());
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

/** HMAC-SHA256 over `<timestamp>.<rawBody>`, lowercase hex. Needs node:crypto; elsewhere use computeSignatureAsync. */
export function computeSignature(rawBody: string | Uint8Array, secret: string, timestamp: number | string): string {
  const hmac = nodeCrypto().createHmac('sha256', secret);
  hmac.update(`${timestamp}.`);
  hmac.update(rawBody);
  return hmac.digest('hex');
}

const encoder = new TextEncoder();

/** computeSignature on Web Crypto (crypto.subtle): for Workers, Deno, Bun, edge routes and Node. */
export async function computeSignatureAsync(
  rawBody: string | Uint8Array,
  secret: string,
  timestamp: number | string,
): Promise<string> {
  const prefix = encoder.encode(`${timestamp}.`);
  const body = typeof rawBody === 'string' ? encoder.encode(rawBody) : rawBody;
  const signed = new Uint8Array(prefix.length + body.length);
  signed.set(prefix);
  signed.set(body, prefix.length);
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, signed));
  return Array.from(mac, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * Constant-time string equality, in plain JS so that both paths share it. The loop runs over the
 * received text only, so its time tells neither where the strings differ nor the expected length.
 */
export function constantTimeEqual(received: string, expected: string): boolean {
  let diff = received.length ^ expected.length;
  for (let i = 0; i < received.length; i++) {
    // `i % expected.length` stays in bounds (an empty expected gives NaN, which ^ reads as 0).
    diff |= received.charCodeAt(i) ^ expected.charCodeAt(i % expected.length);
  }
  return diff === 0;
}

export interface SignedWebhook {
  /** The exact bytes to send as the body. */
  body: string;
  /** The value of the x-service-signature header. */
  signatureHeader: string;
  timestamp: number;
}

const serialize = (payload: unknown): string => (typeof payload === 'string' ? payload : JSON.stringify(payload));
const secretList = (secret: string | readonly string[]): readonly string[] =>
  typeof secret === 'string' ? [secret] : secret;
const nowSeconds = () => Math.floor(Date.now() / 1000);

function signedWebhook(body: string, timestamp: number, signatures: readonly string[]): SignedWebhook {
  return { body, timestamp, signatureHeader: [`t=${timestamp}`, ...signatures.map((s) => `v0=${s}`)].join(',') };
}

/**
 * Signs a payload as the service does. Pass several secrets to emit one v0 per secret, as during a
 * rotation. For tests and the sandbox. Needs node:crypto; elsewhere use signWebhookAsync.
 */
export function signWebhook(
  payload: unknown,
  secret: string | readonly string[],
  timestamp: number = nowSeconds(),
): SignedWebhook {
  const body = serialize(payload);
  return signedWebhook(
    body,
    timestamp,
    secretList(secret).map((s) => computeSignature(body, s, timestamp)),
  );
}

/** signWebhook on Web Crypto. */
export async function signWebhookAsync(
  payload: unknown,
  secret: string | readonly string[],
  timestamp: number = nowSeconds(),
): Promise<SignedWebhook> {
  const body = serialize(payload);
  return signedWebhook(
    body,
    timestamp,
    await Promise.all(secretList(secret).map((s) => computeSignatureAsync(body, s, timestamp))),
  );
}
