// The TypeScript sample of every operation of the contract, with the fetch client and the Zod
// schemas Orval generates, as the API reference shows them: each call stands between
// `// sample: <operationId>` and `// end sample`. Around them, the program plays the customer, the
// clinician and the card network with the sandbox's helpers (/sandbox/v1/…, plain fetch), which
// the real service does not have.
// It reads PARTNER_BASE_URL (default http://127.0.0.1:4010, the sandbox of `npm start`),
// PARTNER_API_KEY (default sandbox-dev-key) and PARTNER_RUN (default: the time in base 36; it goes
// into idempotency keys, emails and skus, so that runs never collide), and ends on the line
// `PARTNER_SAMPLES {"<operationId>": <HTTP status>, …}`.
import {
  acceptDispute,
  cancelPaymentSession,
  capturePaymentSession,
  createCatalogItem,
  createPaymentSession,
  createPaymentToken,
  createRefund,
  deletePaymentToken,
  listCatalogItems,
  listDisputes,
  listPaymentSessions,
  listPaymentTokens,
  retrieveCatalogItem,
  retrieveCheckoutMethod,
  retrieveDispute,
  retrieveDisputeRecord,
  retrievePaymentSession,
  retrievePaymentToken,
  retrieveProvisionRequestEligibility,
  retrieveProvisionTokenRequest,
  updateCatalogItem,
  updatePaymentToken,
  voidPaymentSession,
} from './client/payments.js';
import { PaymentSessionKindInput } from './client/model/paymentSessionKindInput.js';
import { PaymentSessionStatusInput } from './client/model/paymentSessionStatusInput.js';
import { RefundReasonInput } from './client/model/refundReasonInput.js';
import { PaymentSession } from './client/payments.zod.js';
// The address, the key and the run, with the local sandbox's defaults; a wrong value, a refused key
// or no sandbox at the address ends the program on one line (service-fetch.ts, Orval's mutator).
import { settings } from './service-fetch.js';

const { baseUrl, apiKey, run } = settings;

const statuses: Record<string, number> = {};
const record = (operationId: string, answer: { status: number }) => (statuses[operationId] = answer.status);

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
  const answer = await createPaymentSession({
    kind: PaymentSessionKindInput.authorization,
    total_amount: 2500,
    amount_details: noCharges,
    idempotency_key: `${run}-${name}`,
    success_url: 'https://partner.example/orders/ok',
    failure_url: 'https://partner.example/orders/failed',
    order_items: [{ name: 'Thermometer', sku: 'TH-10', quantity: 1, price: 2500, amount_details: noCharges }],
  });
  if (answer.status !== 200)
    throw new Error(`creating a session answered ${answer.status}: ${JSON.stringify(answer.data)}`);
  return answer.data.id;
}

// A session: created, paid by the customer, read, listed, captured in part, refunded in part.
// sample: createPaymentSession
const noCharges = { total_additional_charges: 0, total_discounts: 0 };
const created = await createPaymentSession({
  kind: PaymentSessionKindInput.authorization,
  total_amount: 5000,
  amount_details: noCharges,
  success_url: 'https://partner.example/orders/{{payment_session_id}}/thanks',
  failure_url: 'https://partner.example/orders/{{payment_session_id}}/failed',
  customer_email: `jane-${run}@partner.example`,
  idempotency_key: `order-${run}`,
  order_items: [
    { name: 'Blood pressure monitor', sku: 'BPM-200', quantity: 1, price: 5000, amount_details: noCharges },
  ],
});
if (created.status !== 200) throw new Error(`create answered ${created.status}: ${JSON.stringify(created.data)}`);
const sessionId = created.data.id;
console.log(`send the customer to ${created.data.redirect_url}`);
// end sample
record('createPaymentSession', created);
await helper(`/sandbox/v1/payment_sessions/${sessionId}/complete_checkout`);

// sample: retrievePaymentSession
const retrieved = await retrievePaymentSession(sessionId);
if (retrieved.status !== 200)
  throw new Error(`retrieve answered ${retrieved.status}: ${JSON.stringify(retrieved.data)}`);
// The generated Zod schema checks the answer before it is used.
const session = PaymentSession.parse(retrieved.data);
console.log(`session ${session.id} is ${session.status} (${session.status_summary})`);
// end sample
record('retrievePaymentSession', retrieved);

// sample: listPaymentSessions
const page = await listPaymentSessions({
  search: `jane-${run}@partner.example`,
  status: [PaymentSessionStatusInput.authorized],
  page_size: 10,
});
if (page.status !== 200) throw new Error(`list answered ${page.status}: ${JSON.stringify(page.data)}`);
for (const item of page.data.payment_sessions) console.log(item.id, item.status, item.total_amount);
// end sample
record('listPaymentSessions', page);

// sample: capturePaymentSession
const captured = await capturePaymentSession(sessionId, { total_amount: 3000, idempotency_key: `capture-${run}` });
if (captured.status !== 200) throw new Error(`capture answered ${captured.status}: ${JSON.stringify(captured.data)}`);
console.log(`capture ${captured.data.id}`);
// end sample
record('capturePaymentSession', captured);

// sample: createRefund
const refund = await createRefund({
  payment_id: sessionId,
  amount: 1000,
  reason: RefundReasonInput.customer_request,
  idempotency_key: `refund-${run}`,
});
if (refund.status !== 200) throw new Error(`refund answered ${refund.status}: ${JSON.stringify(refund.data)}`);
console.log(`refund ${refund.data.refund_id}`);
// end sample
record('createRefund', refund);

// A session the customer has not paid yet, canceled.
const pendingId = await newSession('pending');
// sample: cancelPaymentSession
const canceled = await cancelPaymentSession(pendingId, {});
if (canceled.status !== 200) throw new Error(`cancel answered ${canceled.status}: ${JSON.stringify(canceled.data)}`);
console.log(`session ${canceled.data.id} is ${canceled.data.status}`);
// end sample
record('cancelPaymentSession', canceled);

// An authorization, voided.
const authorizedId = await newSession('authorized');
await helper(`/sandbox/v1/payment_sessions/${authorizedId}/complete_checkout`);
// sample: voidPaymentSession
const voided = await voidPaymentSession(authorizedId, { idempotency_key: `void-${run}` });
if (voided.status !== 200) throw new Error(`void answered ${voided.status}: ${JSON.stringify(voided.data)}`);
console.log(`void ${voided.data.id}`);
// end sample
record('voidPaymentSession', voided);

// A payment token: created, set up by the customer, read, listed, updated, deleted.
// sample: createPaymentToken
const setup = await createPaymentToken({
  customer_email: `sam-${run}@partner.example`,
  customer_name: 'Sam Doe',
  success_url: 'https://partner.example/plan/ok',
  failure_url: 'https://partner.example/plan/failed',
  metadata: 'plan-monthly',
});
if (setup.status !== 200)
  throw new Error(`create payment token answered ${setup.status}: ${JSON.stringify(setup.data)}`);
const requestId = setup.data.provision_token_request_id;
console.log(`send the customer to ${setup.data.redirect_url}`);
// end sample
record('createPaymentToken', setup);
await helper(`/sandbox/v1/provision_requests/${requestId}/complete`, { letter: 'approved' });

// sample: retrieveProvisionTokenRequest
const provision = await retrieveProvisionTokenRequest(requestId);
if (provision.status !== 200)
  throw new Error(`retrieve provision request answered ${provision.status}: ${JSON.stringify(provision.data)}`);
// null until the customer has finished the setup page
const paymentToken = provision.data.payment_token;
// end sample
record('retrieveProvisionTokenRequest', provision);
if (!paymentToken) throw new Error('the provision request issued no payment token');

// sample: retrieveProvisionRequestEligibility
const eligibility = await retrieveProvisionRequestEligibility(requestId);
if (eligibility.status !== 200)
  throw new Error(`eligibility answered ${eligibility.status}: ${JSON.stringify(eligibility.data)}`);
console.log(
  `eligibility ${eligibility.data.eligibility_status}, letter valid until ${eligibility.data.lmn_expires_at}`,
);
// end sample
record('retrieveProvisionRequestEligibility', eligibility);

// sample: listPaymentTokens
const tokens = await listPaymentTokens({ email: `sam-${run}@partner.example` });
if (tokens.status !== 200)
  throw new Error(`list payment tokens answered ${tokens.status}: ${JSON.stringify(tokens.data)}`);
for (const token of tokens.data.payment_tokens) console.log(token.payment_token, token.customer_email);
// end sample
record('listPaymentTokens', tokens);

// sample: retrievePaymentToken
const token = await retrievePaymentToken(paymentToken);
if (token.status !== 200)
  throw new Error(`retrieve payment token answered ${token.status}: ${JSON.stringify(token.data)}`);
console.log(`token of ${token.data.customer_email}, letter valid until ${token.data.lmn_expires_at}`);
// end sample
record('retrievePaymentToken', token);

// sample: updatePaymentToken
const update = await updatePaymentToken(paymentToken, { update_card_info: true });
if (update.status !== 200)
  throw new Error(`update payment token answered ${update.status}: ${JSON.stringify(update.data)}`);
console.log(`next: ${update.data.next_action}, at ${update.data.redirect_url}`);
// end sample
record('updatePaymentToken', update);

// sample: deletePaymentToken
const deleted = await deletePaymentToken(paymentToken);
if (deleted.status !== 200)
  throw new Error(`delete payment token answered ${deleted.status}: ${JSON.stringify(deleted.data)}`);
// end sample
record('deletePaymentToken', deleted);

// The catalog: an item created, updated, read and listed; the checkout method.
const sku = `TH-${run}`;
// sample: createCatalogItem
const item = await createCatalogItem({ sku, name: 'Digital thermometer' });
if (item.status !== 200) throw new Error(`create catalog item answered ${item.status}: ${JSON.stringify(item.data)}`);
// end sample
record('createCatalogItem', item);

// sample: updateCatalogItem
const updatedItem = await updateCatalogItem({
  sku,
  name: 'Digital thermometer',
  description: 'Reads in 8 seconds.',
  image_urls: ['https://partner.example/images/th.jpg'],
  url: 'https://partner.example/products/th',
});
if (updatedItem.status !== 200)
  throw new Error(`update catalog item answered ${updatedItem.status}: ${JSON.stringify(updatedItem.data)}`);
// end sample
record('updateCatalogItem', updatedItem);

// sample: retrieveCatalogItem
const detail = await retrieveCatalogItem({ sku });
if (detail.status !== 200)
  throw new Error(`catalog item detail answered ${detail.status}: ${JSON.stringify(detail.data)}`);
console.log(`${detail.data.sku}: ${detail.data.name}, eligibility ${detail.data.eligibility ?? 'not reviewed yet'}`);
// end sample
record('retrieveCatalogItem', detail);

// sample: listCatalogItems
const catalog = await listCatalogItems({ page_size: 20 });
if (catalog.status !== 200)
  throw new Error(`list catalog items answered ${catalog.status}: ${JSON.stringify(catalog.data)}`);
for (const entry of catalog.data.data) console.log(entry.sku, entry.eligibility);
// end sample
record('listCatalogItems', catalog);

// sample: retrieveCheckoutMethod
const method = await retrieveCheckoutMethod({});
if (method.status !== 200) throw new Error(`checkout method answered ${method.status}: ${JSON.stringify(method.data)}`);
console.log(`checkout method: ${JSON.stringify(method.data)}`);
// end sample
record('retrieveCheckoutMethod', method);

// A dispute, opened by the card network on the captured session: read both ways, listed, accepted.
const disputeId = String((await helper(`/sandbox/v1/payment_sessions/${sessionId}/disputes`)).dispute_id);

// sample: retrieveDispute
const dispute = await retrieveDispute(disputeId);
if (dispute.status !== 200)
  throw new Error(`retrieve dispute answered ${dispute.status}: ${JSON.stringify(dispute.data)}`);
console.log(`dispute ${dispute.data.dispute_id} is ${dispute.data.state}: respond by ${dispute.data.due_by}`);
// end sample
record('retrieveDispute', dispute);

// sample: listDisputes
const disputes = await listDisputes();
if (disputes.status !== 200)
  throw new Error(`list disputes answered ${disputes.status}: ${JSON.stringify(disputes.data)}`);
for (const entry of disputes.data.data) console.log(entry.id, entry.state, entry.amount);
// end sample
record('listDisputes', disputes);

// sample: retrieveDisputeRecord
const disputeRecord = await retrieveDisputeRecord(disputeId);
if (disputeRecord.status !== 200)
  throw new Error(`retrieve dispute record answered ${disputeRecord.status}: ${JSON.stringify(disputeRecord.data)}`);
console.log(
  `dispute ${disputeRecord.data.id} of charge ${disputeRecord.data.charge_id} is ${disputeRecord.data.state}`,
);
// end sample
record('retrieveDisputeRecord', disputeRecord);

// sample: acceptDispute
const accepted = await acceptDispute(disputeId, {});
if (accepted.status !== 200)
  throw new Error(`accept dispute answered ${accepted.status}: ${JSON.stringify(accepted.data)}`);
// end sample
record('acceptDispute', accepted);

console.log(`PARTNER_SAMPLES ${JSON.stringify(statuses)}`);
