// Payment tokens called directly: what a charge with a token asks of the customer, in what order,
// the card a token without a brand shows, and the fields payment_token.updated leaves out.
import { describe, expect, it } from 'vitest';
import type { Letter } from '../../src/sandbox/domain/letters.js';
import { chargeNeeds, tokenUpdatedEvent, tokenView } from '../../src/sandbox/domain/payment-tokens.js';
import type { PaymentTokenRecord } from '../../src/sandbox/domain/types.js';

const NOW = '2026-03-01T12:00:00.000Z';

function token(overrides: Partial<PaymentTokenRecord> = {}): PaymentTokenRecord {
  return {
    token: 'tok-1',
    channel: 'dev',
    session_id: null,
    status: 'active',
    next_action: null,
    created_at: NOW,
    customer_email: 'jane.doe@example.com',
    customer_name: 'Jane Doe',
    customer_key: 'cust-1',
    user_business_id: null,
    card_brand: 'visa',
    card_last4: '4242',
    card_expires: '2030-12',
    lmn_expires_at: null,
    provision_request_id: null,
    metadata: '{"k":"v"}',
    success_url: null,
    failure_url: null,
    ...overrides,
  };
}
const standing: Letter = {
  seq: 1,
  customer_key: 'cust-1',
  provision_request_id: null,
  status: 'approved',
  skus: ['BPM-200'],
  expires_on: '2026-12-31',
  created_at: NOW,
};
const EXPIRED_CARD = { card_expires: '2026-02' };

describe('what a charge with a token needs', () => {
  it('nothing with a valid card and every letter item covered', () => {
    expect(chargeNeeds(token(), ['BPM-200'], [standing], NOW)).toEqual([]);
  });

  it('the survey before the card when an uncovered item and an expired card both need doing', () => {
    expect(chargeNeeds(token(EXPIRED_CARD), ['BPM-200'], [], NOW)).toEqual(['survey', 'card']);
    expect(chargeNeeds(token({ ...EXPIRED_CARD, next_action: 'TakeHealthSurvey' }), [], [], NOW)).toEqual([
      'survey',
      'card',
    ]);
  });

  it('a required card update comes first, then the survey', () => {
    expect(chargeNeeds(token({ next_action: 'UpdatePaymentMethod' }), ['BPM-200'], [], NOW)).toEqual([
      'card',
      'survey',
    ]);
    expect(chargeNeeds(token({ next_action: 'UpdatePaymentMethod' }), [], [], NOW)).toEqual(['card']);
  });

  it('asks for the card once when the required update is also for an expired card', () => {
    expect(chargeNeeds(token({ ...EXPIRED_CARD, next_action: 'UpdatePaymentMethod' }), [], [], NOW)).toEqual(['card']);
    expect(chargeNeeds(token({ ...EXPIRED_CARD, next_action: 'UpdatePaymentMethod' }), ['BPM-200'], [], NOW)).toEqual([
      'card',
      'survey',
    ]);
  });
});

describe('a token as retrieve shows it', () => {
  it("names a card without a known brand 'card'", () => {
    expect(tokenView(token({ card_brand: null })).payment_methods).toEqual([
      { type: 'card', brand: 'card', last4: '4242', exp_month: 12, exp_year: 2030 },
    ]);
  });
});

describe('payment_token.updated', () => {
  it('carries the customer and metadata it has', () => {
    expect(tokenUpdatedEvent(token(), {}).data).toMatchObject({
      customer_email: 'jane.doe@example.com',
      customer_name: 'Jane Doe',
      metadata: '{"k":"v"}',
    });
  });

  it('leaves out a customer email, name and metadata the token lacks', () => {
    const { data } = tokenUpdatedEvent(token({ customer_email: null, customer_name: null, metadata: null }), {
      payment_session_id: 'ps-1',
    });
    expect(data).toEqual({ payment_token: 'tok-1', payment_session_id: 'ps-1', lmn_expires_at: null });
  });
});
