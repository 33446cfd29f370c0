// Verifies a signed webhook with node:crypto: x-service-signature is `t=<unix>,v0=<hex>`, the hex
// an HMAC-SHA256 of `<t>.<raw body>` under the endpoint's secret. Exit 0 and print the event type
// when it verifies; exit 1 otherwise.
//   node verify-webhook.js <body file> <x-service-signature> <secret>
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';

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
console.log(`verified ${JSON.parse(body.toString('utf8')).event_type}`);
