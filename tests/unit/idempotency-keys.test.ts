// Which request fields a retry may change, and how a case-insensitive field compares.
import { describe, expect, it } from 'vitest';
import {
  checkRules,
  divergingFields,
  ignoredByReplay,
  type IdempotencyRules,
} from '../../src/sandbox/domain/idempotency.js';
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

describe('idempotency rules', () => {
  it('never takes the key itself for a field a retry may change', () => {
    expect(ignoredByReplay(rules)(rules.key)).toBe(false);
    expect(ignoredByReplay(rules)('metadata')).toBe(true);
  });

  it('names every field it cannot read, separated by commas', () => {
    expect(() => checkRules({ ...rules, compared: [...rules.compared, 'a.b', 'c.d'] })).toThrow(
      'cannot read: a.b, c.d',
    );
  });

  it('compares customer_email by its lower case', () => {
    expect(
      divergingFields(
        { ...base, customer_email: 'Jane@Example.com' },
        { ...base, customer_email: 'jane@example.com' },
        rules,
      ),
    ).toEqual([]);
    // Dotless "ı" and "i" upper-case alike ("I") but are distinct letters under Unicode case folding.
    expect(
      divergingFields(
        { ...base, customer_email: 'jıll@example.com' },
        { ...base, customer_email: 'jill@example.com' },
        rules,
      ),
    ).toEqual(['customer_email']);
  });
});
