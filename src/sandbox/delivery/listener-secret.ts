// The signing secret of a webhook listener: the same on every run of `hsa-fsa-sandbox listen` with
// the same key and forward URL, so that the secret a partner copied into their receiver's settings
// keeps working. It is an HMAC-SHA256 of the channel and the URL under the database's own random
// secret (store/page-secret.ts), under a label of its own: nobody derives it from the URL alone,
// and a reset keeps it, as it keeps that secret.
import { createHmac } from 'node:crypto';

/** `forwardUrl` as the listener stores it (WHATWG-serialized), so that its spellings agree. */
export function listenerSecret(databaseSecret: Buffer, channel: string, forwardUrl: string): string {
  // A JSON array keeps the label, the channel and the URL apart, whatever characters they hold.
  const digest = createHmac('sha256', databaseSecret)
    .update(JSON.stringify(['webhook-listener', channel, forwardUrl]))
    .digest();
  // The length and alphabet of the secrets the sandbox makes (delivery/endpoints.ts).
  return `whsec_${digest.subarray(0, 24).toString('base64url')}`;
}
