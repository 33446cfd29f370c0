// Payment tokens in the sandbox: create payment token (a provision token request) and its 400s, the
// customer's and the clinician's side, retrieve, list with every filter at its boundary, update,
// delete, charging with a token and its 422s, and channel isolation. Every response is checked
// against the documents by the test sandbox.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_SEARCH_LENGTH, MAX_SEARCH_MATCHES } from '../../src/sandbox/domain/search-bounds.js';
import { takesTurn } from '../../src/sandbox/http/turns.js';
import { noCharges, OTHER_KEY, sessionRequest, testSandbox, type TestSandbox } from '../../testkit/sandbox.js';

let s: TestSandbox;
beforeEach(() => {
  s = testSandbox();
});
afterEach(() => s.close());

const DAY = 24 * 60 * 60;
const setupRequest = (overrides: Record<string, unknown> = {}) => ({
  success_url: 'https://shop.example/subscriptions/setup/done',
  failure_url: 'https://shop.example/subscriptions/setup/failed',
  customer_email: 'Pat.Lee@example.com',
  customer_name: 'Pat Lee',
  metadata: '{"plan":"monthly"}',
  ...overrides,
});
const createToken = (overrides: Record<string, unknown> = {}, options = {}) =>
  s.post('/api/v1/payment_tokens/create', setupRequest(overrides), options);
const complete = (id: string, answers?: Record<string, unknown>, options = {}) =>
  s.post(`/sandbox/v1/provision_requests/${id}/complete`, answers, options);
const decide = (id: string, decision: 'approve' | 'reject', extra: Record<string, unknown> = {}) =>
  s.post(`/sandbox/v1/provision_requests/${id}/letter`, { decision, ...extra });
const eligibility = (id: string, options = {}) => s.get(`/api/v1/eligibility/provision_request/${id}`, options);
const provisionRequest = (id: string, options = {}) => s.get(`/api/v1/payment_tokens/provision_request/${id}`, options);
const retrieve = (token: string, options = {}) => s.get(`/api/v1/payment_tokens/${encodeURIComponent(token)}`, options);
const list = (query = '', options = {}) => s.get(`/api/v1/payment_tokens${query}`, options);
const update = (token: string, body: unknown) =>
  s.post(`/api/v1/payment_tokens/${encodeURIComponent(token)}/update`, body);
const clock = async () => (await s.get('/sandbox/v1/clock')).body.now as string;
const advance = (seconds: number) => s.post('/sandbox/v1/clock/advance', { seconds });

/** A token provisioned through a setup whose letter is approved at once. */
async function provisioned(
  overrides: Record<string, unknown> = {},
  answers: Record<string, unknown> = { letter: 'approved' },
) {
  const { body } = await createToken(overrides);
  const done = await complete(body.provision_token_request_id, answers);
  expect(done.body.status).toBe('provisioned');
  return { requestId: body.provision_token_request_id as string, token: done.body.payment_token as string };
}

const massageGun = {
  name: 'Percussion massage gun',
  sku: 'MSG-GUN-1',
  quantity: 1,
  price: 19900,
  amount_details: noCharges,
};
const vitaminD = { name: 'Vitamin D3 2000 IU', sku: 'VITD-2000', quantity: 1, price: 1500, amount_details: noCharges };
const charge = (token: string, items?: unknown[]) =>
  s.post(
    '/payments/v1/create_payment_session',
    sessionRequest({
      payment_token: token,
      ...(items
        ? {
            order_items: items,
            amount_details: noCharges,
            total_amount: (items as Array<{ price: number; quantity: number }>).reduce(
              (sum, i) => sum + i.price * i.quantity,
              0,
            ),
          }
        : {}),
    }),
  );
const requestIdOf = (redirectUrl: string) => new URL(redirectUrl).pathname.split('/').pop()!;

describe('create payment token', () => {
  it('makes a provision token request whose redirect_url leads to the setup page', async () => {
    const { status, body } = await createToken();
    expect(status).toBe(200);
    expect(body.provision_token_request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.redirect_url).toMatch(new RegExp(`/checkout/setup/${body.provision_token_request_id}$`));
    const page = await s.call('GET', new URL(body.redirect_url).pathname);
    expect(page.status).toBe(200);
    expect(page.body).toContain('Health survey');
    expect((await provisionRequest(body.provision_token_request_id)).body).toEqual({
      payment_token: null,
      metadata: '{"plan":"monthly"}',
    });
  });

  it('makes the redirect iframe-compatible with use_iframe', async () => {
    expect((await createToken({ use_iframe: true })).body.redirect_url).toMatch(
      /\/checkout\/setup\/[0-9a-f-]{36}\?mode=iframe$/,
    );
  });

  it.each(['success_url', 'failure_url'])('answers MissingField naming %s when it is absent', async (field) => {
    const body: Record<string, unknown> = setupRequest();
    delete body[field];
    const reply = await s.post('/api/v1/payment_tokens/create', body);
    expect(reply.status).toBe(400);
    expect(reply.body.error).toBe('MissingField');
    expect(reply.body.message).toContain(field);
  });

  it.each([
    ['success_url', { success_url: 'not a url' }],
    ['failure_url', { failure_url: 'javascript:alert(1)' }],
    ['success_url', { success_url: ' https://shop.example/ok' }],
    ['customer_state', { customer_state: 'California' }],
    ['customer_state', { customer_state: 'ZZ' }],
    ['metadata', { metadata: { plan: 'monthly' } }],
    ['customer_email', { customer_email: 42 }],
    ['use_iframe', { use_iframe: 'yes' }],
  ])('answers ValidationError naming %s', async (field, overrides) => {
    const reply = await createToken(overrides);
    expect(reply.status).toBe(400);
    expect(reply.body.error).toBe('ValidationError');
    expect(reply.body.message).toContain(field);
  });

  it('answers ValidationError for malformed JSON and a body that is not an object', async () => {
    for (const raw of ['{', '[]', '"x"']) {
      const reply = await s.call('POST', '/api/v1/payment_tokens/create', { raw });
      expect({ status: reply.status, error: reply.body.error }).toEqual({ status: 400, error: 'ValidationError' });
    }
  });

  it('returns the same request for the same key and parameters, the email compared case-insensitively', async () => {
    const first = await createToken({ idempotency_key: 'setup-1' });
    const again = await createToken({ idempotency_key: 'setup-1', customer_email: 'pat.lee@EXAMPLE.com' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
  });

  it('answers IdempotencyViolation naming every parameter that differs under the same key', async () => {
    await createToken({ idempotency_key: 'setup-2' });
    const reply = await createToken({
      idempotency_key: 'setup-2',
      failure_url: 'https://shop.example/other',
      metadata: '{"plan":"yearly"}',
    });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toBe('IdempotencyViolation');
    expect(reply.body.message).toContain('failure_url, metadata');
  });

  it('answers IdempotencyViolation when the email already has a token, whatever its case; a retry of the original still replays', async () => {
    const { body } = await createToken({ idempotency_key: 'setup-3' });
    await complete(body.provision_token_request_id, { letter: 'approved' });
    const reply = await createToken({ customer_email: 'PAT.LEE@example.com' });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toBe('IdempotencyViolation');
    expect(reply.body.message).toContain('update payment token');
    expect((await createToken({ idempotency_key: 'setup-3' })).body.provision_token_request_id).toBe(
      body.provision_token_request_id,
    );
  });

  it('answers WaitingForVerification while the letter of that email is with the clinician', async () => {
    const { body } = await createToken();
    await complete(body.provision_token_request_id, { letter: 'pending' });
    const waiting = await createToken();
    expect(waiting.status).toBe(400);
    expect(waiting.body.error).toBe('WaitingForVerification');
    await decide(body.provision_token_request_id, 'reject');
    // Rejected: no token and no letter under way, so the customer may start over.
    expect((await createToken()).status).toBe(200);
  });

  it('answers ServerError through the fault helper, and the retry with the same key succeeds', async () => {
    expect((await s.post('/sandbox/v1/faults', { operation_id: 'createPaymentToken', status: 400 })).status).toBe(200);
    const failed = await createToken({ idempotency_key: 'setup-4' });
    expect({ status: failed.status, error: failed.body.error }).toEqual({ status: 400, error: 'ServerError' });
    expect((await createToken({ idempotency_key: 'setup-4' })).status).toBe(200);
  });

  it('accepts a request without customer identity: its letters are its own', async () => {
    const { requestId, token } = await provisioned({ customer_email: undefined, customer_name: undefined });
    expect((await retrieve(token)).body).not.toHaveProperty('customer_email');
    expect((await eligibility(requestId)).body.eligibility_status).toBe('approved');
  });
});

describe('an email is checked the same way on every create', () => {
  const token = (body: Record<string, unknown>) =>
    s.post('/api/v1/payment_tokens/create', {
      success_url: 'https://shop.example/ok',
      failure_url: 'https://shop.example/ko',
      idempotency_key: 'tok-email',
      ...body,
    });

  it('create payment token refuses "not-an-email" with ValidationError, as create payment session refuses it', async () => {
    const refused = await token({ customer_email: 'not-an-email' });
    expect({ status: refused.status, error: refused.body.error }).toEqual({ status: 400, error: 'ValidationError' });
    expect(refused.body.message).toContain('customer_email');
    const session = await s.post(
      '/payments/v1/create_payment_session',
      sessionRequest({ customer_email: 'not-an-email' }),
    );
    expect({ status: session.status, error: session.body.error }).toEqual({
      status: 400,
      error: 'InvalidRequestParameter',
    });
  });

  it('accepts the emails create payment session accepts', async () => {
    expect((await token({ customer_email: 'Jane.Doe+tokens@example.com' })).status).toBe(200);
  });
});

describe('the provision request, the race between redirect and webhook, and eligibility', () => {
  it('before the survey: no token, no items, never_requested', async () => {
    const { body } = await createToken();
    expect((await eligibility(body.provision_token_request_id)).body).toEqual({
      items: [],
      eligibility_status: 'never_requested',
      lmn_expires_at: null,
    });
  });

  it('a letter pending: the customer is redirected to success_url before any token exists; the partner polls until the webhook', async () => {
    const { body } = await createToken();
    const id = body.provision_token_request_id;
    const done = await complete(id, { letter: 'pending' });
    expect(done.body).toMatchObject({
      status: 'awaiting_letter',
      payment_token: null,
      redirect_url: 'https://shop.example/subscriptions/setup/done',
    });
    // The redirect has happened; the webhook has not.
    expect(await s.outbox('payment_token.updated')).toEqual([]);
    expect((await provisionRequest(id)).body.payment_token).toBeNull();
    expect((await eligibility(id)).body).toEqual({
      items: ['MSG-GUN-1', 'VITD-2000', 'WLP-12'],
      eligibility_status: 'pending',
      lmn_expires_at: null,
    });

    const approved = await decide(id, 'approve', { lmn_expires_at: '2099-06-30' });
    const token = approved.body.payment_token;
    expect(token).toMatch(/^ptok_/);
    const [event] = await s.outbox('payment_token.updated');
    expect(event!.payload.data).toEqual({
      payment_token: token,
      provision_token_request_id: id,
      lmn_expires_at: '2099-06-30',
      customer_email: 'Pat.Lee@example.com',
      customer_name: 'Pat Lee',
      metadata: '{"plan":"monthly"}',
    });
    expect(event!.payload.webhook_delivery_id).toMatch(/^dlv_[0-9a-f]{32}$/);
    expect((await provisionRequest(id)).body).toEqual({ payment_token: token, metadata: '{"plan":"monthly"}' });
    expect((await eligibility(id)).body).toEqual({
      items: ['BPM-200', 'TH-10', 'FAK-50', 'MSG-GUN-1', 'VITD-2000', 'WLP-12'],
      eligibility_status: 'approved',
      lmn_expires_at: '2099-06-30',
    });
  });

  it('a letter approved at once: the webhook is queued with the redirect, in the same step', async () => {
    const { requestId, token } = await provisioned();
    expect((await s.outbox('payment_token.updated')).map((e) => e.payload.data.payment_token)).toEqual([token]);
    expect((await provisionRequest(requestId)).body.payment_token).toBe(token);
  });

  it('covers only the items the survey named, intersected with the catalog', async () => {
    const { body } = await createToken();
    await complete(body.provision_token_request_id, {
      skus: ['VITD-2000', 'NOT-IN-CATALOG', 'BPM-200'],
      letter: 'pending',
    });
    expect((await eligibility(body.provision_token_request_id)).body.items).toEqual(['VITD-2000']);
  });

  it('pending: the prediction stays intersected with the catalog, whatever a review decides meanwhile; empty only before the survey', async () => {
    const { body } = await createToken();
    const id = body.provision_token_request_id;
    expect((await eligibility(id)).body).toEqual({
      items: [],
      eligibility_status: 'never_requested',
      lmn_expires_at: null,
    });
    await complete(id, { skus: ['MSG-GUN-1'], letter: 'pending' });
    expect((await eligibility(id)).body).toEqual({
      items: ['MSG-GUN-1'],
      eligibility_status: 'pending',
      lmn_expires_at: null,
    });
    // The item reviewed ineligible is still in the partner's catalog: the prediction keeps it.
    await s.post('/sandbox/v1/catalog/items/review', { sku: 'MSG-GUN-1', eligibility: 'ineligible' });
    expect((await eligibility(id)).body).toEqual({
      items: ['MSG-GUN-1'],
      eligibility_status: 'pending',
      lmn_expires_at: null,
    });
  });

  it('no item needs a letter: the token is issued at once and eligibility stays never_requested, with the eligible items', async () => {
    const { body } = await createToken();
    const done = await complete(body.provision_token_request_id, { skus: [] });
    expect(done.body).toMatchObject({ status: 'provisioned', letter: null });
    expect((await eligibility(body.provision_token_request_id)).body).toEqual({
      items: ['BPM-200', 'TH-10', 'FAK-50'],
      eligibility_status: 'never_requested',
      lmn_expires_at: null,
    });
  });

  it('rejected by the clinician: no token, eligibility rejected, no webhook', async () => {
    const { body } = await createToken();
    const id = body.provision_token_request_id;
    await complete(id, { letter: 'pending' });
    const rejected = await decide(id, 'reject');
    // The customer left for success_url when the survey ended; the later decision does not move them.
    expect(rejected.body).toMatchObject({
      status: 'rejected',
      payment_token: null,
      redirect_url: 'https://shop.example/subscriptions/setup/done',
    });
    expect((await provisionRequest(id)).body.payment_token).toBeNull();
    expect((await eligibility(id)).body).toEqual({
      items: ['BPM-200', 'TH-10', 'FAK-50'],
      eligibility_status: 'rejected',
      lmn_expires_at: null,
    });
    expect(await s.outbox('payment_token.updated')).toEqual([]);
  });

  it('a setup the customer canceled: sent to failure_url, no token, and never_requested with no items, as before the survey', async () => {
    const { body } = await createToken();
    const id = body.provision_token_request_id;
    const canceled = await complete(id, { cancel: true });
    expect(canceled.body).toMatchObject({
      status: 'canceled',
      payment_token: null,
      redirect_url: 'https://shop.example/subscriptions/setup/failed',
    });
    expect((await provisionRequest(id)).body.payment_token).toBeNull();
    expect((await eligibility(id)).body).toEqual({
      items: [],
      eligibility_status: 'never_requested',
      lmn_expires_at: null,
    });
  });

  it('ineligible survey: rejected, sent to failure_url', async () => {
    const { body } = await createToken();
    const done = await complete(body.provision_token_request_id, { eligible: false });
    expect(done.body).toMatchObject({
      status: 'rejected',
      payment_token: null,
      redirect_url: 'https://shop.example/subscriptions/setup/failed',
    });
    expect((await eligibility(body.provision_token_request_id)).body.eligibility_status).toBe('rejected');
  });

  it('the letter stands through its expiry day (UTC, inclusive), then eligibility is expired', async () => {
    const today = (await clock()).slice(0, 10);
    const { requestId } = await provisioned({}, { letter: 'approved', lmn_expires_at: today });
    expect((await eligibility(requestId)).body).toMatchObject({
      eligibility_status: 'approved',
      lmn_expires_at: today,
    });
    const untilMidnight = Math.ceil((Date.parse(`${today}T23:59:59.999Z`) - Date.parse(await clock())) / 1000) - 1;
    if (untilMidnight > 0) await advance(untilMidnight);
    expect((await eligibility(requestId)).body.eligibility_status).toBe('approved');
    await advance(2);
    expect((await eligibility(requestId)).body).toEqual({
      items: ['BPM-200', 'TH-10', 'FAK-50'],
      eligibility_status: 'expired',
      lmn_expires_at: today,
    });
  });

  it('answers ValidationError for an id that is not a UUID, and TotalAmountInvalid through the fault helper', async () => {
    const reply = await eligibility('not-a-uuid');
    expect({ status: reply.status, error: reply.body.error }).toEqual({ status: 400, error: 'ValidationError' });
    const { body } = await createToken();
    await s.post('/sandbox/v1/faults', {
      operation_id: 'retrieveProvisionRequestEligibility',
      status: 400,
      error: 'TotalAmountInvalid',
    });
    const injected = await eligibility(body.provision_token_request_id);
    expect({ status: injected.status, error: injected.body.error }).toEqual({
      status: 400,
      error: 'TotalAmountInvalid',
    });
    expect((await eligibility(body.provision_token_request_id)).status).toBe(200);
  });

  it('refuses a fault code the operation does not have', async () => {
    const reply = await s.post('/sandbox/v1/faults', {
      operation_id: 'retrievePaymentToken',
      status: 400,
      error: 'TotalAmountInvalid',
    });
    expect({ status: reply.status, error: reply.body.error }).toEqual({ status: 400, error: 'InvalidRequest' });
    expect(
      (
        await s.post('/sandbox/v1/faults', {
          operation_id: 'capturePaymentSession',
          status: 500,
          error: 'SessionVoided',
        })
      ).body.error,
    ).toBe('InvalidRequest');
  });

  it("answers 404 for an unknown request and for another channel's", async () => {
    const { body } = await createToken();
    expect((await eligibility('7c9e6679-7425-40de-944b-e07fc1f90ae7')).status).toBe(404);
    expect((await eligibility(body.provision_token_request_id, { key: OTHER_KEY })).status).toBe(404);
    expect((await provisionRequest(body.provision_token_request_id, { key: OTHER_KEY })).status).toBe(404);
    expect((await complete(body.provision_token_request_id, {}, { key: OTHER_KEY })).status).toBe(404);
  });

  it('refuses to complete twice, to decide a request without a pending letter, and an expired or invalid card', async () => {
    const { body } = await createToken();
    const id = body.provision_token_request_id;
    expect((await decide(id, 'approve')).body.error).toBe('InvalidState');
    const past = await complete(id, { card: { number: '4242424242424242', exp_month: 1, exp_year: 2001 } });
    expect(past.body).toMatchObject({ error: 'InvalidRequest', message: expect.stringContaining('expired') });
    expect(
      (await complete(id, { card: { number: '4242424242424241', exp_month: 12, exp_year: 2099 } })).body.message,
    ).toContain('Luhn');
    expect((await complete(id, { letter: 'approved', lmn_expires_at: '2001-01-01' })).body.message).toContain(
      'lmn_expires_at',
    );
    expect((await complete(id, { letter: 'approved' })).status).toBe(200);
    expect((await complete(id)).body.error).toBe('InvalidState');
  });
});

describe('the eligibility path is a UUID, as the document says', () => {
  it('GET /api/v1/eligibility/provision_request/0 answers ValidationError, and the document calls "0" invalid', async () => {
    const { status, body } = await s.get('/api/v1/eligibility/provision_request/0');
    expect({ status, error: body.error }).toEqual({ status: 400, error: 'ValidationError' });
    expect(body.message).toContain('provision_token_request_id');
    const contract = (await import('../../generated/openapi.json', { with: { type: 'json' } })).default as any;
    expect(contract.components.parameters.ProvisionTokenRequestId.schema).toMatchObject({
      type: 'string',
      pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
      'x-inferred-bounds': ['pattern'],
    });
    expect(contract.components.parameters.ProvisionTokenRequestId.schema.format).toBeUndefined();
  });

  it('a UUID that names no request answers 404', async () => {
    const { status, body } = await s.get('/api/v1/eligibility/provision_request/00000000-0000-4000-8000-000000000000');
    expect({ status, error: body.error }).toEqual({ status: 404, error: 'NotFound' });
  });
});

describe('retrieve, list, delete', () => {
  it('retrieves the token with its card and letter', async () => {
    const { token } = await provisioned(
      {},
      {
        letter: 'approved',
        lmn_expires_at: '2099-01-31',
        card: { number: '5555555555554444', exp_month: 3, exp_year: 2098 },
      },
    );
    const { status, body } = await retrieve(token);
    expect(status).toBe(200);
    expect(body).toEqual({
      payment_token: token,
      created_at: expect.any(String),
      customer_email: 'Pat.Lee@example.com',
      customer_name: 'Pat Lee',
      user_business_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      lmn_expires_at: '2099-01-31',
      payment_methods: [{ type: 'card', brand: 'mastercard', last4: '4444', exp_month: 3, exp_year: 2098 }],
    });
  });

  it("answers 404 for an unknown token, another channel's, and a token whose checkout has not finished", async () => {
    const { token } = await provisioned();
    expect((await retrieve('ptok_unknown')).status).toBe(404);
    expect((await retrieve(token, { key: OTHER_KEY })).status).toBe(404);
    const issuer = await s.createSession({ tokenize: true });
    const pending = (await s.get(`/sandbox/v1/payment_sessions/${issuer}`)).body.issued_payment_token;
    expect((await retrieve(pending)).status).toBe(404);
  });

  it("lists the channel's tokens newest first, paged, with counts", async () => {
    const tokens: string[] = [];
    for (const n of [1, 2, 3]) tokens.push((await provisioned({ customer_email: `c${n}@example.com` })).token);
    const { body } = await list('?page_size=2');
    expect(body.payment_tokens.map((t: { payment_token: string }) => t.payment_token)).toEqual([tokens[2], tokens[1]]);
    expect(body.pagination).toEqual({ current_page: 1, page_size: 2, count: 3, last_page: 2 });
    expect(
      (await list('?page=2&page_size=2')).body.payment_tokens.map((t: { payment_token: string }) => t.payment_token),
    ).toEqual([tokens[0]]);
    expect((await list('?page=3&page_size=2')).body.payment_tokens).toEqual([]);
    expect((await list('', { key: OTHER_KEY })).body.pagination.count).toBe(0);
  });

  it('filters by email and name, partially and case-insensitively, short needles included', async () => {
    await provisioned({ customer_email: 'ann.smith@example.com', customer_name: 'Ann Smith' });
    await provisioned({ customer_email: 'bob.jones@example.org', customer_name: 'Bob Jones' });
    const names = async (query: string) =>
      (await list(query)).body.payment_tokens.map((t: { customer_name: string }) => t.customer_name);
    expect(await names('?email=SMITH')).toEqual(['Ann Smith']);
    expect(await names('?email=.org')).toEqual(['Bob Jones']);
    expect(await names('?email=o')).toEqual(['Bob Jones', 'Ann Smith']);
    expect(await names('?name=jo')).toEqual(['Bob Jones']);
    expect(await names('?name=ann&email=example.com')).toEqual(['Ann Smith']);
    expect(await names('?name=nobody')).toEqual([]);
    expect((await list('?email=o')).body.pagination.count).toBe(2);
  });

  it('filters card_expires_before and lmn_expires_before on or before, at their boundaries', async () => {
    await provisioned(
      { customer_email: 'a@example.com' },
      {
        letter: 'approved',
        lmn_expires_at: '2098-05-31',
        card: { number: '4242424242424242', exp_month: 5, exp_year: 2098 },
      },
    );
    await provisioned(
      { customer_email: 'b@example.com' },
      {
        letter: 'approved',
        lmn_expires_at: '2098-06-01',
        card: { number: '4242424242424242', exp_month: 6, exp_year: 2098 },
      },
    );
    await provisioned(
      { customer_email: 'c@example.com' },
      { skus: [], card: { number: '4242424242424242', exp_month: 1, exp_year: 2099 } },
    );
    const emails = async (query: string) =>
      (await list(query)).body.payment_tokens.map((t: { customer_email: string }) => t.customer_email).sort();
    expect(await emails('?card_expires_before=2098-05')).toEqual(['a@example.com']);
    expect(await emails('?card_expires_before=2098-06')).toEqual(['a@example.com', 'b@example.com']);
    expect(await emails('?card_expires_before=2098-04')).toEqual([]);
    expect(await emails('?lmn_expires_before=2098-05-31')).toEqual(['a@example.com']);
    expect(await emails('?lmn_expires_before=2098-06-01')).toEqual(['a@example.com', 'b@example.com']);
    expect(await emails('?lmn_expires_before=2098-05-30')).toEqual([]);
    expect((await list('?lmn_expires_before=2098-06-01&email=b@')).body.pagination.count).toBe(1);
  });

  it.each([
    'card_expires_before=2098-13',
    'card_expires_before=2098-5',
    'lmn_expires_before=2098-02-30',
    'lmn_expires_before=tomorrow',
    'page=0',
    'page_size=5000',
  ])('answers InvalidRequestParameter for %s', async (query) => {
    const reply = await list(`?${query}`);
    expect({ status: reply.status, error: reply.body.error }).toEqual({
      status: 400,
      error: 'InvalidRequestParameter',
    });
  });

  it('deletes irreversibly: retrieve, update, delete and a charge then answer NotFound, and the list leaves it out', async () => {
    const { token } = await provisioned();
    expect(await s.post(`/api/v1/payment_tokens/${token}/delete`)).toMatchObject({ status: 200, body: {} });
    expect((await retrieve(token)).status).toBe(404);
    expect((await update(token, {})).status).toBe(404);
    expect((await s.post(`/api/v1/payment_tokens/${token}/delete`)).status).toBe(404);
    const charged = await charge(token);
    expect({ status: charged.status, error: charged.body.error }).toEqual({ status: 404, error: 'NotFound' });
    expect((await list()).body.pagination.count).toBe(0);
    // The customer may set up a new token once the old one is gone.
    expect((await createToken()).status).toBe(200);
  });

  it('another channel cannot delete the token', async () => {
    const { token } = await provisioned();
    expect((await s.post(`/api/v1/payment_tokens/${token}/delete`, undefined, { key: OTHER_KEY })).status).toBe(404);
    expect((await retrieve(token)).status).toBe(200);
  });
});

describe('a token search, whatever another channel holds', () => {
  /** `count` active tokens of channel dev, written straight to the store: the API would take too long. */
  const seedDev = (count: number) =>
    s.store.transaction(() => {
      for (let i = 0; i < count; i++) {
        const email = `buyer${i}@example.com`;
        s.store.tokens.insert({
          token: `ptok_seed_${i}`,
          channel: 'dev',
          session_id: null,
          status: 'active',
          next_action: null,
          created_at: '2026-01-01T00:00:00.000Z',
          customer_email: email,
          customer_name: `Buyer ${i}`,
          customer_key: email,
          card_brand: 'visa',
          card_last4: '4242',
          card_expires: '2030-01',
          lmn_expires_at: null,
          provision_request_id: null,
          metadata: null,
          success_url: null,
          failure_url: null,
        });
      }
    });

  it('in a channel without tokens answers its own empty page', async () => {
    seedDev(300);
    const other = await list('?email=example.com', { key: OTHER_KEY });
    expect({ status: other.status, body: other.body }).toEqual({
      status: 200,
      body: { payment_tokens: [], pagination: { current_page: 1, page_size: 30, count: 0, last_page: 1 } },
    });
    expect((await list('?email=example.com&name=buyer')).body.pagination.count).toBe(300);
  });

  it("past a bound answers the list's 400, saying which bound and what to do", async () => {
    seedDev(MAX_SEARCH_MATCHES + 1);
    const broad = await list('?email=Example.com');
    expect({ status: broad.status, body: broad.body }).toEqual({
      status: 400,
      body: {
        error: 'InvalidRequestParameter',
        message: `email "Example.com" matches more than ${MAX_SEARCH_MATCHES} tokens, the most the sandbox counts for one search: search for something longer or more specific.`,
      },
    });
    const long = await list(`?name=${'a'.repeat(MAX_SEARCH_LENGTH + 1)}`);
    expect({ status: long.status, body: long.body }).toEqual({
      status: 400,
      body: {
        error: 'InvalidRequestParameter',
        message: `name must be at most ${MAX_SEARCH_LENGTH} characters in the sandbox.`,
      },
    });
    // A precise search, and another channel, are answered.
    expect((await list('?email=buyer5000@')).body.pagination.count).toBe(1);
    expect((await list('?email=example.com', { key: OTHER_KEY })).status).toBe(200);
  });

  it('waits for a turn of its own, as a session search does', () => {
    expect(takesTurn('listPaymentTokens', { email: 'ann' })).toBe(true);
    expect(takesTurn('listPaymentTokens', { name: 'ann' })).toBe(true);
    expect(takesTurn('listPaymentTokens', { card_expires_before: '2030-01' })).toBe(false);
  });
});

describe('charging with a token, its 422s and their fix', () => {
  it('takes the customer from the token and ignores customer_email and customer_name', async () => {
    const { token } = await provisioned();
    const { body } = await charge(token);
    expect(
      (await s.get(`/payments/v1/payment_sessions?search=${body.id}`)).body.payment_sessions.map(
        (p: { id: string }) => p.id,
      ),
    ).toEqual([body.id]);
    expect((await s.get(`/sandbox/v1/payment_sessions/${body.id}`)).body.status).toBe('processing');
    expect(
      (await s.get('/payments/v1/payment_sessions?search=pat.lee')).body.payment_sessions.map(
        (p: { id: string }) => p.id,
      ),
    ).toEqual([body.id]);
    expect((await s.get('/payments/v1/payment_sessions?search=jane')).body.pagination.count).toBe(0);
  });

  it('an expired card answers 422 UpdatePaymentMethod; the customer enters a new card, and the charge goes through', async () => {
    const now = await clock();
    const [year, month] = [Number(now.slice(0, 4)), Number(now.slice(5, 7))];
    const { token } = await provisioned(
      {},
      {
        letter: 'approved',
        lmn_expires_at: '2099-12-31',
        card: { number: '4242424242424242', exp_month: month, exp_year: year },
      },
    );
    expect((await charge(token)).status).toBe(200);
    await advance(32 * DAY);
    const refused = await charge(token);
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({
      next_action: 'UpdatePaymentMethod',
      redirect_url: expect.stringMatching(/\/checkout\/setup\/[0-9a-f-]{36}$/),
    });
    const fixId = requestIdOf(refused.body.redirect_url);
    // Asking again sends the customer to the same page.
    expect(requestIdOf((await charge(token)).body.redirect_url)).toBe(fixId);
    expect((await s.get(`/sandbox/v1/provision_requests/${fixId}`)).body).toMatchObject({
      purpose: 'fix',
      status: 'awaiting_customer',
      needs: ['card'],
    });
    const fixed = await complete(fixId, { card: { number: '4000056655665556', exp_month: 12, exp_year: year + 2 } });
    expect(fixed.body).toMatchObject({ status: 'provisioned', payment_token: token });
    expect((await s.outbox('payment_token.updated')).at(-1)!.payload.data).toMatchObject({
      payment_token: token,
      provision_token_request_id: fixId,
    });
    expect((await retrieve(token)).body.payment_methods).toEqual([
      { type: 'card', brand: 'visa', last4: '5556', exp_month: 12, exp_year: year + 2 },
    ]);
    expect((await charge(token)).status).toBe(200);
  });

  it('refuses at create a URL that is invalid once its placeholder is filled in either way, before a 422 could store it', async () => {
    // success_url "http://{{payment_session_id}}" passed the check (filled with a UUID), was filled
    // with nothing on the 422's fix page, and the customer's valid card then got a 500.
    const now = await clock();
    const { token } = await provisioned(
      {},
      {
        letter: 'approved',
        lmn_expires_at: '2099-12-31',
        card: { number: '4242424242424242', exp_month: Number(now.slice(5, 7)), exp_year: Number(now.slice(0, 4)) },
      },
    );
    await advance(32 * DAY);
    for (const field of ['success_url', 'failure_url']) {
      const refused = await s.post(
        '/payments/v1/create_payment_session',
        sessionRequest({ payment_token: token, [field]: 'http://{{payment_session_id}}' }),
      );
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        error: 'InvalidRequestParameter',
        message: expect.stringContaining(`${field} is not a valid URL once {{payment_session_id}} is left empty`),
      });
    }
    // Refused before the 422: no fix page was made for the customer to reach.
    expect(s.store.db.prepare('SELECT COUNT(*) FROM provision_requests').pluck().get()).toBe(1);
    // Without a token, the same URL is refused just the same: any charge may meet a 422 later.
    expect(
      (
        await s.post(
          '/payments/v1/create_payment_session',
          sessionRequest({ success_url: 'http://{{payment_session_id}}' }),
        )
      ).body.error,
    ).toBe('InvalidRequestParameter');
    // The placeholder in a path or a query stays valid either way.
    expect(
      (
        await s.post(
          '/payments/v1/create_payment_session',
          sessionRequest({ success_url: 'https://shop.example/ok/{{payment_session_id}}?s={{payment_session_id}}' }),
        )
      ).status,
    ).toBe(200);
  });

  it('an expired letter answers 422 TakeHealthSurvey for items that need one, not for the others', async () => {
    const today = (await clock()).slice(0, 10);
    const { token } = await provisioned({}, { letter: 'approved', lmn_expires_at: today });
    expect((await charge(token, [massageGun])).status).toBe(200);
    await advance(DAY);
    expect((await charge(token)).status).toBe(200);
    const refused = await charge(token, [massageGun]);
    expect(refused.status).toBe(422);
    expect(refused.body.next_action).toBe('TakeHealthSurvey');
    const fixId = requestIdOf(refused.body.redirect_url);
    expect((await complete(fixId, { letter: 'pending' })).body.status).toBe('awaiting_letter');
    expect((await charge(token, [massageGun])).status).toBe(422);
    await decide(fixId, 'approve');
    expect((await charge(token, [massageGun])).status).toBe(200);
  });

  it('items the letter does not cover answer TakeHealthSurvey', async () => {
    const { token } = await provisioned({}, { letter: 'approved', skus: ['MSG-GUN-1'] });
    expect((await charge(token, [massageGun])).status).toBe(200);
    const refused = await charge(token, [massageGun, vitaminD]);
    expect({ status: refused.status, next_action: refused.body.next_action }).toEqual({
      status: 422,
      next_action: 'TakeHealthSurvey',
    });
  });

  it('answers SessionPending before the checkout of the issuing tokenize=true session finishes', async () => {
    const issuer = await s.createSession({ tokenize: true });
    const token = (await s.get(`/sandbox/v1/payment_sessions/${issuer}`)).body.issued_payment_token;
    const reply = await charge(token);
    expect({ status: reply.status, error: reply.body.error }).toEqual({ status: 400, error: 'SessionPending' });
    await s.complete(issuer);
    expect((await charge(token)).status).toBe(200);
    expect((await retrieve(token)).body.payment_methods).toHaveLength(1);
  });

  it('a free trial yields a token that a later charge uses', async () => {
    const trial = await s.createSession({
      total_amount: 0,
      amount_details: noCharges,
      tokenize: true,
      display_next_bill_info: { total_amount: 2500, date: '2099-12-21' },
      order_items: [
        { name: 'Vitamin D3 2000 IU, first month', sku: 'VITD-2000', quantity: 1, price: 0, amount_details: noCharges },
      ],
    });
    await s.complete(trial);
    const token = (await s.get(`/sandbox/v1/payment_sessions/${trial}`)).body.issued_payment_token;
    const [event] = await s.outbox('payment_token.updated');
    expect(event!.payload.data).toMatchObject({
      payment_token: token,
      payment_session_id: trial,
      lmn_expires_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    // The trial's survey covered its item that needs a letter: the first bill goes through.
    expect((await charge(token, [{ ...vitaminD, price: 2500 }])).status).toBe(200);
    expect((await s.get(`/sandbox/v1/payment_tokens/${token}/eligibility`)).body).toMatchObject({
      eligibility_status: 'approved',
      items: expect.arrayContaining(['VITD-2000']),
    });
  });
});

describe('customer identity with a payment token', () => {
  it("is the token's user, not the request's customer_email and customer_name", async () => {
    const issuer = await s.createSession({
      tokenize: true,
      customer_email: 'token.owner@example.com',
      customer_name: 'Tia Owner',
    });
    const token = (await s.get(`/sandbox/v1/payment_sessions/${issuer}`)).body.issued_payment_token;
    await s.complete(issuer);
    const charge = (
      await s.post(
        '/payments/v1/create_payment_session',
        sessionRequest({ payment_token: token, customer_email: 'someone.else@example.com', customer_name: 'Else' }),
      )
    ).body.id;
    const search = async (q: string) =>
      (await s.get(`/payments/v1/payment_sessions?search=${q}`)).body.payment_sessions.map((p: any) => p.id);
    expect(await search('someone.else')).toEqual([]);
    expect(await search('token.owner')).toEqual(expect.arrayContaining([charge, issuer]));
  });
});

describe('update payment token', () => {
  it('answers None when nothing needs the customer', async () => {
    const { token } = await provisioned();
    expect((await update(token, {})).body).toEqual({ next_action: 'None' });
    expect(
      (
        await update(token, {
          update_card_info: false,
          order_items: [{ name: 'Thermometer', sku: 'TH-10', quantity: 1, price: 1250, amount_details: noCharges }],
        })
      ).body,
    ).toEqual({ next_action: 'None' });
    expect((await update(token, { order_items: [massageGun] })).body).toEqual({ next_action: 'None' });
  });

  it('answers HealthSurvey for new items that need a letter; the token waits for the customer, then charges', async () => {
    const { token } = await provisioned({}, { letter: 'approved', skus: ['MSG-GUN-1'] });
    const { body } = await update(token, { update_card_info: false, order_items: [massageGun, vitaminD] });
    expect(body).toEqual({
      next_action: 'HealthSurvey',
      redirect_url: expect.stringContaining(`/checkout/setup/${body.provision_token_request_id}`),
      provision_token_request_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect((await charge(token, [massageGun])).body.next_action).toBe('TakeHealthSurvey');
    expect((await eligibility(body.provision_token_request_id)).body.eligibility_status).toBe('approved');
    await complete(body.provision_token_request_id, { letter: 'approved' });
    expect((await eligibility(body.provision_token_request_id)).body.items).toEqual(
      expect.arrayContaining(['MSG-GUN-1', 'VITD-2000']),
    );
    expect((await charge(token, [massageGun, vitaminD])).status).toBe(200);
    expect((await s.outbox('payment_token.updated')).at(-1)!.payload.data.provision_token_request_id).toBe(
      body.provision_token_request_id,
    );
  });

  it('with update_card_info, sends the customer to enter a card', async () => {
    const { token } = await provisioned();
    const { body } = await update(token, { update_card_info: true });
    expect(body).toMatchObject({ next_action: 'UpdatePaymentMethod', provision_token_request_id: expect.any(String) });
    expect((await charge(token)).body.next_action).toBe('UpdatePaymentMethod');
    await complete(body.provision_token_request_id);
    expect((await charge(token)).status).toBe(200);
  });

  it.each([
    [{ update_card_info: 'yes' }],
    [{ order_items: [{ name: 'No quantity', price: 100, amount_details: noCharges }] }],
    [{ order_items: 'MSG-GUN-1' }],
  ])('answers InvalidRequestParameter for an invalid body %j', async (body) => {
    const { token } = await provisioned();
    const reply = await update(token, body);
    expect({ status: reply.status, error: reply.body.error }).toEqual({
      status: 400,
      error: 'InvalidRequestParameter',
    });
  });
});

describe('eligibility keyed on the request, letters, deleted tokens, pending actions', () => {
  const approvedToken = async (skus: string[], lmnExpiresAt = '2099-12-31') =>
    provisioned({}, { letter: 'approved', skus, lmn_expires_at: lmnExpiresAt });

  it('an update whose survey awaits the clinician answers pending, and rejected once declined, though an older letter stands', async () => {
    const { token } = await approvedToken(['MSG-GUN-1']);
    const { body } = await update(token, { order_items: [vitaminD] });
    const id = body.provision_token_request_id;
    await complete(id, { letter: 'pending' });
    expect((await eligibility(id)).body).toEqual({
      items: ['VITD-2000'],
      eligibility_status: 'pending',
      lmn_expires_at: null,
    });
    await decide(id, 'reject');
    expect((await eligibility(id)).body.eligibility_status).toBe('rejected');
    // The token-keyed question still sees the standing letter.
    expect((await s.get(`/sandbox/v1/payment_tokens/${token}/eligibility`)).body.eligibility_status).toBe('approved');
  });

  it('approved items are those of every standing letter; lmn_expires_at is the earliest, on eligibility and on the token', async () => {
    const { token, requestId } = await approvedToken(['MSG-GUN-1'], '2099-12-31');
    const { body } = await update(token, { order_items: [vitaminD] });
    await complete(body.provision_token_request_id, { letter: 'approved', lmn_expires_at: '2098-01-01' });
    expect((await eligibility(requestId)).body).toEqual({
      items: ['BPM-200', 'TH-10', 'FAK-50', 'MSG-GUN-1', 'VITD-2000'],
      eligibility_status: 'approved',
      lmn_expires_at: '2098-01-01',
    });
    expect((await retrieve(token)).body.lmn_expires_at).toBe('2098-01-01');
    expect((await list('?lmn_expires_before=2098-06-01')).body.pagination.count).toBe(1);
  });

  it('an item the catalog now marks ineligible is no longer listed as chargeable', async () => {
    const { requestId } = await approvedToken(['WLP-12']);
    expect((await eligibility(requestId)).body.items).toContain('WLP-12');
    await s.post('/sandbox/v1/catalog/items/review', { sku: 'WLP-12', eligibility: 'ineligible' });
    expect((await eligibility(requestId)).body.items).not.toContain('WLP-12');
  });

  it('deleting a token cancels its open requests: completing one cannot bring it back', async () => {
    const { token } = await provisioned();
    const { body } = await update(token, { update_card_info: true });
    const before = (await s.outbox('payment_token.updated')).length;
    await s.post(`/api/v1/payment_tokens/${token}/delete`);
    expect((await s.get(`/sandbox/v1/provision_requests/${body.provision_token_request_id}`)).body.status).toBe(
      'canceled',
    );
    expect((await complete(body.provision_token_request_id)).body.error).toBe('InvalidState');
    expect((await provisionRequest(body.provision_token_request_id)).body.payment_token).toBeNull();
    expect(await s.outbox('payment_token.updated')).toHaveLength(before);
    expect(
      (await s.post(`/sandbox/v1/payment_tokens/${token}/require_action`, { next_action: 'TakeHealthSurvey' })).status,
    ).toBe(404);
  });

  it('update answers the action still pending from an earlier update, not None', async () => {
    const { token } = await provisioned();
    const first = await update(token, { update_card_info: true });
    const second = await update(token, { update_card_info: false });
    expect(second.body).toEqual({
      next_action: 'UpdatePaymentMethod',
      redirect_url: first.body.redirect_url,
      provision_token_request_id: first.body.provision_token_request_id,
    });
  });

  it("a 422 sends the customer back to the refused charge's exits, and the customer may cancel there", async () => {
    const { token } = await provisioned();
    await s.post(`/sandbox/v1/payment_tokens/${token}/require_action`, { next_action: 'UpdatePaymentMethod' });
    const refused = await s.post(
      '/payments/v1/create_payment_session',
      sessionRequest({
        payment_token: token,
        success_url: 'https://shop.example/renewal/{{payment_session_id}}/ok',
        failure_url: 'https://shop.example/renewal/ko',
      }),
    );
    const fixId = requestIdOf(refused.body.redirect_url);
    const canceled = await complete(fixId, { cancel: true });
    expect(canceled.body).toMatchObject({ status: 'canceled', redirect_url: 'https://shop.example/renewal/ko' });
    // Still needed: the next charge opens a new page.
    const again = await charge(token);
    expect(again.status).toBe(422);
    const fixed = await complete(requestIdOf(again.body.redirect_url));
    // The 422 creates no session, so {{payment_session_id}} names none.
    expect(fixed.body).toMatchObject({ status: 'provisioned', redirect_url: 'https://shop.example/orders//thanks' });
  });

  it('a charge while the letter is with the clinician sends the customer to the same page, not a new survey', async () => {
    const today = (await clock()).slice(0, 10);
    const { token } = await approvedToken(['MSG-GUN-1'], today);
    await advance(DAY);
    const first = await charge(token, [massageGun]);
    await complete(requestIdOf(first.body.redirect_url), { letter: 'pending' });
    const second = await charge(token, [massageGun]);
    expect({ status: second.status, page: requestIdOf(second.body.redirect_url) }).toEqual({
      status: 422,
      page: requestIdOf(first.body.redirect_url),
    });
  });

  it('two setups of one email open at once give one token, not two', async () => {
    const a = await createToken();
    const b = await createToken({ customer_email: 'PAT.LEE@example.com' });
    const first = await complete(a.body.provision_token_request_id, { skus: [] });
    const second = await complete(b.body.provision_token_request_id, {
      skus: [],
      card: { number: '5555555555554444', exp_month: 1, exp_year: 2099 },
    });
    expect(second.body.payment_token).toBe(first.body.payment_token);
    expect((await list()).body.pagination.count).toBe(1);
    expect((await retrieve(first.body.payment_token)).body.payment_methods[0].last4).toBe('4444');
  });

  it('a canceled tokenize=true checkout reports no token, and its token is not found', async () => {
    const issuer = await s.createSession({ tokenize: true });
    const token = (await s.get(`/sandbox/v1/payment_sessions/${issuer}`)).body.issued_payment_token;
    await s.post(`/payments/v1/payment_session/${issuer}/cancel`);
    const [event] = await s.outbox('payment_session_complete');
    expect(event!.payload.data).not.toHaveProperty('payment_token');
    const reply = await charge(token);
    expect({ status: reply.status, error: reply.body.error }).toEqual({ status: 404, error: 'NotFound' });
  });

  it('injects 501 NotImplemented, and says when a 400 fault will answer 500', async () => {
    expect((await s.post('/sandbox/v1/faults', { operation_id: 'listPaymentTokens', status: 501 })).body).toEqual({
      operation_id: 'listPaymentTokens',
      status: 501,
      error: 'NotImplemented',
      remaining: 1,
    });
    expect((await list()).body.error).toBe('NotImplemented');
    expect(
      (await s.post('/sandbox/v1/faults', { operation_id: 'retrievePaymentToken', status: 400 })).body,
    ).toMatchObject({ status: 500, error: 'ServerError' });
    expect((await retrieve('ptok_x')).status).toBe(500);
  });
});

describe('Unicode case and the last years of the clock', () => {
  it('filters email case-insensitively, and name beyond ASCII too', async () => {
    // An email is checked as create payment session checks it (format: email): ASCII only.
    await provisioned({ customer_email: 'EMILE@EXAMPLE.COM', customer_name: 'Émile Zola' });
    expect((await list(`?email=${encodeURIComponent('emile@example.com')}`)).body.pagination.count).toBe(1);
    expect((await list(`?name=${encodeURIComponent('émile')}`)).body.pagination.count).toBe(1);
    expect((await list(`?name=${encodeURIComponent('É')}`)).body.pagination.count).toBe(1);
  });

  it('keeps default cards and letter expiries within year 9999', async () => {
    // The clock moves at most ten years a call.
    const target = Date.parse('9999-06-01T00:00:00Z');
    for (
      let left = (target - Date.parse(await clock())) / 1000;
      left > 1;
      left = (target - Date.parse(await clock())) / 1000
    ) {
      expect((await advance(Math.min(315_360_000, Math.floor(left)))).status).toBe(200);
    }
    const { token } = await provisioned({}, { letter: 'approved' });
    const { body } = await retrieve(token);
    expect(body.lmn_expires_at).toBe('9999-12-31');
    expect(body.payment_methods[0]).toMatchObject({ exp_month: 12, exp_year: 9999 });
    expect((await charge(token, [massageGun])).status).toBe(200);
  });
});
