// The x-service-signature header as a partner's server reads it: what is tolerated (spaces around
// entries), what is refused and what each refusal says, and the timestamp signWebhook puts in it.
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  parseSignatureHeader,
  signWebhook,
  signWebhookAsync,
  verifyWebhook,
  WebhookSignatureError,
} from '../../src/webhooks/index.js';
import { thrown } from '../support/thrown.js';

const hex = 'a'.repeat(64);

describe('parseSignatureHeader', () => {
  it('says the header is missing when there is none', () => {
    for (const header of [undefined, null, '']) {
      expect(thrown(() => parseSignatureHeader(header))).toMatchObject({
        name: 'WebhookSignatureError',
        reason: 'missing_header',
        message: 'The x-service-signature header is missing.',
      });
    }
  });

  it('reads entries with spaces around keys and values', () => {
    expect(parseSignatureHeader(` t = 1763700000 , v0 = ${hex} `)).toEqual({
      timestamp: 1763700000,
      timestampText: '1763700000',
      signatures: [hex],
    });
  });

  it.each([
    ['an entry without "="', `t=1763700000,v0=${hex},garbage`, 'garbage'],
    ['an entry without a key', `t=1763700000,v0=${hex},=${hex}`, `=${hex}`],
    ['an entry without a value', `t=1763700000,v0=${hex},v1=`, 'v1='],
  ])('refuses %s, naming it', (_case, header, entry) => {
    const error = thrown(() => parseSignatureHeader(header));
    expect(error).toBeInstanceOf(WebhookSignatureError);
    expect(error).toMatchObject({
      reason: 'malformed_header',
      message: `x-service-signature has a malformed entry ${JSON.stringify(entry)}; expected t=<unix>,v0=<hex>.`,
    });
  });

  it.each([
    ['13 digits', '0001763700000'],
    ['a leading letter', 'x1763700000'],
    ['a trailing letter', '1763700000x'],
  ])('refuses a t with %s', (_case, value) => {
    expect(thrown(() => parseSignatureHeader(`t=${value},v0=${hex}`))).toMatchObject({
      reason: 'malformed_header',
      message: 'x-service-signature must carry exactly one numeric t=<unix-timestamp>.',
    });
  });

  it.each([
    ['65 hex digits', `${hex}a`],
    ['a leading non-hex character', `x${hex}`],
    ['a trailing non-hex character', `${hex}x`],
  ])('refuses a v0 with %s', (_case, value) => {
    expect(thrown(() => parseSignatureHeader(`t=1763700000,v0=${value}`))).toMatchObject({
      reason: 'malformed_header',
      message: 'x-service-signature has a v0 that is not 64 hex digits.',
    });
  });

  it('says which required entry is absent', () => {
    expect(thrown(() => parseSignatureHeader(`v0=${hex}`))).toMatchObject({
      reason: 'malformed_header',
      message: 'x-service-signature has no t=<unix-timestamp>.',
    });
    expect(thrown(() => parseSignatureHeader(`t=1763700000,v1=${hex}`))).toMatchObject({
      reason: 'no_signature',
      message: 'x-service-signature has no v0 signature.',
    });
  });
});

describe('the default timestamp of signWebhook and signWebhookAsync', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is the current time in whole seconds, which verifyWebhook accepts', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(1_763_700_000_999);
    const payload = {
      webhook_delivery_id: 'dlv_1',
      event_type: 'dispute.created',
      data: { dispute_id: 'd', state: 'needs_response' },
    };
    const signed = signWebhook(payload, 'whsec_now');
    expect(signed.timestamp).toBe(1_763_700_000);
    expect(signed.signatureHeader).toMatch(/^t=1763700000,v0=[0-9a-f]{64}$/);
    expect((await signWebhookAsync(payload, 'whsec_now')).timestamp).toBe(1_763_700_000);
    expect(
      verifyWebhook({ rawBody: signed.body, signatureHeader: signed.signatureHeader, secret: 'whsec_now' })
        .webhook_delivery_id,
    ).toBe('dlv_1');
  });
});
