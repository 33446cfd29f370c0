import { describe, expect, it } from 'vitest';
import {
  createDeliveryDeduplicator,
  parseLegacyWebhook,
  WebhookPayloadError,
  WebhookSignatureError,
  type WebhookPayloadFailure,
} from '../../src/webhooks/index.js';
import { contract, resolve } from '../../testkit/contract.js';

const example = (name: string) => resolve<{ value: unknown }>(contract.components.examples![name]).value;

describe('parseLegacyWebhook', () => {
  it.each([
    ['PaymentSessionCompleteLegacyPayload', 'payment_session_complete'],
    ['PaymentTokenUpdatedLegacyPayload', 'payment_token_updated'],
    ['ItemEligibilityUpdatedLegacyPayload', 'item_eligibility_updated'],
    ['DisputeLegacyPayload', 'dispute'],
  ])('recognises the contract example %s as %s', (name, kind) => {
    const body = example(name);
    expect(parseLegacyWebhook(JSON.stringify(body))).toEqual({ kind, data: body });
    expect(parseLegacyWebhook(Buffer.from(JSON.stringify(body))).kind).toBe(kind);
  });

  it('checks the shared secret in x-service-api-key when given', () => {
    const body = JSON.stringify(example('PaymentTokenUpdatedLegacyPayload'));
    expect(parseLegacyWebhook(body, { apiKeyHeader: 'shared', sharedSecret: 'shared' }).kind).toBe(
      'payment_token_updated',
    );
    expect(() => parseLegacyWebhook(body, { apiKeyHeader: 'wrong', sharedSecret: 'shared' })).toThrow(
      WebhookSignatureError,
    );
    expect(() => parseLegacyWebhook(body, { apiKeyHeader: null, sharedSecret: 'shared' })).toThrow(/does not equal/);
  });

  it('refuses a shared secret that is a prefix or an extension of the real one', () => {
    const body = JSON.stringify(example('PaymentTokenUpdatedLegacyPayload'));
    expect(() => parseLegacyWebhook(body, { apiKeyHeader: 'shared-and-more', sharedSecret: 'shared' })).toThrow(
      WebhookSignatureError,
    );
    expect(() => parseLegacyWebhook(body, { apiKeyHeader: 'shar', sharedSecret: 'shared' })).toThrow(
      WebhookSignatureError,
    );
    expect(() => parseLegacyWebhook(body, { apiKeyHeader: 'x', sharedSecret: '' })).toThrow(WebhookSignatureError);
  });

  // A bad body is no signature failure: it gets its own error class and a reason that says why.
  it.each<[WebhookPayloadFailure, string | object, RegExp]>([
    ['signed_envelope', JSON.stringify(example('DisputeCreatedEvent')), /verifyWebhook/],
    ['not_json', '{oops', /not JSON/],
    ['not_json', new TextEncoder().encode('{oops'), /not JSON/],
    ['not_an_object', '[]', /not a JSON object/],
    ['unknown_event', { hello: 'world' }, /matches no known event/],
  ])('refuses a body with reason %s', (reason, body, message) => {
    const error = (() => {
      try {
        parseLegacyWebhook(body);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(WebhookPayloadError);
    expect(error).not.toBeInstanceOf(WebhookSignatureError);
    expect(error).toMatchObject({ name: 'WebhookPayloadError', reason, message: expect.stringMatching(message) });
  });
});

describe('createDeliveryDeduplicator', () => {
  it('records a new webhook_delivery_id, and reports a retry of it as not new', () => {
    const dedupe = createDeliveryDeduplicator();
    expect(dedupe.recordIfNew('dlv_1')).toBe(true);
    expect(dedupe.recordIfNew('dlv_2')).toBe(true);
    expect(dedupe.size).toBe(2);
    expect(dedupe.recordIfNew('dlv_1')).toBe(false);
    expect(dedupe.size).toBe(2);
  });

  it('forgets an id whose handling failed, so that the retry is processed', () => {
    const dedupe = createDeliveryDeduplicator();
    dedupe.recordIfNew('dlv_1');
    dedupe.forget('dlv_1');
    expect(dedupe.recordIfNew('dlv_1')).toBe(true);
  });

  it('remembers for the retry window, then forgets', () => {
    let clock = 0;
    const dedupe = createDeliveryDeduplicator({ ttlMs: 1000, now: () => clock });
    dedupe.recordIfNew('dlv_1');
    clock = 999;
    expect(dedupe.recordIfNew('dlv_1')).toBe(false);
    clock = 2000;
    expect(dedupe.recordIfNew('dlv_1')).toBe(true);
  });

  it('keeps at most maxEntries ids, dropping the oldest', () => {
    const dedupe = createDeliveryDeduplicator({ maxEntries: 2 });
    for (const id of ['dlv_1', 'dlv_2', 'dlv_3']) dedupe.recordIfNew(id);
    expect(dedupe.size).toBe(2);
    expect(dedupe.recordIfNew('dlv_3')).toBe(false);
    expect(dedupe.recordIfNew('dlv_1')).toBe(true);
  });
});
