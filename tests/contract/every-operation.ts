// One typed openapi-fetch call per operation of the contract. `tsc --noEmit` checks every call
// against generated/schema.d.ts; the mock test runs them against Prism.
import type { Client } from 'openapi-fetch';
import type { paths } from '../../generated/schema.js';

export type ContractClient = Client<paths>;

const SESSION_ID = '3f1c2a9e-8b7d-4c55-9e21-6a0d4b7c9f10';
const PROVISION_ID = 'c41d5e2f-9a8b-4b7c-8d6e-5f4a3b2c1d0e';
const DISPUTE_ID = '0e6f1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b';
const TOKEN = 'ptok_9f8e7d6c5b4a';
const noCharges = { total_additional_charges: 0, total_discounts: 0 };

/** operationId → a call of it with valid input. */
export const everyOperation = {
  createPaymentSession: (c: ContractClient) =>
    c.POST('/payments/v1/create_payment_session', {
      body: {
        total_amount: 4999,
        amount_details: noCharges,
        success_url: 'https://shop.example/ok/{{payment_session_id}}',
        failure_url: 'https://shop.example/ko/{{payment_session_id}}',
        kind: 'authorization',
        idempotency_key: 'order-1',
        order_items: [{ name: 'Monitor', sku: 'BPM-200', quantity: 1, price: 4999, amount_details: noCharges }],
      },
    }),
  retrievePaymentSession: (c: ContractClient) =>
    c.GET('/payments/v1/payment_session/{business_id}', { params: { path: { business_id: SESSION_ID } } }),
  listPaymentSessions: (c: ContractClient) =>
    c.GET('/payments/v1/payment_sessions', {
      params: {
        query: {
          page: 1,
          page_size: 10,
          kind: ['authorization', 'one_time_payment'],
          status: ['captured'],
          include_refunds: false,
          search: 'jane',
        },
      },
    }),
  capturePaymentSession: (c: ContractClient) =>
    c.POST('/payments/v1/payment_session/{business_id}/capture', {
      params: { path: { business_id: SESSION_ID } },
      body: { total_amount: 3999, idempotency_key: 'capture-1' },
    }),
  cancelPaymentSession: (c: ContractClient) =>
    c.POST('/payments/v1/payment_session/{business_id}/cancel', {
      params: { path: { business_id: SESSION_ID } },
      body: {},
    }),
  voidPaymentSession: (c: ContractClient) =>
    c.POST('/payments/v1/payment_session/{business_id}/void', {
      params: { path: { business_id: SESSION_ID } },
      body: { idempotency_key: 'void-1' },
    }),
  createRefund: (c: ContractClient) =>
    c.POST('/payments/v1/refund', {
      body: { payment_id: SESSION_ID, amount: 1250, idempotency_key: 'refund-1', reason: 'customer_request' },
    }),
  createPaymentToken: (c: ContractClient) =>
    c.POST('/api/v1/payment_tokens/create', {
      body: {
        success_url: 'https://shop.example/ok',
        failure_url: 'https://shop.example/ko',
        customer_email: 'jane@example.com',
      },
    }),
  retrievePaymentToken: (c: ContractClient) =>
    c.GET('/api/v1/payment_tokens/{payment_token}', { params: { path: { payment_token: TOKEN } } }),
  listPaymentTokens: (c: ContractClient) =>
    c.GET('/api/v1/payment_tokens', {
      params: { query: { email: 'jane', card_expires_before: '2027-01', lmn_expires_before: '2027-06-30' } },
    }),
  updatePaymentToken: (c: ContractClient) =>
    c.POST('/api/v1/payment_tokens/{payment_token}/update', {
      params: { path: { payment_token: TOKEN } },
      body: {
        update_card_info: false,
        order_items: [{ name: 'Vitamin D', quantity: 1, price: 2500, amount_details: noCharges }],
      },
    }),
  deletePaymentToken: (c: ContractClient) =>
    c.POST('/api/v1/payment_tokens/{payment_token}/delete', { params: { path: { payment_token: TOKEN } } }),
  retrieveProvisionTokenRequest: (c: ContractClient) =>
    c.GET('/api/v1/payment_tokens/provision_request/{provision_token_request_id}', {
      params: { path: { provision_token_request_id: PROVISION_ID } },
    }),
  retrieveProvisionRequestEligibility: (c: ContractClient) =>
    c.GET('/api/v1/eligibility/provision_request/{provision_token_request_id}', {
      params: { path: { provision_token_request_id: PROVISION_ID } },
    }),
  listCatalogItems: (c: ContractClient) =>
    c.GET('/api/v1/product_catalog/items/list', {
      params: { query: { eligibility: 'eligible', updated_after: '2026-01-01T00:00:00Z' } },
    }),
  createCatalogItem: (c: ContractClient) =>
    c.POST('/api/v1/product_catalog/items/create', { body: { sku: 'TH-10', name: 'Thermometer' } }),
  updateCatalogItem: (c: ContractClient) =>
    c.POST('/api/v1/product_catalog/items/update', {
      body: {
        sku: 'TH-10',
        name: 'Thermometer',
        description: 'Digital.',
        image_urls: [],
        url: 'https://shop.example/p/th-10',
      },
    }),
  retrieveCatalogItem: (c: ContractClient) =>
    c.POST('/api/v1/product_catalog/items/detail', { body: { sku: 'TH-10' } }),
  retrieveCheckoutMethod: (c: ContractClient) =>
    c.POST('/api/v1/product_catalog/service_checkout_method', { body: {} }),
  retrieveDispute: (c: ContractClient) =>
    c.GET('/api/v1/disputes/{dispute_id}', { params: { path: { dispute_id: DISPUTE_ID } } }),
  listDisputes: (c: ContractClient) => c.GET('/v1/disputes'),
  retrieveDisputeRecord: (c: ContractClient) => c.GET('/v1/disputes/{id}', { params: { path: { id: 'dsp_71c2' } } }),
  acceptDispute: (c: ContractClient) =>
    c.POST('/v1/disputes/{id}/accept', { params: { path: { id: 'dsp_71c2' } }, body: {} }),
} satisfies Record<string, (c: ContractClient) => Promise<unknown>>;

/** Calls the types must refuse; each line fails `tsc` if the generated types stop constraining it. */
export function refusedByTheTypes(c: ContractClient) {
  void c.POST('/payments/v1/create_payment_session', {
    body: {
      total_amount: 1,
      amount_details: noCharges,
      success_url: 'x',
      failure_url: 'y',
      order_items: [],
      // @ts-expect-error: kind is an enum
      kind: 'subscription',
    },
  });
  void c.POST('/payments/v1/payment_session/{business_id}/capture', {
    params: { path: { business_id: SESSION_ID } },
    // @ts-expect-error: total_amount is required by capture
    body: { idempotency_key: 'k' },
  });
  void c.POST('/payments/v1/refund', {
    // @ts-expect-error: refund reason is an enum
    body: { payment_id: SESSION_ID, amount: 1, idempotency_key: 'k', reason: 'changed_mind' },
  });
  // @ts-expect-error: the path parameter is required
  void c.GET('/payments/v1/payment_session/{business_id}', {});
  // @ts-expect-error: no such path
  void c.GET('/payments/v1/sessions');
}

/** Fields with a default (kind) stay optional: the smallest valid create request compiles. */
export const minimalCreateRequest: import('../../generated/schema.js').components['schemas']['CreatePaymentSessionRequest'] =
  {
    total_amount: 100,
    amount_details: noCharges,
    success_url: 'https://shop.example/ok',
    failure_url: 'https://shop.example/ko',
    order_items: [{ name: 'Item', quantity: 1, price: 100, amount_details: noCharges }],
  };
