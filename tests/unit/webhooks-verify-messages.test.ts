// What verifyWebhook and verifyWebhookAsync tell a partner when they refuse a delivery: each
// message names the problem with the numbers at hand, and the envelope check says exactly which
// bodies are an envelope. Every test runs against both flavours.
import { describe, expect, it } from 'vitest';
import {
  signWebhook,
  verifyWebhook,
  verifyWebhookAsync,
  type VerifyWebhookOptions,
  type WebhookEvent,
} from '../../src/webhooks/index.js';

const flavours: Array<{ name: string; verify: (options: VerifyWebhookOptions) => Promise<WebhookEvent> }> = [
  { name: 'sync (node:crypto)', verify: async (o) => verifyWebhook(o) },
  { name: 'async (Web Crypto)', verify: verifyWebhookAsync },
];

const secret = 'whsec_test_51Hq8';
const now = 1_763_700_000_000;
const t = now / 1000;
const event = {
  webhook_delivery_id: 'dlv_1',
  event_type: 'dispute.created',
  data: { dispute_id: 'd', state: 'needs_response' },
};
const signedWith = (payload: unknown): VerifyWebhookOptions => {
  const s = signWebhook(payload, secret, t);
  return { rawBody: s.body, signatureHeader: s.signatureHeader, secret, now };
};
const base = signedWith(event);

async function rejection(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

const envelopeMessage = 'The signed body is not a webhook envelope {webhook_delivery_id, event_type, data}.';

describe.each(flavours)('$name', ({ verify }) => {
  it('rejects with a WebhookSignatureError named so', async () => {
    const error = await rejection(() => verify({ ...base, secret: 'other' }));
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      name: 'WebhookSignatureError',
      reason: 'signature_mismatch',
      message: 'No v0 signature matches: check the signing secret, and that the body is passed exactly as received.',
    });
  });

  it('says what it got instead of a raw body, and how to capture one', async () => {
    const parsed = await rejection(() => verify({ ...base, rawBody: JSON.parse(base.rawBody as string) as string }));
    expect(parsed).toMatchObject({
      reason: 'body_not_raw',
      message:
        'rawBody must be the request body exactly as received (string, Buffer or Uint8Array), but got object. ' +
        'A parsed and re-serialized body does not match the signature: capture the raw body (express.raw({ type: "application/json" }), ' +
        'or a Fastify content-type parser with parseAs: "buffer"; in a fetch handler, await request.text()).',
    });
    const none = await rejection(() => verify({ ...base, rawBody: null as unknown as string }));
    expect(none).toMatchObject({ reason: 'body_not_raw', message: expect.stringContaining('but got null. A parsed') });
  });

  it.each([
    ['an empty one among several', [secret, '']],
    ['a non-string among several', [secret, 42]],
  ])('refuses secrets with %s', async (_case, secrets) => {
    const error = await rejection(() => verify({ ...base, secret: secrets as string[] }));
    expect(error).toMatchObject({
      name: 'WebhookSignatureError',
      reason: 'secret_invalid',
      message: 'secret must be a non-empty string (or a list of them during a rotation).',
    });
  });

  it('says how old or how far ahead the timestamp is, and the tolerance', async () => {
    expect(await rejection(() => verify({ ...base, now: now + 301_000 }))).toMatchObject({
      reason: 'timestamp_too_old',
      message: 'The signature timestamp is 301 s old, beyond the 300 s tolerance (a replay, or a clock off).',
    });
    expect(await rejection(() => verify({ ...base, now: now - 302_000, toleranceSeconds: 60 }))).toMatchObject({
      reason: 'timestamp_in_future',
      message: "The signature timestamp is 302 s in the future, beyond the 60 s tolerance (check this server's clock).",
    });
  });

  it('accepts a tolerance of 0: the same second only', async () => {
    expect((await verify({ ...base, now: now + 999, toleranceSeconds: 0 })).webhook_delivery_id).toBe('dlv_1');
    expect(await rejection(() => verify({ ...base, now: now + 1000, toleranceSeconds: 0 }))).toMatchObject({
      reason: 'timestamp_too_old',
      message: 'The signature timestamp is 1 s old, beyond the 0 s tolerance (a replay, or a clock off).',
    });
  });

  it('says when the signed body is not JSON', async () => {
    expect(await rejection(() => verify(signedWith('{"event_type":')))).toMatchObject({
      reason: 'payload_invalid',
      message: 'The signed body is not JSON.',
    });
  });

  it.each<[string, unknown]>([
    ['a number', 42],
    ['a JSON string', 'dispute.created'],
    ['null', null],
    ['an array', [event]],
    ['no event_type', { webhook_delivery_id: 'dlv_1', data: {} }],
    ['a numeric event_type', { webhook_delivery_id: 'dlv_1', event_type: 42, data: {} }],
    ['a null data', { webhook_delivery_id: 'dlv_1', event_type: 'dispute.created', data: null }],
    ['a numeric webhook_delivery_id', { webhook_delivery_id: 42, event_type: 'dispute.created', data: {} }],
  ])('refuses a signed body with %s as no envelope', async (_case, payload) => {
    const options = signedWith(JSON.stringify(payload));
    expect(await rejection(() => verify(options))).toMatchObject({
      reason: 'payload_invalid',
      message: envelopeMessage,
    });
  });

  it('accepts an envelope without webhook_delivery_id', async () => {
    const payload = { event_type: 'dispute.created', data: { dispute_id: 'd', state: 'needs_response' } };
    expect(await verify(signedWith(payload))).toEqual(payload);
  });
});
