// The short flow against the client Orval writes with its defaults (no configuration file: `orval
// -i <document> -o client/payments.ts`, which is its axios client, one function per operation,
// with the types): create an authorization session, pay it through the sandbox's helper, capture
// part of it, refund part of it, retrieve it, list it with a filter, capture again and read the
// 400's code, and read status_summary and service_fee. Axios returns the parsed JSON as sent, and
// throws an AxiosError for any status outside 2xx.
// It reads PARTNER_BASE_URL (default http://127.0.0.1:4010, the sandbox of `npm start`),
// PARTNER_API_KEY (default sandbox-dev-key) and PARTNER_RUN (default: the time in base 36).
import axios from 'axios';
import {
  PaymentSessionKindInput,
  PaymentSessionStatusInput,
  RefundReasonInput,
  capturePaymentSession,
  createPaymentSession,
  createRefund,
  listPaymentSessions,
  retrievePaymentSession,
  type PaymentSessionCaptureError,
} from './client/payments.js';

const baseUrl = process.env.PARTNER_BASE_URL || 'http://127.0.0.1:4010';
const apiKey = process.env.PARTNER_API_KEY || 'sandbox-dev-key';
const run = process.env.PARTNER_RUN || Date.now().toString(36);
// The generated functions call axios's default instance: its base URL and the key go there.
axios.defaults.baseURL = baseUrl;
axios.defaults.headers.common['x-service-api-key'] = apiKey;
const noCharges = { total_additional_charges: 0, total_discounts: 0 };

const created = await createPaymentSession({
  // With the defaults, a closed enum is an object of constants.
  kind: PaymentSessionKindInput.authorization,
  total_amount: 5000,
  amount_details: noCharges,
  success_url: 'https://partner.example/thanks',
  failure_url: 'https://partner.example/failed',
  customer_email: `${run}@partner.example`,
  customer_name: 'Partner Defaults',
  metadata: run,
  idempotency_key: `${run}-create`,
  order_items: [{ name: 'Thermometer', sku: 'TH-1', quantity: 1, price: 5000, amount_details: noCharges }],
});
const id = created.data.id;

// The customer pays on the hosted page: the sandbox's helper (not in the published document).
await axios.post(`/sandbox/v1/payment_sessions/${id}/complete_checkout`, {});

await capturePaymentSession(id, { total_amount: 3000, idempotency_key: `${run}-capture` });
const refund = await createRefund({
  payment_id: id,
  amount: 1000,
  reason: RefundReasonInput.customer_request,
  idempotency_key: `${run}-refund`,
});
const session = (await retrievePaymentSession(id)).data;
// Axios writes an array as status[]=captured, a parameter the service does not know (so it would
// not filter): `indexes: null` writes status=captured, as the contract's form style has it.
const list = await listPaymentSessions(
  { search: `${run}@partner.example`, status: [PaymentSessionStatusInput.captured] },
  { paramsSerializer: { indexes: null } },
);
const listed = list.data.payment_sessions.some((item) => item.id === id);

// A second capture answers 400, which axios throws: the body is capture's 400, PaymentSessionCaptureError.
const captureError = await capturePaymentSession(id, { total_amount: 1000, idempotency_key: `${run}-capture-2` }).then(
  (answer) => {
    throw new Error(`the second capture answered ${answer.status}`);
  },
  (error: unknown) => {
    if (!axios.isAxiosError<PaymentSessionCaptureError>(error) || error.response?.status !== 400) throw error;
    // An open enum is typed string with the defaults: any code as sent.
    return error.response.data.error;
  },
);

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
