import { describe, expect, it } from 'vitest';
import { createDeliveryDeduplicator, parseLegacyWebhook, WebhookSignatureError } from '../../src/webhooks/index.js';
import { contract, resolve } from '../support/contract.js';

const example = (name: string) => resolve<{ value: unknown }>(contract.components.examples![name]).value;

describe('parseLegacyWebhook', () => {
  it.each([
    ['PaymentSessionCompleteLegacyPayload', 'payment_session_complete'],
    ['PaymentTokenUpdatedLegacyPayload', 'payment_token_updated'],
    ['ItemEligibilityUpdatedLegacyPayload', 'item_eligibility_updated'],
  ])('recognises the contract example %s as %s', (name, kind) => {
    const body = example(name);
    expect(parseLegacyWebhook(JSON.stringify(body))).toEqual({ kind, data: body });
    expect(parseLegacyWebhook(Buffer.from(JSON.stringify(body))).kind).toBe(kind);
  });

  it('checks the shared secret in x-service-api-key when given', () => {
    const body = JSON.stringify(example('PaymentTokenUpdatedLegacyPayload'));
    expect(parseLegacyWebhook(body, { apiKeyHeader: 'shared', sharedSecret: 'shared' }).kind).toBe('payment_token_updated');
    expect(() => parseLegacyWebhook(body, { apiKeyHeader: 'wrong', sharedSecret: 'shared' })).toThrow(WebhookSignatureError);
    expect(() => parseLegacyWebhook(body, { apiKeyHeader: null, sharedSecret: 'shared' })).toThrow(/does not equal/);
  });

  it('refuses a signed envelope, non-JSON and unknown shapes', () => {
    expect(() => parseLegacyWebhook(JSON.stringify(example('DisputeCreatedEvent')))).toThrow(/verifyWebhook/);
    expect(() => parseLegacyWebhook('{oops')).toThrow(/not JSON/);
    expect(() => parseLegacyWebhook('[]')).toThrow(/not a JSON object/);
    expect(() => parseLegacyWebhook({ hello: 'world' })).toThrow(/matches no known event/);
  });
});

describe('createDeliveryDeduplicator', () => {
  it('reports a retry of the same webhook_delivery_id as a duplicate', () => {
    const dedupe = createDeliveryDeduplicator();
    expect(dedupe.isDuplicate('dlv_1')).toBe(false);
    expect(dedupe.isDuplicate('dlv_2')).toBe(false);
    expect(dedupe.isDuplicate('dlv_1')).toBe(true);
  });

  it('forgets an id whose handling failed, so that the retry is processed', () => {
    const dedupe = createDeliveryDeduplicator();
    dedupe.isDuplicate('dlv_1');
    dedupe.forget('dlv_1');
    expect(dedupe.isDuplicate('dlv_1')).toBe(false);
  });

  it('remembers for the retry window, then forgets', () => {
    let clock = 0;
    const dedupe = createDeliveryDeduplicator({ ttlMs: 1000, now: () => clock });
    dedupe.isDuplicate('dlv_1');
    clock = 999;
    expect(dedupe.isDuplicate('dlv_1')).toBe(true);
    clock = 2000;
    expect(dedupe.isDuplicate('dlv_1')).toBe(false);
  });

  it('keeps at most maxEntries ids, dropping the oldest', () => {
    const dedupe = createDeliveryDeduplicator({ maxEntries: 2 });
    for (const id of ['dlv_1', 'dlv_2', 'dlv_3']) dedupe.isDuplicate(id);
    expect(dedupe.size).toBe(2);
    expect(dedupe.isDuplicate('dlv_3')).toBe(true);
    expect(dedupe.isDuplicate('dlv_1')).toBe(false);
  });
});
