// A webhook listener's signing secret (delivery/listener-secret.ts): an HMAC-SHA256, under the
// database's secret, of the JSON array [label 'webhook-listener', channel, forward URL], written as
// the sandbox writes its secrets: whsec_ and 24 bytes in base64url.
import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { listenerSecret } from '../../src/sandbox/delivery/listener-secret.js';

const hmac = (key: Buffer, parts: string[]) =>
  createHmac('sha256', key).update(JSON.stringify(parts)).digest().subarray(0, 24).toString('base64url');

describe('listenerSecret', () => {
  const databaseSecret = randomBytes(32);
  const url = 'http://localhost:3000/webhooks';

  it('is the HMAC of its own label, the channel and the URL under the database secret', () => {
    expect(listenerSecret(databaseSecret, 'dev', url)).toBe(
      `whsec_${hmac(databaseSecret, ['webhook-listener', 'dev', url])}`,
    );
  });

  it('differs from the HMAC of the channel and URL without the label, or under another label', () => {
    const secret = listenerSecret(databaseSecret, 'dev', url);
    expect(secret).not.toBe(`whsec_${hmac(databaseSecret, ['', 'dev', url])}`);
    expect(secret).not.toBe(`whsec_${hmac(databaseSecret, ['dev', url])}`);
    expect(secret).not.toBe(`whsec_${hmac(databaseSecret, ['page', 'dev', url])}`);
  });

  it('has the length and alphabet of the sandbox’s secrets', () => {
    expect(listenerSecret(databaseSecret, 'dev', url)).toMatch(/^whsec_[A-Za-z0-9_-]{32}$/);
  });
});
