// The rules of create_payment_session beyond the schema, called directly: each refusal's code and
// the message a partner reads, the URLs the sandbox takes, and the merchant features.
import { describe, expect, it } from 'vitest';
import { expectedTotal } from '../../src/sandbox/domain/amounts.js';
import { checkCreateRules, isValidUrl, type TokenFacts } from '../../src/sandbox/domain/create-session.js';
import type { CreateSessionRequest, Features } from '../../src/sandbox/domain/types.js';

const noCharges = { total_additional_charges: 0, total_discounts: 0 };
const base: CreateSessionRequest = {
  total_amount: 2500,
  amount_details: noCharges,
  success_url: 'https://shop.example/ok',
  failure_url: 'https://shop.example/ko',
  order_items: [{ name: 'Thermometer', quantity: 1, price: 2500, amount_details: noCharges }],
};
const trial = {
  ...base,
  total_amount: 0,
  order_items: [{ name: 'Trial', quantity: 1, price: 0, amount_details: noCharges }],
  display_next_bill_info: { total_amount: 2500, date: '2026-12-21' },
};
const all: Features = { authorization: true, tokenization: true };
const usable: TokenFacts = { exists: true, deleted: false, pendingCheckout: false, needs: [] };

/** What checkCreateRules threw, for its code and message. */
function refusal(run: () => unknown): { code: string; message: string } {
  try {
    run();
  } catch (error) {
    return error as { code: string; message: string };
  }
  throw new Error('expected a refusal');
}

describe('redirect URLs', () => {
  it('takes only http and https, whatever the host', () => {
    expect(isValidUrl('https://shop.example/ok')).toBe(true);
    expect(isValidUrl('http://shop.example/ok')).toBe(true);
    expect(isValidUrl('ftp://shop.example/ok')).toBe(false);
    expect(isValidUrl('ws://shop.example/ok')).toBe(false);
  });

  it('takes an IPv6 address as the host', () => {
    expect(isValidUrl('http://[::1]:8080/done')).toBe(true);
    expect(isValidUrl('https://[2001:db8::1]/done')).toBe(true);
  });

  it('takes DNS labels of a single character after the first', () => {
    expect(isValidUrl('https://a.b.example/done')).toBe(true);
    expect(isValidUrl('https://shop.x/done')).toBe(true);
  });

  it('takes the placeholder inside a host label, as long as the host holds with the id and with nothing', () => {
    const request = { ...base, success_url: 'https://pay{{payment_session_id}}.shop.example/ok' };
    expect(checkCreateRules(request, all, undefined)).toEqual([]);
  });

  it('refuses a URL that breaks once the placeholder is left empty, as on the page of a 422', () => {
    expect(
      refusal(() => checkCreateRules({ ...base, success_url: 'http://{{payment_session_id}}' }, all, undefined)),
    ).toMatchObject({
      code: 'InvalidRequestParameter',
      message: expect.stringMatching(/^success_url is not a valid URL once \{\{payment_session_id\}\} is left empty/),
    });
  });

  it('refuses a URL that breaks once the session id is put in, though it holds with the placeholder left empty', () => {
    const request = { ...base, success_url: 'https://shop.example:{{payment_session_id}}/ok' };
    expect(refusal(() => checkCreateRules(request, all, undefined))).toMatchObject({
      code: 'InvalidRequestParameter',
      message: 'success_url is not a valid URL.',
    });
    const failure = { ...base, failure_url: 'http{{payment_session_id}}://shop.example/ko' };
    expect(refusal(() => checkCreateRules(failure, all, undefined))).toMatchObject({
      code: 'InvalidRequestParameter',
      message: 'failure_url is not a valid URL.',
    });
  });
});

describe('order items and amounts', () => {
  it('refuses an empty order_items, saying it needs an item', () => {
    expect(
      refusal(() => checkCreateRules({ ...base, total_amount: 0, order_items: [] }, all, undefined)),
    ).toMatchObject({
      code: 'OrderItemsInvalid',
      message: expect.stringMatching(/order_items must hold at least one item/),
    });
  });

  it('refuses a total of 0 outside a free trial, naming it', () => {
    const free = {
      ...base,
      total_amount: 0,
      order_items: [{ name: 'Sample', quantity: 1, price: 0, amount_details: noCharges }],
    };
    expect(refusal(() => checkCreateRules(free, all, undefined))).toMatchObject({
      code: 'TotalAmountInvalid',
      message: 'total_amount must be greater than 0, not 0.',
    });
  });

  it('refuses a negative total, naming it', () => {
    const negative = {
      ...base,
      total_amount: -100,
      order_items: [{ name: 'Credit', quantity: 1, price: -100, amount_details: noCharges }],
    };
    expect(refusal(() => checkCreateRules(negative, all, undefined))).toMatchObject({
      code: 'TotalAmountInvalid',
      message: 'total_amount must be greater than 0, not -100.',
    });
  });

  it('refuses an item whose quantity × price is beyond 2^53, naming the item', () => {
    const item = { name: 'Bulk', quantity: 2 ** 30, price: 2 ** 30, amount_details: noCharges };
    const request = { ...base, order_items: [base.order_items[0]!, item] };
    const refused = refusal(() =>
      checkCreateRules({ ...request, total_amount: expectedTotal(request) }, all, undefined),
    );
    expect(refused).toMatchObject({
      code: 'OrderItemsInvalid',
      message: `order_items[1] has an amount beyond ${Number.MAX_SAFE_INTEGER} cents.`,
    });
  });

  it('refuses an item with one amount beyond 2^53, though the others are whole cents', () => {
    const item = {
      name: 'Fee',
      quantity: 1,
      price: 100,
      amount_details: { total_additional_charges: 2 ** 53 + 2, total_discounts: 0 },
    };
    const request = { ...base, order_items: [item] };
    const refused = refusal(() =>
      checkCreateRules({ ...request, total_amount: expectedTotal(request) }, all, undefined),
    );
    expect(refused).toMatchObject({
      code: 'OrderItemsInvalid',
      message: expect.stringMatching(/^order_items\[0\] has an amount beyond/),
    });
  });

  it('refuses a session amount beyond 2^53 even when the total adds up', () => {
    const request = { ...base, amount_details: { total_additional_charges: 2 ** 53 + 2, total_discounts: 0 } };
    const refused = refusal(() =>
      checkCreateRules({ ...request, total_amount: expectedTotal(request) }, all, undefined),
    );
    expect(refused).toMatchObject({
      code: 'TotalAmountInvalid',
      message: `Amounts must be whole cents below ${Number.MAX_SAFE_INTEGER}.`,
    });
  });
});

describe('tokens and free trials', () => {
  it('refuses tokenize=true with a payment_token, and takes tokenize=false', () => {
    expect(
      refusal(() => checkCreateRules({ ...base, payment_token: 'tok', tokenize: true }, all, usable)),
    ).toMatchObject({ code: 'TokenizeNotSupported', message: 'tokenize must be false when payment_token is given.' });
    expect(checkCreateRules({ ...base, payment_token: 'tok', tokenize: false }, all, usable)).toEqual([]);
  });

  it('refuses a free trial without tokenize as a missing parameter', () => {
    expect(refusal(() => checkCreateRules(trial, all, undefined))).toMatchObject({
      code: 'MissingRequiredParameter',
      message: 'display_next_bill_info (a free trial) requires tokenize=true.',
    });
  });

  it('refuses a free trial with tokenize=false as an invalid parameter', () => {
    expect(refusal(() => checkCreateRules({ ...trial, tokenize: false }, all, undefined))).toMatchObject({
      code: 'InvalidRequestParameter',
      message: 'display_next_bill_info (a free trial) requires tokenize=true, not false.',
    });
  });

  it('refuses a free trial that charges something now', () => {
    expect(
      refusal(() =>
        checkCreateRules(
          { ...base, tokenize: true, display_next_bill_info: trial.display_next_bill_info },
          all,
          undefined,
        ),
      ),
    ).toMatchObject({
      code: 'TotalAmountInvalid',
      message: 'display_next_bill_info (a free trial) requires total_amount=0.',
    });
    expect(checkCreateRules({ ...trial, tokenize: true }, all, undefined)).toEqual([]);
  });

  it('answers a token that does not exist, or was deleted, not found, naming it', () => {
    const charge = { ...base, payment_token: 'tok-404' };
    expect(refusal(() => checkCreateRules(charge, all, undefined))).toMatchObject({
      code: 'NotFound',
      message: 'No payment token tok-404.',
    });
    expect(refusal(() => checkCreateRules(charge, all, { ...usable, deleted: true }))).toMatchObject({
      code: 'NotFound',
      message: 'No payment token tok-404.',
    });
  });

  it('refuses a token whose initial checkout is unfinished, saying so', () => {
    expect(
      refusal(() => checkCreateRules({ ...base, payment_token: 'tok' }, all, { ...usable, pendingCheckout: true })),
    ).toMatchObject({ code: 'SessionPending', message: expect.stringMatching(/not finished the initial checkout/) });
  });
});

describe('merchant features', () => {
  it('refuses an authorization when the merchant has none, saying which feature', () => {
    expect(
      refusal(() => checkCreateRules({ ...base, kind: 'authorization' }, { ...all, authorization: false }, undefined)),
    ).toMatchObject({
      code: 'FeatureNotEnabled',
      message: expect.stringMatching(/Authorization sessions .* not enabled/),
    });
    expect(checkCreateRules(base, { ...all, authorization: false }, undefined)).toEqual([]);
  });

  it('refuses a charge with a payment_token when the merchant has no tokens', () => {
    expect(
      refusal(() => checkCreateRules({ ...base, payment_token: 'tok' }, { ...all, tokenization: false }, usable)),
    ).toMatchObject({ code: 'FeatureNotEnabled', message: 'Payment tokens are not enabled for this merchant.' });
  });
});
