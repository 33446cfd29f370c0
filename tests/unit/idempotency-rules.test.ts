// The idempotency comparison itself, driven by the contract's x-idempotency lists.
import { describe, expect, it } from 'vitest';
import { checkRules, divergingFields, type IdempotencyRules } from '../../src/sandbox/domain/idempotency.js';
import type { CreateSessionRequest } from '../../src/sandbox/domain/types.js';
import { operationById } from '../../testkit/contract.js';

const rules = operationById('createPaymentSession').op['x-idempotency'] as IdempotencyRules;
const noCharges = { total_additional_charges: 0, total_discounts: 0 };
const base: CreateSessionRequest = {
  total_amount: 0,
  amount_details: noCharges,
  success_url: 'https://a.example',
  failure_url: 'https://b.example',
  order_items: [{ name: 'Trial', quantity: 1, price: 0, amount_details: noCharges }],
};
const trial = { ...base, tokenize: true, display_next_bill_info: { total_amount: 2500, date: '2026-12-21' } };

describe('divergingFields', () => {
  it('reads every field the contract compares', () => {
    expect(() => checkRules(rules)).not.toThrow();
    expect(() => checkRules({ ...rules, compared: [...rules.compared, 'shipping_address.city'] })).toThrow(
      /shipping_address.city/,
    );
  });

  it('compares is_free_trial only when the original had it', () => {
    expect(divergingFields(trial, base, rules)).toContain('is_free_trial');
    expect(divergingFields(base, trial, rules)).not.toContain('is_free_trial');
    expect(divergingFields(base, trial, rules)).toEqual([
      'display_next_bill_info.total_amount',
      'display_next_bill_info.date',
    ]);
  });

  it('compares payment_token only when the retry carries it', () => {
    expect(divergingFields({ ...base, payment_token: 'a' }, base, rules)).toEqual([]);
    expect(divergingFields(base, { ...base, payment_token: 'a' }, rules)).toEqual(['payment_token']);
  });

  it('compares customer_email only when neither request carries a payment_token', () => {
    const email = { ...base, customer_email: 'jane@example.com' };
    expect(divergingFields(email, { ...base, customer_email: 'other@example.com' }, rules)).toEqual(['customer_email']);
    expect(divergingFields(email, base, rules)).toEqual(['customer_email']);
    expect(divergingFields({ ...email, payment_token: 'a' }, { ...base, payment_token: 'a' }, rules)).toEqual([]);
    expect(
      divergingFields({ ...email, payment_token: 'a' }, { ...base, customer_email: 'other@example.com' }, rules),
    ).toEqual([]);
    expect(divergingFields(email, { ...base, payment_token: 'a', customer_email: 'other@example.com' }, rules)).toEqual(
      ['payment_token'],
    );
  });

  it('ignores the fields rule 4 lists', () => {
    expect(
      divergingFields(
        base,
        {
          ...base,
          customer_name: 'x',
          metadata: 'y',
          customer_state: 'NY',
          test_config: { scenario: 'x' },
          use_iframe: true,
        },
        rules,
      ),
    ).toEqual([]);
  });
});
