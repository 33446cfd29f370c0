// create_payment_session: every validation with its exact error code, tokens, features, templating.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { noCharges, sessionRequest, testSandbox, type TestSandbox } from '../../testkit/sandbox.js';

let s: TestSandbox;
beforeEach(() => {
  s = testSandbox();
});
afterEach(() => s.close());

const sessionsStored = () => s.store.db.prepare('SELECT COUNT(*) FROM payment_sessions').pluck().get() as number;

const create = (body: unknown, options = {}) => s.post('/payments/v1/create_payment_session', body, options);
const without = (field: string) => {
  const body: Record<string, unknown> = sessionRequest();
  delete body[field];
  return body;
};

describe('create_payment_session', () => {
  it('creates a pending session whose redirect_url leads to the hosted checkout', async () => {
    const { status, body } = await create(sessionRequest());
    expect(status).toBe(200);
    expect(body.redirect_url).toBe(`http://127.0.0.1:4010/checkout/${body.id}`);
    expect((await s.detail(body.id)).body).toMatchObject({
      status: 'pending',
      status_summary: 'Incomplete',
      kind: 'one_time_payment',
    });
    expect((await s.call('GET', `/checkout/${body.id}`)).status).toBe(200);
  });

  it('makes the redirect iframe-compatible with use_iframe', async () => {
    const { body } = await create(sessionRequest({ use_iframe: true }));
    expect(body.redirect_url).toMatch(/\/checkout\/[\w-]+\?mode=iframe$/);
  });

  it('replaces every {{payment_session_id}} in success_url and failure_url', async () => {
    const id = await s.createSession({
      success_url: 'https://shop.example/{{payment_session_id}}/ok?again={{payment_session_id}}',
    });
    expect((await s.complete(id)).body.redirect_url).toBe(`https://shop.example/${id}/ok?again=${id}`);
    const other = await s.createSession();
    expect((await s.complete(other, false)).body).toEqual({
      status: 'pending',
      redirect_url: `https://shop.example/orders/${other}/failed`,
    });
  });

  // The seven accepted fields are typed as far as their names tell (inferred, x-undocumented).
  it.each([
    ['billing_name', 42],
    ['shipping_name', { first: 'A' }],
    ['billing_address', 'Main St 1'],
    ['shipping_address', ['Main St 1']],
    ['survey_config', 'short'],
    ['test_config', true],
    ['request_multicapture', 'yes'],
  ] as const)(
    'answers InvalidRequestParameter for %s of another type (%j), and stores nothing',
    async (field, value) => {
      const { status, body } = await create(sessionRequest({ [field]: value }));
      expect({ status, error: body.error }).toEqual({ status: 400, error: 'InvalidRequestParameter' });
      expect(body.message).toContain(field);
      expect((await s.get('/payments/v1/payment_sessions')).body.pagination.count).toBe(0);
    },
  );

  // A client that sends every unset field as null (C#'s default) is told so: requests are strict,
  // and the reference gives none of these fields a null.
  it.each([
    'billing_name',
    'shipping_name',
    'billing_address',
    'shipping_address',
    'survey_config',
    'test_config',
    'request_multicapture',
  ])('answers InvalidRequestParameter for an explicit null %s, naming it, and stores nothing', async (field) => {
    const { status, body } = await create(sessionRequest({ [field]: null }));
    expect({ status, error: body.error }).toEqual({ status: 400, error: 'InvalidRequestParameter' });
    expect(body.message).toContain(field);
    expect((await s.get('/payments/v1/payment_sessions')).body.pagination.count).toBe(0);
  });

  it('accepts the seven fields with their inferred types, the objects with any fields', async () => {
    const { status } = await create(
      sessionRequest({
        billing_name: 'Ada Lovelace',
        shipping_name: 'Ada Lovelace',
        billing_address: { line1: 'Main St 1', zip: '10001' },
        shipping_address: {},
        survey_config: { skip_intro: true },
        test_config: { scenario: 'x' },
        request_multicapture: false,
      }),
    );
    expect(status).toBe(200);
  });

  it.each(['total_amount', 'amount_details', 'success_url', 'failure_url', 'order_items'])(
    'answers MissingRequiredParameter without %s',
    async (field) => {
      const { status, body } = await create(without(field));
      expect(status).toBe(400);
      expect(body.error).toBe('MissingRequiredParameter');
      expect(body.message).toContain(field);
    },
  );

  it.each([
    ['a malformed email', { customer_email: 'jane-at-example' }, 'customer_email'],
    ['a URL that is not one', { success_url: 'not a url' }, 'success_url'],
    ['a URL that breaks after templating', { failure_url: 'http://[{{payment_session_id}}' }, 'failure_url'],
    // The contract's pattern: a leading space, which the URL parser would have trimmed, is refused.
    ['a URL that does not start with its scheme', { success_url: ' https://shop.example/ok' }, 'success_url'],
    ['a URL with no host', { failure_url: 'https:///ko' }, 'failure_url'],
    ['a state that is not a 2-letter code', { customer_state: 'California' }, 'customer_state'],
    ['2 letters that are no ISO 3166-2:US code', { customer_state: 'ZZ' }, 'customer_state'],
    ['a code of another country', { customer_state: 'on' }, 'customer_state'],
    ['an unknown kind', { kind: 'subscription' }, 'kind'],
    ['metadata that is not a string', { metadata: { order: 1 } }, 'metadata'],
  ])('answers InvalidRequestParameter for %s', async (_case, overrides, field) => {
    const { status, body } = await create(sessionRequest(overrides));
    expect({ status, error: body.error }).toEqual({ status: 400, error: 'InvalidRequestParameter' });
    expect(body.message).toContain(field);
  });

  it.each([
    ['a total that does not match the items', { total_amount: 8000 }, /does not equal the sum of the amounts, 7799/],
    [
      'a total of 0 outside a free trial',
      {
        total_amount: 0,
        amount_details: noCharges,
        order_items: [{ name: 'Free', quantity: 1, price: 0, amount_details: noCharges }],
      },
      /total_amount/,
    ],
    ['a negative total', { total_amount: -5 }, /total_amount/],
    ['a total that is not an integer', { total_amount: 77.99 }, /total_amount/],
    [
      'a free trial with a non-zero total',
      { tokenize: true, display_next_bill_info: { total_amount: 2500, date: '2026-12-21' } },
      /total_amount/,
    ],
  ])('answers TotalAmountInvalid for %s', async (_case, overrides, message) => {
    const { status, body } = await create(sessionRequest(overrides));
    expect({ status, error: body.error }).toEqual({ status: 400, error: 'TotalAmountInvalid' });
    expect(body.message).toMatch(message);
  });

  it.each([
    ['a quantity of 0', [{ name: 'X', quantity: 0, price: 100, amount_details: noCharges }]],
    ['an item without a name', [{ quantity: 1, price: 100, amount_details: noCharges }]],
    ['an item without amount_details', [{ name: 'X', quantity: 1, price: 100 }]],
    ['an empty list', []],
  ])('answers OrderItemsInvalid for %s', async (_case, items) => {
    const total = items.reduce((sum: number, i: any) => sum + (i.quantity ?? 0) * (i.price ?? 0), 0);
    const { status, body } = await create(
      sessionRequest({ order_items: items, total_amount: total || 1, amount_details: noCharges }),
    );
    expect({ status, error: body.error }).toEqual({ status: 400, error: 'OrderItemsInvalid' });
  });

  it('accepts a repeated item_id, which the reference does not forbid, and returns it as given', async () => {
    const items = [
      { name: 'A', item_id: 'x', quantity: 1, price: 50, amount_details: noCharges },
      { name: 'B', item_id: 'x', quantity: 1, price: 50, amount_details: noCharges },
    ];
    const { status, body } = await create(
      sessionRequest({ order_items: items, total_amount: 100, amount_details: noCharges }),
    );
    expect(status).toBe(200);
    expect((await s.detail(body.id)).body.order_items.map((i: { item_id: string }) => i.item_id)).toEqual(['x', 'x']);
  });

  it('accepts fields the reference does not list, in the body and in order items, and ignores them', async () => {
    const items = [{ name: 'A', quantity: 1, price: 100, amount_details: noCharges, color: 'red' }];
    const { status, body } = await create(
      sessionRequest({ order_items: items, total_amount: 100, amount_details: noCharges, loyalty_id: 'L-1' }),
    );
    expect(status).toBe(200);
    expect((await s.detail(body.id)).body.order_items[0].color).toBeUndefined();
  });

  it('accepts customer_state in ISO 3166-2 upper case only: lower case is no code of the standard', async () => {
    expect((await create(sessionRequest({ customer_state: 'ca' }))).body.error).toBe('InvalidRequestParameter');
    // DC and the outlying areas that ISO 3166-2:US lists are codes too.
    for (const code of ['DC', 'AS', 'GU', 'MP', 'PR', 'UM', 'VI'])
      expect((await create(sessionRequest({ customer_state: code }))).status).toBe(200);
    expect((await create(sessionRequest({ customer_state: 'California' }))).body.error).toBe('InvalidRequestParameter');
  });

  it('refuses a success_url that is not http or https, a sandbox choice written in sandbox.yaml', async () => {
    const { status, body } = await create(sessionRequest({ success_url: 'javascript:alert(1)' }));
    expect({ status, error: body.error }).toEqual({ status: 400, error: 'InvalidRequestParameter' });
    expect(body.message).toContain('success_url');
  });

  it('accepts a free trial: tokenize=true, total 0, display_next_bill_info', async () => {
    const trial = {
      total_amount: 0,
      amount_details: noCharges,
      tokenize: true,
      display_next_bill_info: { total_amount: 2500, date: '2026-12-21' },
      order_items: [{ name: 'Trial', quantity: 1, price: 0, amount_details: noCharges }],
    };
    expect((await create(sessionRequest(trial))).status).toBe(200);
    const { body } = await create(sessionRequest({ ...trial, tokenize: false }));
    expect(body.error).toBe('InvalidRequestParameter');
    expect(body.message).toContain('tokenize');
  });

  it('answers a free trial without tokenize with MissingRequiredParameter', async () => {
    const { tokenize: _tokenize, ...trial } = sessionRequest({
      total_amount: 0,
      amount_details: noCharges,
      display_next_bill_info: { total_amount: 2500, date: '2026-12-21' },
      order_items: [{ name: 'Trial', quantity: 1, price: 0, amount_details: noCharges }],
    }) as Record<string, unknown>;
    const { status, body } = await create(trial);
    expect({ status, body }).toEqual({
      status: 400,
      body: { error: 'MissingRequiredParameter', message: 'tokenize is required.' },
    });
  });

  it('answers TokenizeNotSupported for tokenize=true with a payment_token', async () => {
    const { status, body } = await create(sessionRequest({ tokenize: true, payment_token: 'ptok_x' }));
    expect({ status, error: body.error }).toEqual({ status: 400, error: 'TokenizeNotSupported' });
  });

  describe('with a payment token', () => {
    async function issuedToken() {
      const id = await s.createSession({ tokenize: true });
      const token = (await s.get(`/sandbox/v1/payment_sessions/${id}`)).body.issued_payment_token as string;
      return { id, token };
    }

    it('answers SessionPending before the customer finished the initial checkout', async () => {
      const { token } = await issuedToken();
      const { status, body } = await create(sessionRequest({ payment_token: token, idempotency_key: 'renewal-1' }));
      expect({ status, error: body.error }).toEqual({ status: 400, error: 'SessionPending' });
    });

    it('charges the stored method once checkout completed, without the hosted flow', async () => {
      const { id, token } = await issuedToken();
      await s.complete(id);
      expect((await s.outbox('payment_token.updated')).map((e) => e.payload.data)).toEqual([
        expect.objectContaining({
          payment_token: token,
          payment_session_id: id,
          customer_email: 'Jane.Doe@example.com',
        }),
      ]);
      const { status, body } = await create(sessionRequest({ payment_token: token }));
      expect(status).toBe(200);
      expect((await s.detail(body.id)).body.status).toBe('processing');
    });

    it('creates a token charge past pending, as the contract says (inferred): processing or authorized, reported at once', async () => {
      const { id, token } = await issuedToken();
      await s.complete(id);
      const oneTime = await create(sessionRequest({ payment_token: token }));
      const hold = await create(sessionRequest({ payment_token: token, kind: 'authorization' }));
      expect((await s.detail(oneTime.body.id)).body.status).toBe('processing');
      expect((await s.detail(hold.body.id)).body.status).toBe('authorized');
      const reported = (await s.outbox('payment_session_complete'))
        .map((e) => e.payload.data)
        .filter((d) => d.payment_id !== id);
      expect(reported.map((d) => [d.payment_id, d.status])).toEqual([
        [oneTime.body.id, 'processing'],
        [hold.body.id, 'authorized'],
      ]);
    });

    it.each(['UpdatePaymentMethod', 'TakeHealthSurvey'])(
      'answers 422 %s when the token needs customer action',
      async (action) => {
        const { id, token } = await issuedToken();
        await s.complete(id);
        await s.post(`/sandbox/v1/payment_tokens/${token}/require_action`, { next_action: action });
        const { status, body } = await create(sessionRequest({ payment_token: token }));
        expect(status).toBe(422);
        expect(body).toEqual({
          next_action: action,
          redirect_url: expect.stringMatching(/\/checkout\/setup\/[0-9a-f-]{36}$/),
        });
        await s.post(`/sandbox/v1/payment_tokens/${token}/require_action`, { next_action: null });
        expect((await create(sessionRequest({ payment_token: token }))).status).toBe(200);
      },
    );

    it('answers NotFound for a token that does not exist', async () => {
      const { status, body } = await create(sessionRequest({ payment_token: 'ptok_unknown' }));
      expect({ status, error: body.error }).toEqual({ status: 404, error: 'NotFound' });
    });
  });

  it.each([
    ['authorization', { kind: 'authorization' }],
    ['tokenization', { tokenize: true }],
  ])('answers FeatureNotEnabled when the %s feature is off', async (feature, overrides) => {
    await s.call('PUT', '/sandbox/v1/features', { body: { [feature]: false } });
    const { status, body } = await create(sessionRequest(overrides));
    expect({ status, error: body.error }).toEqual({ status: 400, error: 'FeatureNotEnabled' });
    expect((await create(sessionRequest())).status).toBe(200);
  });

  it('answers ServerError (400) when the service fails, and ServerError (500) likewise', async () => {
    await s.post('/sandbox/v1/faults', { operation_id: 'createPaymentSession', status: 400, count: 1 });
    expect((await create(sessionRequest())).body.error).toBe('ServerError');
    await s.post('/sandbox/v1/faults', { operation_id: 'createPaymentSession', status: 500, count: 1 });
    const failed = await create(sessionRequest());
    expect({ status: failed.status, error: failed.body.error }).toEqual({ status: 500, error: 'ServerError' });
    expect((await create(sessionRequest())).status).toBe(200);
  });

  it('accepts other configuration fields, which the service documents as accepted', async () => {
    expect(
      (
        await create(
          sessionRequest({
            survey_config: { skip: false },
            test_config: { x: 1 },
            request_multicapture: false,
            shipping_address: { city: 'X' },
          }),
        )
      ).status,
    ).toBe(200);
  });
});

describe('a redirect URL with a control character', () => {
  it('success_url "https://shop.example/\\r\\nX-Injected: 1" answers 400 InvalidRequestParameter: the URL parser would drop the CR LF and send the customer elsewhere', async () => {
    const reply = await s.post(
      '/payments/v1/create_payment_session',
      sessionRequest({ idempotency_key: 'crlf-1', success_url: 'https://shop.example/\r\nX-Injected: 1' }),
    );
    expect(reply.body).toEqual({ error: 'InvalidRequestParameter', message: 'success_url is not a valid URL.' });
    expect(sessionsStored()).toBe(0);
  });

  it.each(['https://shop.example/a\tb', 'https://shop.example/\u0000', 'https://shop.example/\u007f'])(
    'failure_url %j too, and create payment token refuses it as well',
    async (url) => {
      expect(
        (await s.post('/payments/v1/create_payment_session', sessionRequest({ failure_url: url }))).body.error,
      ).toBe('InvalidRequestParameter');
      const token = await s.post('/api/v1/payment_tokens/create', {
        success_url: 'https://shop.example/ok',
        failure_url: url,
      });
      expect(token.body).toEqual({
        error: 'ValidationError',
        message: 'failure_url is not a valid URL: an absolute http or https URL is required.',
      });
    },
  );

  it('a space, which the parser encodes rather than drops, is taken', async () => {
    expect(
      (
        await s.post(
          '/payments/v1/create_payment_session',
          sessionRequest({ success_url: 'https://shop.example/thank you' }),
        )
      ).status,
    ).toBe(200);
  });
});

describe('what create_payment_session refuses, and how it says so', () => {
  it('refuses amounts beyond 2^53 rather than rounding them', async () => {
    // biome-ignore lint/correctness/noPrecisionLoss: 2^53 + 1, which no double holds, is what is sent
    const big = 9007199254740993;
    const { body } = await s.post(
      '/payments/v1/create_payment_session',
      sessionRequest({
        total_amount: big,
        amount_details: noCharges,
        order_items: [{ name: 'X', quantity: 1, price: big, amount_details: noCharges }],
      }),
    );
    expect(body.error).toBe('OrderItemsInvalid');
  });

  it('explains conditional rules in the message', async () => {
    const trial = sessionRequest({
      total_amount: 0,
      amount_details: noCharges,
      tokenize: false,
      display_next_bill_info: { total_amount: 1, date: '2026-12-21' },
      order_items: [{ name: 'T', quantity: 1, price: 0, amount_details: noCharges }],
    });
    expect((await s.post('/payments/v1/create_payment_session', trial)).body).toEqual({
      error: 'InvalidRequestParameter',
      message: 'tokenize must be true for a free trial (display_next_bill_info).',
    });
    expect(
      (await s.post('/payments/v1/create_payment_session', sessionRequest({ tokenize: true, payment_token: 'p' }))).body
        .message,
    ).toBe('tokenize must be false when payment_token is given.');
  });
});
