// Verifies a signed webhook with node:crypto: x-service-signature is `t=<unix>,v0=<hex>`, the hex
// an HMAC-SHA256 of `<t>.<raw body>` under the endpoint's secret. Exit 0 and print the event type
// when it verifies; exit 1 otherwise. An event type that is none of the contract's webhooks (one a
// later version of the service added) is verified and ignored: a receiver answers 204 and moves on.
//   node verify-webhook.js <body file> <x-service-signature> <secret>
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** The event types of the contract's webhooks. */
export const KNOWN_EVENT_TYPES: ReadonlySet<string> = new Set([
  'payment_session_complete',
  'payment_token_updated',
  'payment_token.updated',
  'product_catalog.item.eligibility_updated',
  'dispute.created',
  'dispute.updated',
  'dispute.closed',
  'dispute.evidence_submitted',
]);

export function verifyWebhook(rawBody: Buffer, header: string, secret: string, toleranceSeconds = 300): boolean {
  const entries = header.split(',').map((part) => part.trim().split('='));
  const t = entries.find(([key]) => key === 't')?.[1];
  const signatures = entries.filter(([key]) => key === 'v0').map(([, value]) => value ?? '');
  if (!t || !/^\d+$/.test(t) || signatures.length === 0) return false;
  if (Math.abs(Date.now() / 1000 - Number(t)) > toleranceSeconds) return false;
  const expected = createHmac('sha256', secret).update(`${t}.`).update(rawBody).digest();
  return signatures.some((hex) => {
    const given = Buffer.from(hex, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

const [bodyFile, header, secret] = process.argv.slice(2);
const body = readFileSync(bodyFile!);
if (!verifyWebhook(body, header ?? '', secret ?? '')) {
  console.error('signature does not verify');
  process.exit(1);
}
// Only a verified body is parsed. Properties it does not know are left alone.
const eventType = String((JSON.parse(body.toString('utf8')) as { event_type?: unknown }).event_type);
console.log(`verified ${eventType}`);
if (!KNOWN_EVENT_TYPES.has(eventType)) console.log(`ignored unknown event type ${eventType}`);
