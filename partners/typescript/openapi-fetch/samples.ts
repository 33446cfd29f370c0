// The TypeScript sample of every operation of the contract, with openapi-fetch and the types of
// openapi-typescript, as the API reference shows them: each call stands between
// `// sample: <operationId>` and `// end sample`. Around them, the program plays the customer, the
// clinician and the card network with the sandbox's helpers (/sandbox/v1/…, plain fetch), which
// the real service does not have.
// It reads PARTNER_BASE_URL (default http://127.0.0.1:4010, the sandbox of `npm start`),
// PARTNER_API_KEY (default sandbox-dev-key) and PARTNER_RUN (default: the time in base 36; it goes
// into idempotency keys, emails and skus, so that runs never collide), and ends on the line
// `PARTNER_SAMPLES {"<operationId>": <HTTP status>, …}`.
import createClient from 'openapi-fetch';
import type { paths } from './schema.js';

/** The environment, or one line that says which value is wrong. */
function environment() {
  const fail = (message: string): never => {
    console.error(message);
    process.exit(2);
  };
  const baseUrl = process.env.PARTNER_BASE_URL || 'http://127.0.0.1:4010';
  const apiKey = process.env.PARTNER_API_KEY || 'sandbox-dev-key';
  const run = process.env.PARTNER_RUN || Date.now().toString(36);
  if (!/^https?:\/\/[^/\s]+(\/\S*)?$/.test(baseUrl)) fail(`PARTNER_BASE_URL=${baseUrl} is not an http(s) URL`);
  if (!/^[A-Za-z0-9][\w-]{0,63}$/.test(run))
    fail(`PARTNER_RUN=${run} is not 1 to 64 letters, digits, - or _ (it goes into emails and skus)`);
  return { baseUrl: baseUrl.replace(/\/$/, ''), apiKey, run, fail };
}
const { baseUrl, apiKey, run, fail } = environment();

const client = createClient<paths>({ baseUrl, headers: { 'x-service-api-key': apiKey } });
// Outside the samples: a refused key or an unreachable sandbox ends the program on one line.
client.use({
  async onResponse({ response }) {
    if (response.status === 401) fail(`PARTNER_API_KEY was refused (401): ${await response.clone().text()}`);
  },
  onError({ error }) {
    fail(
      `Nothing answers at PARTNER_BASE_URL=${baseUrl} (${(error as Error & { cause?: Error }).cause?.message ?? String(error)}): is the sandbox running (npm start)?`,
    );
  },
});

const statuses: Record<string, number> = {};
const record = (operationId: string, response: Response) => (statuses[operationId] = response.status);

/** A sandbox helper: the customer, the clinician or the card network. */
async function helper(path: string, body: object = {}): Promise<Record<string, unknown>> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'x-service-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 200)
    throw new Error(`the helper ${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

/** A payment session for the calls that need one in another state. */
async function newSession(name: string): Promise<string> {
  const { data, response } = await client.POST('/payments/v1/create_payment_session', {
    body: {
      kind: 'authorization',
      total_amount: 2500,
      amount_details: noCharges,
      idempotency_key: `${run}-${name}`,
      success_url: 'https://partner.example/orders/ok',
      failure_url: 'https://partner.example/orders/failed',
      order_items: [{ name: 'Thermometer', sku: 'TH-10', quantity: 1, price: 2500, amount_details: noCharges }],
    },
  });
  if (!data) throw new Error(`creating a session answered ${response.status}`);
  return data.id;
}

// A session: created, paid by the customer, read, listed, captured in part, refunded in part.
// sample: createPaymentSession
const noCharges = { total_additional_charges: 0, total_discounts: 0 };
const created = await client.POST('/payments/v1/create_payment_session', {
  body: {
    kind: 'authorization',
    total_amount: 5000,
    amount_details: noCharges,
    success_url: 'https://partner.example/orders/{{payment_session_id}}/thanks',
    failure_url: 'https://partner.example/orders/{{payment_session_id}}/failed',
    customer_email: `jane-${run}@partner.example`,
    idempotency_key: `order-${run}`,
    order_items: [
      { name: 'Blood pressure monitor', sku: 'BPM-200', quantity: 1, price: 5000, amount_details: noCharges },
    ],
  },
});
if (!created.data) throw new Error(`create answered ${created.response.status}: ${JSON.stringify(created.error)}`);
const sessionId = created.data.id;
console.log(`send the customer to ${created.data.redirect_url}`);
// end sample
record('createPaymentSession', created.response);
await helper(`/sandbox/v1/payment_sessions/${sessionId}/complete_checkout`);

// sample: retrievePaymentSession
const retrieved = await client.GET('/payments/v1/payment_session/{business_id}', {
  params: { path: { business_id: sessionId } },
});
if (!retrieved.data)
  throw new Error(`retrieve answered ${retrieved.response.status}: ${JSON.stringify(retrieved.error)}`);
console.log(`session ${retrieved.data.id} is ${retrieved.data.status} (${retrieved.data.status_summary})`);
// end sample
record('retrievePaymentSession', retrieved.response);

// sample: listPaymentSessions
const page = await client.GET('/payments/v1/payment_sessions', {
  params: { query: { search: `jane-${run}@partner.example`, status: ['authorized'], page_size: 10 } },
});
if (!page.data) throw new Error(`list answered ${page.response.status}: ${JSON.stringify(page.error)}`);
for (const item of page.data.payment_sessions) console.log(item.id, item.status, item.total_amount);
// end sample
record('listPaymentSessions', page.response);

// sample: capturePaymentSession
const captured = await client.POST('/payments/v1/payment_session/{business_id}/capture', {
  params: { path: { business_id: sessionId } },
  body: { total_amount: 3000, idempotency_key: `capture-${run}` },
});
if (captured.error) throw new Error(`capture answered ${captured.response.status}: ${captured.error.error}`);
console.log(`capture ${captured.data.id}`);
// end sample
record('capturePaymentSession', captured.response);

// sample: createRefund
const refund = await client.POST('/payments/v1/refund', {
  body: { payment_id: sessionId, amount: 1000, reason: 'customer_request', idempotency_key: `refund-${run}` },
});
if (refund.error) throw new Error(`refund answered ${refund.response.status}: ${refund.error.error}`);
console.log(`refund ${refund.data.refund_id}`);
// end sample
record('createRefund', refund.response);

// A session the customer has not paid yet, canceled.
const pendingId = await newSession('pending');
// sample: cancelPaymentSession
const canceled = await client.POST('/payments/v1/payment_session/{business_id}/cancel', {
  params: { path: { business_id: pendingId } },
  body: {},
});
if (canceled.error) throw new Error(`cancel answered ${canceled.response.status}: ${canceled.error.error}`);
console.log(`session ${canceled.data.id} is ${canceled.data.status}`);
// end sample
record('cancelPaymentSession', canceled.response);

// An authorization, voided.
const authorizedId = await newSession('authorized');
await helper(`/sandbox/v1/payment_sessions/${authorizedId}/complete_checkout`);
// sample: voidPaymentSession
const voided = await client.POST('/payments/v1/payment_session/{business_id}/void', {
  params: { path: { business_id: authorizedId } },
  body: { idempotency_key: `void-${run}` },
});
if (voided.error) throw new Error(`void answered ${voided.response.status}: ${voided.error.error}`);
console.log(`void ${voided.data.id}`);
// end sample
record('voidPaymentSession', voided.response);

// A payment token: created, set up by the customer, read, listed, updated, deleted.
// sample: createPaymentToken
const setup = await client.POST('/api/v1/payment_tokens/create', {
  body: {
    customer_email: `sam-${run}@partner.example`,
    customer_name: 'Sam Doe',
    success_url: 'https://partner.example/plan/ok',
    failure_url: 'https://partner.example/plan/failed',
    metadata: 'plan-monthly',
  },
});
if (setup.error) throw new Error(`create payment token answered ${setup.response.status}: ${setup.error.error}`);
const requestId = setup.data.provision_token_request_id;
console.log(`send the customer to ${setup.data.redirect_url}`);
// end sample
record('createPaymentToken', setup.response);
await helper(`/sandbox/v1/provision_requests/${requestId}/complete`, { letter: 'approved' });

// sample: retrieveProvisionTokenRequest
const provision = await client.GET('/api/v1/payment_tokens/provision_request/{provision_token_request_id}', {
  params: { path: { provision_token_request_id: requestId } },
});
if (!provision.data)
  throw new Error(
    `retrieve provision request answered ${provision.response.status}: ${JSON.stringify(provision.error)}`,
  );
// null until the customer has finished the setup page
const paymentToken = provision.data.payment_token;
// end sample
record('retrieveProvisionTokenRequest', provision.response);
if (!paymentToken) throw new Error('the provision request issued no payment token');

// sample: retrieveProvisionRequestEligibility
const eligibility = await client.GET('/api/v1/eligibility/provision_request/{provision_token_request_id}', {
  params: { path: { provision_token_request_id: requestId } },
});
if (eligibility.error)
  throw new Error(`eligibility answered ${eligibility.response.status}: ${eligibility.error.error}`);
console.log(
  `eligibility ${eligibility.data.eligibility_status}, letter valid until ${eligibility.data.lmn_expires_at}`,
);
// end sample
record('retrieveProvisionRequestEligibility', eligibility.response);

// sample: listPaymentTokens
const tokens = await client.GET('/api/v1/payment_tokens', {
  params: { query: { email: `sam-${run}@partner.example` } },
});
if (tokens.error) throw new Error(`list payment tokens answered ${tokens.response.status}: ${tokens.error.error}`);
for (const token of tokens.data.payment_tokens) console.log(token.payment_token, token.customer_email);
// end sample
record('listPaymentTokens', tokens.response);

// sample: retrievePaymentToken
const token = await client.GET('/api/v1/payment_tokens/{payment_token}', {
  params: { path: { payment_token: paymentToken } },
});
if (!token.data)
  throw new Error(`retrieve payment token answered ${token.response.status}: ${JSON.stringify(token.error)}`);
console.log(`token of ${token.data.customer_email}, letter valid until ${token.data.lmn_expires_at}`);
// end sample
record('retrievePaymentToken', token.response);

// sample: updatePaymentToken
const update = await client.POST('/api/v1/payment_tokens/{payment_token}/update', {
  params: { path: { payment_token: paymentToken } },
  body: { update_card_info: true },
});
if (update.error) throw new Error(`update payment token answered ${update.response.status}: ${update.error.error}`);
console.log(`next: ${update.data.next_action}, at ${update.data.redirect_url}`);
// end sample
record('updatePaymentToken', update.response);

// sample: deletePaymentToken
const deleted = await client.POST('/api/v1/payment_tokens/{payment_token}/delete', {
  params: { path: { payment_token: paymentToken } },
});
if (!deleted.data)
  throw new Error(`delete payment token answered ${deleted.response.status}: ${JSON.stringify(deleted.error)}`);
// end sample
record('deletePaymentToken', deleted.response);

// The catalog: an item created, updated, read and listed; the checkout method.
const sku = `TH-${run}`;
// sample: createCatalogItem
const item = await client.POST('/api/v1/product_catalog/items/create', {
  body: { sku, name: 'Digital thermometer' },
});
if (item.error) throw new Error(`create catalog item answered ${item.response.status}: ${item.error.error}`);
// end sample
record('createCatalogItem', item.response);

// sample: updateCatalogItem
const updatedItem = await client.POST('/api/v1/product_catalog/items/update', {
  body: {
    sku,
    name: 'Digital thermometer',
    description: 'Reads in 8 seconds.',
    image_urls: ['https://partner.example/images/th.jpg'],
    url: 'https://partner.example/products/th',
  },
});
if (updatedItem.error)
  throw new Error(`update catalog item answered ${updatedItem.response.status}: ${updatedItem.error.error}`);
// end sample
record('updateCatalogItem', updatedItem.response);

// sample: retrieveCatalogItem
const detail = await client.POST('/api/v1/product_catalog/items/detail', { body: { sku } });
if (detail.error) throw new Error(`catalog item detail answered ${detail.response.status}: ${detail.error.error}`);
console.log(`${detail.data.sku}: ${detail.data.name}, eligibility ${detail.data.eligibility ?? 'not reviewed yet'}`);
// end sample
record('retrieveCatalogItem', detail.response);

// sample: listCatalogItems
const catalog = await client.GET('/api/v1/product_catalog/items/list', {
  params: { query: { page_size: 20 } },
});
if (catalog.error) throw new Error(`list catalog items answered ${catalog.response.status}: ${catalog.error.error}`);
for (const entry of catalog.data.data) console.log(entry.sku, entry.eligibility);
// end sample
record('listCatalogItems', catalog.response);

// sample: retrieveCheckoutMethod
const method = await client.POST('/api/v1/product_catalog/service_checkout_method', { body: {} });
if (!method.data)
  throw new Error(`checkout method answered ${method.response.status}: ${JSON.stringify(method.error)}`);
console.log(`checkout method: ${JSON.stringify(method.data)}`);
// end sample
record('retrieveCheckoutMethod', method.response);

// A dispute, opened by the card network on the captured session: read both ways, listed, accepted.
const disputeId = String((await helper(`/sandbox/v1/payment_sessions/${sessionId}/disputes`)).dispute_id);

// sample: retrieveDispute
const dispute = await client.GET('/api/v1/disputes/{dispute_id}', {
  params: { path: { dispute_id: disputeId } },
});
if (!dispute.data)
  throw new Error(`retrieve dispute answered ${dispute.response.status}: ${JSON.stringify(dispute.error)}`);
console.log(`dispute ${dispute.data.dispute_id} is ${dispute.data.state}: respond by ${dispute.data.due_by}`);
// end sample
record('retrieveDispute', dispute.response);

// sample: listDisputes
const disputes = await client.GET('/v1/disputes');
if (disputes.error) throw new Error(`list disputes answered ${disputes.response.status}: ${disputes.error.error}`);
for (const entry of disputes.data.data) console.log(entry.id, entry.state, entry.amount);
// end sample
record('listDisputes', disputes.response);

// sample: retrieveDisputeRecord
const disputeRecord = await client.GET('/v1/disputes/{id}', {
  params: { path: { id: disputeId } },
});
if (!disputeRecord.data)
  throw new Error(
    `retrieve dispute record answered ${disputeRecord.response.status}: ${JSON.stringify(disputeRecord.error)}`,
  );
console.log(
  `dispute ${disputeRecord.data.id} of charge ${disputeRecord.data.charge_id} is ${disputeRecord.data.state}`,
);
// end sample
record('retrieveDisputeRecord', disputeRecord.response);

// sample: acceptDispute
const accepted = await client.POST('/v1/disputes/{id}/accept', {
  params: { path: { id: disputeId } },
  body: {},
});
if (!accepted.data)
  throw new Error(`accept dispute answered ${accepted.response.status}: ${JSON.stringify(accepted.error)}`);
// end sample
record('acceptDispute', accepted.response);

console.log(`PARTNER_SAMPLES ${JSON.stringify(statuses)}`);
