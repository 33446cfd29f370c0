// The rules of provision token requests, called directly: whose letters count (the customer key),
// which fields of a create payment token retry diverge, and how the customer's and the
// clinician's answers move a request (openapi/sandbox.yaml, tag "Payment tokens").
import { describe, expect, it } from 'vitest';
import type { Card } from '../../src/sandbox/domain/cards.js';
import { Refusal } from '../../src/sandbox/domain/errors.js';
import {
  completeByCustomer,
  customerKeyOf,
  decideByClinician,
  divergingSetupFields,
  type CreatePaymentTokenRequest,
  type CustomerAnswers,
  type ProvisionRequest,
} from '../../src/sandbox/domain/provisioning.js';
import { thrown } from '../support/thrown.js';

const NOW = '2026-03-10T12:00:00.000Z';
const visa: Card = { brand: 'visa', last4: '4242', expires: '2029-12' };

function provisionRequest(overrides: Partial<ProvisionRequest> = {}): ProvisionRequest {
  return {
    id: 'pr-1',
    channel: 'dev',
    created_at: NOW,
    purpose: 'setup',
    status: 'awaiting_customer',
    customer_key: 'jane@example.com',
    needs: ['survey', 'card'],
    success_url: 'https://shop.example/ok',
    failure_url: 'https://shop.example/ko',
    use_iframe: false,
    ...overrides,
  };
}

const answers = (overrides: Partial<CustomerAnswers> = {}): CustomerAnswers => ({
  cancel: false,
  eligible: true,
  lmnSkus: [],
  letter: 'pending',
  ...overrides,
});

describe('customerKeyOf', () => {
  it('keys a customer on the email, trimmed and lower-cased', () => {
    expect(customerKeyOf(' Jane.Doe@Example.com ', 'request:1')).toBe('jane.doe@example.com');
  });

  it('makes a request without an email, or with a blank one, a customer of its own', () => {
    expect(customerKeyOf(undefined, 'request:1')).toBe('request:1');
    expect(customerKeyOf('', 'request:1')).toBe('request:1');
    expect(customerKeyOf('   ', 'request:1')).toBe('request:1');
  });
});

describe('divergingSetupFields', () => {
  const setup: CreatePaymentTokenRequest = {
    success_url: 'https://shop.example/ok',
    failure_url: 'https://shop.example/ko',
    customer_email: 'Jane@Example.com',
    idempotency_key: 'k-1',
  };

  it('compares every field but the idempotency key', () => {
    expect(divergingSetupFields(setup, { ...setup, idempotency_key: 'k-2' })).toEqual([]);
    expect(divergingSetupFields(setup, { ...setup, metadata: 'x' })).toEqual(['metadata']);
  });

  it('compares the email case-insensitively, and only the email', () => {
    expect(divergingSetupFields(setup, { ...setup, customer_email: 'jane@example.COM' })).toEqual([]);
    expect(divergingSetupFields(setup, { ...setup, customer_email: 'john@example.com' })).toEqual(['customer_email']);
    expect(divergingSetupFields(setup, { ...setup, success_url: 'https://shop.example/OK' })).toEqual(['success_url']);
  });

  it('names the diverging fields in alphabetical order', () => {
    const retry: CreatePaymentTokenRequest = {
      success_url: 'https://shop.example/a',
      failure_url: 'https://shop.example/b',
      customer_email: 'john@example.com',
      idempotency_key: 'k-1',
    };
    expect(divergingSetupFields(setup, retry)).toEqual(['customer_email', 'failure_url', 'success_url']);
  });
});

describe('completeByCustomer', () => {
  it('refuses a request that no longer awaits the customer, naming its status', () => {
    const error = thrown(() => completeByCustomer(provisionRequest({ status: 'provisioned' }), answers(), NOW));
    expect(error).toBeInstanceOf(Refusal);
    expect(error).toMatchObject({
      code: 'InvalidState',
      message: 'Provision token request pr-1 is provisioned; only a request awaiting the customer can be completed.',
    });
  });

  it('rejects a setup whose survey finds the customer ineligible, whatever the page was asked for', () => {
    const request = provisionRequest({ needs: ['card'] });
    expect(completeByCustomer(request, answers({ eligible: false, lmnSkus: ['CGM-1'] }), NOW)).toEqual({
      letter: { status: 'rejected', skus: ['CGM-1'], expires_on: null },
    });
    expect(request.status).toBe('rejected');
  });

  it('does not survey a fix that only asks for a card: an ineligible answer changes nothing there', () => {
    const request = provisionRequest({ purpose: 'fix', needs: ['card'], payment_token: 'tok_1', skus: ['CGM-1'] });
    expect(
      completeByCustomer(
        request,
        answers({ eligible: false, card: visa, lmnSkus: ['CGM-1'], letter: 'approved' }),
        NOW,
      ),
    ).toEqual({ provision: { card: visa } });
    expect(request.status).toBe('provisioned');
  });

  it("leaves a pending letter without expiry and keeps the card for the clinician's approval", () => {
    const request = provisionRequest();
    expect(
      completeByCustomer(
        request,
        answers({ card: visa, lmnSkus: ['CGM-1'], letter: 'pending', lmnExpiresOn: '2026-06-30' }),
        NOW,
      ),
    ).toEqual({ letter: { status: 'pending', skus: ['CGM-1'], expires_on: null } });
    expect(request.status).toBe('awaiting_letter');
    expect(decideByClinician(request, 'approve', NOW)).toEqual({
      decided: { status: 'approved', expires_on: '2027-03-10' },
      provision: { card: visa },
    });
    expect(request.status).toBe('provisioned');
    expect(request.card).toBeUndefined();
  });

  it('rejects the request when the clinician declines the letter on the page, issuing nothing', () => {
    const request = provisionRequest();
    const outcome = completeByCustomer(request, answers({ card: visa, lmnSkus: ['CGM-1'], letter: 'rejected' }), NOW);
    expect(outcome).toEqual({ letter: { status: 'rejected', skus: ['CGM-1'], expires_on: null } });
    expect(outcome).not.toHaveProperty('provision');
    expect(request.status).toBe('rejected');
  });
});

describe('decideByClinician', () => {
  it('refuses a request that awaits no letter, naming its status', () => {
    const error = thrown(() => decideByClinician(provisionRequest(), 'approve', NOW));
    expect(error).toBeInstanceOf(Refusal);
    expect(error).toMatchObject({
      code: 'InvalidState',
      message: 'Provision token request pr-1 is awaiting_customer; only a request awaiting its letter can be decided.',
    });
  });

  it("refuses an expiry before the sandbox clock's date, and leaves the request awaiting its letter", () => {
    const request = provisionRequest({ status: 'awaiting_letter', needs: [] });
    const error = thrown(() => decideByClinician(request, 'approve', NOW, '2026-03-09'));
    expect(error).toMatchObject({
      code: 'InvalidRequest',
      message: expect.stringMatching(/lmn_expires_at 2026-03-09 is before the sandbox clock's date, 2026-03-10/),
    });
    expect(request.status).toBe('awaiting_letter');
    expect(decideByClinician(request, 'approve', NOW, '2026-03-10')).toEqual({
      decided: { status: 'approved', expires_on: '2026-03-10' },
      provision: {},
    });
  });
});
