// parseLegacyWebhook tells an event by its shape: each kind needs all of its identifying fields, a
// body that is no object or that carries either envelope field is refused with its reason, and an
// empty shared secret is a configuration error, never a secret that an absent header matches.
import { describe, expect, it } from 'vitest';
import { parseLegacyWebhook, WebhookPayloadError, WebhookSignatureError } from '../../src/webhooks/index.js';
import { thrown } from '../support/thrown.js';

describe('parseLegacyWebhook', () => {
  it.each(['null', '42', '"payment_token"', 'true'])('refuses the JSON %s as not an object', (body) => {
    const error = thrown(() => parseLegacyWebhook(body));
    expect(error).toBeInstanceOf(WebhookPayloadError);
    expect(error).toMatchObject({ reason: 'not_an_object', message: 'The legacy webhook body is not a JSON object.' });
  });

  it.each([
    ['event_type', { event_type: 'payment_token.updated', payment_token: 'ptok_1' }],
    ['webhook_delivery_id', { webhook_delivery_id: 'dlv_1', payment_token: 'ptok_1' }],
  ])('refuses a body with only %s of the envelope as a signed envelope', (_field, body) => {
    expect(thrown(() => parseLegacyWebhook(JSON.stringify(body)))).toMatchObject({
      name: 'WebhookPayloadError',
      reason: 'signed_envelope',
    });
  });

  it.each<[string, object, string]>([
    ['a payment_id without status', { payment_id: 'p', payment_token: 'ptok_1' }, 'payment_token_updated'],
    ['a status without payment_id', { status: 'active', payment_token: 'ptok_1' }, 'payment_token_updated'],
    ['a numeric status', { payment_id: 'p', status: 1, dispute_id: 'd', state: 'needs_response' }, 'dispute'],
  ])('does not take %s for a payment_session_complete', (_case, body, kind) => {
    expect(parseLegacyWebhook(JSON.stringify(body)).kind).toBe(kind);
  });

  it.each<[string, object]>([
    ['a null object', { object: null }],
    ['an object without sku', { object: { name: 'Blood pressure monitor' } }],
    ['a dispute_id without state', { dispute_id: 'd' }],
    ['a state without dispute_id', { state: 'needs_response' }],
  ])('refuses %s as no known event', (_case, body) => {
    const error = thrown(() => parseLegacyWebhook(JSON.stringify(body)));
    expect(error).toBeInstanceOf(WebhookPayloadError);
    expect(error).toMatchObject({ reason: 'unknown_event' });
  });

  it('refuses with a WebhookSignatureError named so when the header does not match', () => {
    expect(
      thrown(() =>
        parseLegacyWebhook('{"payment_token":"ptok_1"}', { apiKeyHeader: undefined, sharedSecret: 'shared' }),
      ),
    ).toMatchObject({
      name: 'WebhookSignatureError',
      reason: 'signature_mismatch',
      message: 'The x-service-api-key header does not equal the shared secret.',
    });
  });

  it.each([undefined, null, '', 'anything'])(
    'refuses an empty shared secret as invalid, with the header %j',
    (apiKeyHeader) => {
      const error = thrown(() => parseLegacyWebhook('{"payment_token":"ptok_1"}', { apiKeyHeader, sharedSecret: '' }));
      expect(error).toBeInstanceOf(WebhookSignatureError);
      expect(error).toMatchObject({
        reason: 'secret_invalid',
        message: expect.stringMatching(/sharedSecret is empty/),
      });
    },
  );
});
