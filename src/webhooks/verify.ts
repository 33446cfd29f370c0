// verifyWebhook and verifyWebhookAsync: signature, timestamp tolerance (past and future) and
// envelope, then a typed event. They differ only in how the HMAC is computed (node:crypto or Web
// Crypto): the checks before it and after it are the shared functions below.
import { WebhookSignatureError } from './errors.js';
import type { WebhookEvent } from './events.js';
import {
  computeSignature,
  computeSignatureAsync,
  constantTimeEqual,
  parseSignatureHeader,
  type ParsedSignatureHeader,
} from './signature.js';
import { bodyText } from './text.js';

export interface VerifyWebhookOptions {
  /** The body exactly as received: a string, Buffer or Uint8Array. Not a parsed object. */
  rawBody: string | Uint8Array;
  /** The x-service-signature header. */
  signatureHeader: string | null | undefined;
  /** The webhook signing secret; several during a rotation. */
  secret: string | readonly string[];
  /** Largest accepted age and future skew of `t`, in seconds. Default 300. */
  toleranceSeconds?: number;
  /** Current time, in ms since the epoch (for tests). Default Date.now(). */
  now?: number;
}

export const DEFAULT_TOLERANCE_SECONDS = 300;

function checkRawBody(rawBody: unknown): asserts rawBody is string | Uint8Array {
  if (typeof rawBody === 'string' || rawBody instanceof Uint8Array) return;
  throw new WebhookSignatureError(
    'body_not_raw',
    'rawBody must be the request body exactly as received (string, Buffer or Uint8Array), but got ' +
      `${rawBody === null ? 'null' : typeof rawBody}. A parsed and re-serialized body does not match ` +
      'the signature: capture the raw body (express.raw({ type: "application/json" }), or a Fastify ' +
      'content-type parser with parseAs: "buffer"; in a fetch handler, await request.text()).',
  );
}

function checkSecrets(secret: unknown): readonly string[] {
  const secrets = typeof secret === 'string' ? [secret] : secret;
  if (!Array.isArray(secrets) || secrets.length === 0 || secrets.some((s) => typeof s !== 'string' || s === '')) {
    throw new WebhookSignatureError(
      'secret_invalid',
      'secret must be a non-empty string (or a list of them during a rotation).',
    );
  }
  for (const s of secrets as string[]) {
    if (s !== s.trim()) {
      throw new WebhookSignatureError(
        'secret_invalid',
        'The signing secret has leading or trailing whitespace (often a newline from an environment file). Trim it.',
      );
    }
  }
  return secrets as string[];
}

function checkTimestamp(timestamp: number, toleranceSeconds: number, nowMs: number): void {
  const nowSeconds = Math.floor(nowMs / 1000);
  if (timestamp < nowSeconds - toleranceSeconds) {
    throw new WebhookSignatureError(
      'timestamp_too_old',
      `The signature timestamp is ${nowSeconds - timestamp} s old, beyond the ${toleranceSeconds} s tolerance (a ` +
        `replay, or a clock off).`,
    );
  }
  if (timestamp > nowSeconds + toleranceSeconds) {
    throw new WebhookSignatureError(
      'timestamp_in_future',
      `The signature timestamp is ${timestamp - nowSeconds} s in the future, beyond the ${toleranceSeconds} s ` +
        `tolerance (check this server's clock).`,
    );
  }
}

function parseEnvelope(rawBody: string | Uint8Array): WebhookEvent {
  const text = bodyText(rawBody);
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch {
    throw new WebhookSignatureError('payload_invalid', 'The signed body is not JSON.');
  }
  const envelope = payload as Partial<Record<'webhook_delivery_id' | 'event_type' | 'data', unknown>> | null;
  // An unknown event_type is accepted: new events must not break receivers, and the signed spelling
  // of payment_session_complete is undocumented. A JSON number, string or boolean has no event_type,
  // so the event_type check refuses it; null would throw there, so it is refused first.
  if (
    envelope === null ||
    Array.isArray(envelope) ||
    typeof envelope.event_type !== 'string' ||
    typeof envelope.data !== 'object' ||
    envelope.data === null ||
    (envelope.webhook_delivery_id !== undefined && typeof envelope.webhook_delivery_id !== 'string')
  ) {
    throw new WebhookSignatureError(
      'payload_invalid',
      'The signed body is not a webhook envelope {webhook_delivery_id, event_type, data}.',
    );
  }
  return payload as WebhookEvent;
}

interface CheckedOptions extends ParsedSignatureHeader {
  secrets: readonly string[];
  tolerance: number;
}

/** The checks that come before any HMAC: body, secrets, tolerance, header. */
function checkOptions(options: VerifyWebhookOptions): CheckedOptions {
  checkRawBody(options.rawBody);
  const secrets = checkSecrets(options.secret);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (!Number.isFinite(tolerance) || tolerance < 0) {
    throw new TypeError('toleranceSeconds must be a finite number of seconds, 0 or more.');
  }
  return { secrets, tolerance, ...parseSignatureHeader(options.signatureHeader) };
}

/** The checks that come after: some expected signature was received, then timestamp, then envelope. */
function acceptSigned(
  options: VerifyWebhookOptions,
  checked: CheckedOptions,
  expected: readonly string[],
): WebhookEvent {
  // Every pair is compared (no early exit), so timing does not tell which entry matched.
  let matched = false;
  for (const candidate of expected) {
    for (const received of checked.signatures) matched = constantTimeEqual(received, candidate) || matched;
  }
  if (!matched) {
    throw new WebhookSignatureError(
      'signature_mismatch',
      'No v0 signature matches: check the signing secret, and that the body is passed exactly as received.',
    );
  }
  checkTimestamp(checked.timestamp, checked.tolerance, options.now ?? Date.now());
  return parseEnvelope(options.rawBody);
}

/**
 * Verifies a signed delivery and returns its typed event. Throws WebhookSignatureError, whose
 * `reason` names the failed check. Answer 204 only after this returns. Needs node:crypto; in edge
 * runtimes use verifyWebhookAsync.
 */
export function verifyWebhook(options: VerifyWebhookOptions): WebhookEvent {
  const checked = checkOptions(options);
  return acceptSigned(
    options,
    checked,
    checked.secrets.map((secret) => computeSignature(options.rawBody, secret, checked.timestampText)),
  );
}

/**
 * verifyWebhook on Web Crypto, for any runtime with crypto.subtle (Workers, Deno, Bun, edge routes,
 * Node). Same options and checks; rejects with the same WebhookSignatureError.
 */
export async function verifyWebhookAsync(options: VerifyWebhookOptions): Promise<WebhookEvent> {
  const checked = checkOptions(options);
  const expected = await Promise.all(
    checked.secrets.map((secret) => computeSignatureAsync(options.rawBody, secret, checked.timestampText)),
  );
  return acceptSigned(options, checked, expected);
}
