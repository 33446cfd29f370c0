// A new session as built from its create request: the fields it carries only when the request,
// the token or the customer gave them, and the customer a session of its own gets.
import { describe, expect, it } from 'vitest';
import { newSession, orderItems, sessionCustomerKey } from '../../src/sandbox/domain/create-session.js';
import { SESSION_SHAPE_VERSION } from '../../src/sandbox/domain/session-shape.js';
import type { CreateSessionRequest } from '../../src/sandbox/domain/types.js';

const noCharges = { total_additional_charges: 0, total_discounts: 0 };
const plain: CreateSessionRequest = {
  total_amount: 2500,
  amount_details: noCharges,
  success_url: 'https://shop.example/ok',
  failure_url: 'https://shop.example/ko',
  order_items: [{ name: 'Thermometer', quantity: 1, price: 2500, amount_details: noCharges }],
};
const fixed = { id: 's-1', channel: 'c-1', now: '2026-11-25T08:00:00.000Z', newId: () => 'item-1' };
const item = {
  item_id: 'item-1',
  name: 'Thermometer',
  quantity: 1,
  price: 2500,
  total_additional_charges: 0,
  total_discounts: 0,
  captured: 0,
  refunded: 0,
  disputed: 0,
};

describe('newSession', () => {
  it('carries no optional field the request, token and customer did not give', () => {
    expect(newSession({ ...fixed, request: plain })).toStrictEqual({
      shape_version: SESSION_SHAPE_VERSION,
      id: 's-1',
      channel: 'c-1',
      kind: 'one_time_payment',
      status: 'pending',
      created_at: fixed.now,
      request: plain,
      total_amount: 2500,
      items: [item],
      capture_keys: {},
      void_keys: {},
      refunds: [],
      disputes: [],
    });
  });

  it('carries the key, token, customer, business id and issued token when given', () => {
    const request = {
      ...plain,
      idempotency_key: 'k-1',
      payment_token: 'tok-1',
      customer_email: 'jane@example.com',
      customer_name: 'Jane',
    };
    const session = newSession({ ...fixed, request, userBusinessId: 'ub-1', issuedToken: 'tok-2' });
    expect(session).toMatchObject({
      idempotency_key: 'k-1',
      payment_token: 'tok-1',
      customer_email: 'jane@example.com',
      customer_name: 'Jane',
      user_business_id: 'ub-1',
      issued_payment_token: 'tok-2',
    });
  });

  it('takes the identity of the token user over the request, leaving out what the user lacks', () => {
    const request = { ...plain, payment_token: 'tok-1', customer_email: 'other@example.com', customer_name: 'Other' };
    const session = newSession({ ...fixed, request, tokenUser: { customer_email: 'jane@example.com' } });
    expect(session.payment_token).toBe('tok-1');
    expect(session.customer_email).toBe('jane@example.com');
    expect(Object.keys(session)).not.toContain('customer_name');
  });
});

describe('orderItems', () => {
  it('keeps a sku and an item id given, and adds neither when absent', () => {
    const request = {
      ...plain,
      order_items: [{ ...plain.order_items[0]!, item_id: 'mine', sku: 'TH-10' }, plain.order_items[0]!],
    };
    expect(orderItems(request, () => 'new')).toStrictEqual([
      { ...item, item_id: 'mine', sku: 'TH-10' },
      { ...item, item_id: 'new' },
    ]);
  });
});

describe('sessionCustomerKey', () => {
  it('is the token user, else the email, else a customer of the session itself', () => {
    expect(sessionCustomerKey({ ...plain, customer_email: 'Jane@Example.com' }, 's-1', 'tok-user')).toBe('tok-user');
    expect(sessionCustomerKey({ ...plain, customer_email: ' Jane@Example.com ' }, 's-1', undefined)).toBe(
      'jane@example.com',
    );
    expect(sessionCustomerKey(plain, 's-1', undefined)).toBe('session:s-1');
    expect(sessionCustomerKey(plain, 's-2', undefined)).not.toBe(sessionCustomerKey(plain, 's-1', undefined));
  });
});
