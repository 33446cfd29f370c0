// The short flow against the SDK @hey-api/openapi-ts writes with its defaults (no configuration
// file: `openapi-ts -i <document> -o client`, its types, its SDK and the fetch client it bundles):
// create an authorization session, pay it through the sandbox's helper, capture part of it, refund
// part of it, retrieve it, list it with a filter, capture again and read the 400's code, and read
// status_summary and service_fee. The client returns the parsed JSON as sent.
// It reads PARTNER_BASE_URL (default http://127.0.0.1:4010, the sandbox of `npm start`),
// PARTNER_API_KEY (default sandbox-dev-key) and PARTNER_RUN (default: the time in base 36).
import { client } from './client/client.gen.js';
import {
  capturePaymentSession,
  createPaymentSession,
  createRefund,
  listPaymentSessions,
  retrievePaymentSession,
  type CapturePaymentSessionErrors,
} from './client/index.js';

const baseUrl = process.env.PARTNER_BASE_URL || 'http://127.0.0.1:4010';
const apiKey = process.env.PARTNER_API_KEY || 'sandbox-dev-key';
const run = process.env.PARTNER_RUN || Date.now().toString(36);
// Every operation declares the x-service-api-key scheme: `auth` answers it.
client.setConfig({ baseUrl, auth: () => apiKey });
const noCharges = { total_additional_charges: 0, total_discounts: 0 };

const created = await createPaymentSession({
  body: {
    // With the defaults, a closed enum is a union of string literals.
    kind: 'authorization',
    total_amount: 5000,
    amount_details: noCharges,
    success_url: 'https://partner.example/thanks',
    failure_url: 'https://partner.example/failed',
    customer_email: `${run}@partner.example`,
    customer_name: 'Partner Defaults',
    metadata: run,
    idempotency_key: `${run}-create`,
    order_items: [{ name: 'Thermometer', sku: 'TH-1', quantity: 1, price: 5000, amount_details: noCharges }],
  },
});
if (!created.data) throw new Error(`create answered ${created.response?.status}: ${JSON.stringify(created.error)}`);
const id = created.data.id;

// The customer pays on the hosted page: the sandbox's helper (not in the published document).
const paid = await fetch(`${baseUrl}/sandbox/v1/payment_sessions/${id}/complete_checkout`, {
  method: 'POST',
  headers: { 'x-service-api-key': apiKey, 'content-type': 'application/json' },
  body: '{}',
});
if (!paid.ok) throw new Error(`complete_checkout answered ${paid.status}`);

const path = { business_id: id };
const captured = await capturePaymentSession({ path, body: { total_amount: 3000, idempotency_key: `${run}-capture` } });
if (!captured.data) throw new Error(`capture answered ${captured.response?.status}: ${JSON.stringify(captured.error)}`);
const refund = await createRefund({
  body: { payment_id: id, amount: 1000, reason: 'customer_request', idempotency_key: `${run}-refund` },
});
if (!refund.data) throw new Error(`refund answered ${refund.response?.status}: ${JSON.stringify(refund.error)}`);

const session = (await retrievePaymentSession({ path })).data;
if (!session) throw new Error('retrieve answered no session');
const list = await listPaymentSessions({ query: { search: `${run}@partner.example`, status: ['captured'] } });
const listed = list.data?.payment_sessions.some((item) => item.id === id) ?? false;

// A second capture answers 400: `error` is the union of capture's error bodies.
const again = await capturePaymentSession({ path, body: { total_amount: 1000, idempotency_key: `${run}-capture-2` } });
if (again.response?.status !== 400 || !again.error)
  throw new Error(`the second capture answered ${again.response?.status}`);
// An open enum is typed `'a' | 'b' | string`, which TypeScript reads as string: any code as sent.
const captureError: string = (again.error as CapturePaymentSessionErrors[400]).error;

console.log(
  `PARTNER_DEFAULTS_RESULT ${JSON.stringify({
    session_id: id,
    captured: session.capture_amount,
    refund_id: refund.data.refund_id,
    listed,
    capture_error: captureError,
    status_summary: session.status_summary,
    // ServiceFee is `string | number`: the decimal as the service wrote it.
    service_fee: session.service_fee === undefined ? undefined : String(session.service_fee),
  })}`,
);
