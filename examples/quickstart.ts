import { createServiceClient, hasErrorCode } from '@service/hsa-fsa-checkout-contract/client';
import { isEventType, signWebhook, verifyWebhook } from '@service/hsa-fsa-checkout-contract/webhooks';

// 'development', 'production', or a base URL: the mock's (4011) or the sandbox's (4010).
const baseUrl = process.env.SERVICE_BASE_URL ?? 'http://127.0.0.1:4011';
const client = createServiceClient({ environment: baseUrl, apiKey: process.env.SERVICE_API_KEY ?? 'sandbox-dev-key' });

const noCharges = { total_additional_charges: 0, total_discounts: 0 };
const orderId = `order-${Date.now()}`; // one key per order: a retry of this order reuses it
const created = await client.POST('/payments/v1/create_payment_session', {
  body: {
    kind: 'authorization',
    total_amount: 4999,
    amount_details: noCharges,
    success_url: 'https://shop.example/orders/{{payment_session_id}}/thanks',
    failure_url: 'https://shop.example/orders/{{payment_session_id}}/failed',
    idempotency_key: orderId,
    order_items: [
      { name: 'Blood pressure monitor', sku: 'BPM-200', quantity: 1, price: 4999, amount_details: noCharges },
    ],
  },
});
if (!created.data) throw new Error(`create failed: ${JSON.stringify(created.error)}`);
console.log('send the customer to', created.data.redirect_url);

// In the sandbox, play the customer who authorizes the hold (a test helper; the mock has none).
const sandbox = await fetch(`${baseUrl}/sandbox/openapi.json`).then(
  (r) => r.ok,
  () => false,
);
if (sandbox) {
  const checkout = await fetch(`${baseUrl}/sandbox/v1/payment_sessions/${created.data.id}/complete_checkout`, {
    method: 'POST',
    headers: {
      'x-service-api-key': process.env.SERVICE_API_KEY ?? 'sandbox-dev-key',
      'content-type': 'application/json',
    },
    body: '{}',
  });
  console.log('the customer completed the checkout:', checkout.status, await checkout.text());
}

// Capture part of the hold. The idempotency_key makes a retry after a 500 or a network error
// safe, so the client retries those by itself.
const capture = await client.POST('/payments/v1/payment_session/{business_id}/capture', {
  params: { path: { business_id: created.data.id } },
  body: { total_amount: 3999, idempotency_key: `capture-${orderId}` },
});
if (hasErrorCode(capture.error, 'SessionVoided')) {
  console.log('the hold was voided; create a new session');
} else if (capture.error) {
  console.log('capture failed:', capture.error.error, capture.error.message);
} else {
  console.log('captured', capture.data.id);
}

// Webhooks: verify the raw body exactly as received, then act on the typed event.
const secret = process.env.SERVICE_WEBHOOK_SECRET ?? 'whsec_example';
const delivery = signWebhook(
  {
    webhook_delivery_id: 'dlv_01HZX3Q6T2',
    event_type: 'dispute.created',
    data: {
      dispute_id: '0e6f1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b',
      state: 'needs_response',
      amount: 4999,
      currency: 'USD',
      created_at: '2026-11-20T10:00:00Z',
    },
  },
  secret,
); // in production the service signs; here we sign a sample ourselves
const event = verifyWebhook({ rawBody: delivery.body, signatureHeader: delivery.signatureHeader, secret });
if (isEventType(event, 'dispute.created')) {
  console.log('dispute', event.data.dispute_id, event.data.state);
}
