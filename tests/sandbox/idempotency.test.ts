// create_payment_session idempotency, rules 1-4 of the reference, exactly; and a capture or refund
// retried under its key with another body, which answers the first result (the sandbox's stated choice).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { noCharges, OTHER_KEY, sessionRequest, testSandbox, type TestSandbox } from '../../testkit/sandbox.js';
import { SANDBOX_API_KEY, startSandboxProcess } from '../../testkit/sandbox-process.js';

let s: TestSandbox;
beforeEach(() => {
  s = testSandbox();
});
afterEach(() => s.close());

const rowsIn = (channel: string) =>
  s.store.db.prepare('SELECT COUNT(*) FROM payment_sessions WHERE channel = ?').pluck().get(channel) as number;

const create = (body: unknown, options = {}) => s.post('/payments/v1/create_payment_session', body, options);
const keyed = (overrides: Record<string, unknown> = {}) =>
  sessionRequest({ idempotency_key: 'order-A-1001', ...overrides });
const countSessions = async () =>
  (await s.get('/payments/v1/payment_sessions?page_size=100')).body.pagination.count as number;

describe('rule 1: same key, same compared fields', () => {
  it('answers 200 with the same id and creates nothing', async () => {
    const first = await create(keyed());
    const again = await create(keyed());
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await countSessions()).toBe(1);
  });

  it('compares customer_email case-insensitively', async () => {
    const first = await create(keyed({ customer_email: 'Jane.Doe@Example.com' }));
    expect((await create(keyed({ customer_email: 'jane.doe@EXAMPLE.COM' }))).body.id).toBe(first.body.id);
  });

  it('treats an absent kind as one_time_payment, its default', async () => {
    const first = await create(keyed());
    expect((await create(keyed({ kind: 'one_time_payment' }))).body.id).toBe(first.body.id);
  });

  it('scopes keys to the sales channel', async () => {
    const mine = await create(keyed());
    const theirs = await create(keyed(), { key: OTHER_KEY });
    expect(theirs.body.id).not.toBe(mine.body.id);
  });

  it('a burst of identical creates, answered one after another in process, yields exactly one session', async () => {
    const replies = await Promise.all(Array.from({ length: 25 }, () => create(keyed())));
    expect(new Set(replies.map((r) => r.status))).toEqual(new Set([200]));
    expect(new Set(replies.map((r) => r.body.id)).size).toBe(1);
    expect(await countSessions()).toBe(1);
  });

  it('50 identical creates at once over HTTP, to two sandboxes on one database file, yield exactly one session, every answer its id', async () => {
    // Two processes, each with its own connection: the creates race on the UNIQUE index of
    // (channel, idempotency_key), which one process answering in turn never does.
    const dir = mkdtempSync(path.join(tmpdir(), 'idempotency-race-'));
    const db = path.join(dir, 'race.db');
    const sandboxes = [await startSandboxProcess({ db }), await startSandboxProcess({ db })];
    try {
      const headers = { 'x-service-api-key': SANDBOX_API_KEY, 'content-type': 'application/json' };
      const created = new Set<string>();
      // Rounds of 50 at once, each round with a key of its own: the race is on the first insert of each key.
      for (let round = 0; round < 10; round++) {
        const body = JSON.stringify(keyed({ idempotency_key: `race-${round}` }));
        const replies = await Promise.all(
          Array.from({ length: 50 }, async (_, n) => {
            const response = await fetch(`${sandboxes[n % 2]!.baseUrl}/payments/v1/create_payment_session`, {
              method: 'POST',
              headers,
              body,
            });
            return { status: response.status, body: (await response.json()) as { id?: string; error?: string } };
          }),
        );
        expect({ round, refused: replies.filter((r) => r.status !== 200) }).toEqual({ round, refused: [] });
        const ids = new Set(replies.map((r) => r.body.id!));
        expect({ round, ids: ids.size }).toEqual({ round, ids: 1 });
        for (const id of ids) created.add(id);
      }
      expect(created.size).toBe(10);
      for (const sandbox of sandboxes) {
        const list = (await (
          await fetch(`${sandbox.baseUrl}/payments/v1/payment_sessions?page_size=100`, { headers })
        ).json()) as { payment_sessions: Array<{ id: string }> };
        expect(new Set(list.payment_sessions.map((p) => p.id))).toEqual(created);
        expect(list.payment_sessions).toHaveLength(10);
      }
    } finally {
      for (const sandbox of sandboxes) await sandbox.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('rule 2 and 3: a different compared field', () => {
  it.each([
    ['customer_email', { customer_email: 'someone.else@example.com' }],
    ['total_amount', { total_amount: 7800, amount_details: { total_additional_charges: 801, total_discounts: 0 } }],
    ['success_url', { success_url: 'https://shop.example/other' }],
    ['failure_url', { failure_url: 'https://shop.example/other' }],
    ['kind', { kind: 'authorization' }],
    [
      'order_items.name',
      { order_items: sessionRequest().order_items.map((i, n) => (n === 0 ? { ...i, name: 'Cuff' } : i)) },
    ],
    [
      'order_items.sku',
      { order_items: sessionRequest().order_items.map((i, n) => (n === 1 ? { ...i, sku: 'TH-11' } : i)) },
    ],
    [
      'order_items.amount_details',
      {
        order_items: sessionRequest().order_items.map((i, n) =>
          n === 0 ? { ...i, amount_details: { total_additional_charges: 0, total_discounts: -400 } } : i,
        ),
        total_amount: 7899,
      },
    ],
  ])('answers IdempotencyViolation naming %s', async (field, overrides) => {
    await create(keyed());
    const { status, body } = await create(keyed(overrides));
    expect({ status, error: body.error }).toEqual({ status: 400, error: 'IdempotencyViolation' });
    expect(body.message).toContain(field);
    expect(await countSessions()).toBe(1);
  });

  it('names every diverging field', async () => {
    await create(keyed());
    const items = sessionRequest().order_items.map((i) => ({ ...i, quantity: i.quantity + 1, price: i.price + 1 }));
    const total = items.reduce((sum, i) => sum + i.quantity * i.price + i.amount_details.total_discounts, 800);
    const { body } = await create(
      keyed({ order_items: items, total_amount: total, success_url: 'https://shop.example/x' }),
    );
    for (const field of ['total_amount', 'success_url', 'order_items.quantity', 'order_items.price'])
      expect(body.message).toContain(field);
    expect(body.message).not.toContain('order_items.name');
  });

  it('compares payment_token only when the retry carries it', async () => {
    const issuer = await s.createSession({ tokenize: true });
    const token = (await s.get(`/sandbox/v1/payment_sessions/${issuer}`)).body.issued_payment_token as string;
    await s.complete(issuer);
    const first = await create(keyed({ payment_token: token }));
    expect(first.status).toBe(200);
    // Without payment_token on the retry: not compared, so the original comes back.
    expect((await create(keyed())).body.id).toBe(first.body.id);
    const other = await create(keyed({ payment_token: 'ptok_other' }));
    expect({ error: other.body.error, named: other.body.message.includes('payment_token') }).toEqual({
      error: 'IdempotencyViolation',
      named: true,
    });
  });

  it('a charge with a payment_token ignores customer_email: the exact retry, then one that drops or changes the email, return the original', async () => {
    const issuer = await s.createSession({ tokenize: true, customer_email: 'token.user@example.com' });
    const token = (await s.get(`/sandbox/v1/payment_sessions/${issuer}`)).body.issued_payment_token as string;
    await s.complete(issuer);
    const charge = keyed({ payment_token: token, customer_email: 'Jane.Doe@example.com', customer_name: 'Jane Doe' });
    const first = await create(charge);
    expect(first.status).toBe(200);
    // The exact retry first: the original comes back.
    expect(await create(charge)).toMatchObject({ status: 200, body: { id: first.body.id } });
    // The email is ignored with a token, so leaving it out, or giving another, diverges on nothing.
    const { customer_email: _email, customer_name: _name, ...withoutIdentity } = charge;
    expect(await create(withoutIdentity)).toMatchObject({ status: 200, body: { id: first.body.id } });
    expect(await create({ ...charge, customer_email: 'someone.else@example.com' })).toMatchObject({
      status: 200,
      body: { id: first.body.id },
    });
    // Without the token on the retry too (payment_token is compared only when the retry carries it).
    const { payment_token: _token, ...noToken } = withoutIdentity as Record<string, unknown>;
    expect(await create({ ...noToken, customer_email: 'someone.else@example.com' })).toMatchObject({
      status: 200,
      body: { id: first.body.id },
    });
    expect(await countSessions()).toBe(2);
  });

  it('a token added on the retry of a charge without one diverges on payment_token alone, whatever the email', async () => {
    const issuer = await s.createSession({ tokenize: true });
    const token = (await s.get(`/sandbox/v1/payment_sessions/${issuer}`)).body.issued_payment_token as string;
    await s.complete(issuer);
    await create(keyed({ customer_email: 'jane.doe@example.com' }));
    const { status, body } = await create(keyed({ payment_token: token, customer_email: 'other@example.com' }));
    expect({ status, error: body.error }).toEqual({ status: 400, error: 'IdempotencyViolation' });
    expect(body.message).toContain('payment_token');
    expect(body.message).not.toContain('customer_email');
  });

  it('compares display_next_bill_info and is_free_trial when the original was a free trial', async () => {
    const trial = {
      total_amount: 0,
      amount_details: noCharges,
      tokenize: true,
      display_next_bill_info: { total_amount: 2500, date: '2026-12-21' },
      order_items: [{ name: 'Trial', quantity: 1, price: 0, amount_details: noCharges }],
    };
    await create(keyed(trial));
    const later = await create(keyed({ ...trial, display_next_bill_info: { total_amount: 2500, date: '2027-01-21' } }));
    expect(later.body.message).toContain('display_next_bill_info.date');
    const { display_next_bill_info: _dropped, ...notTrial } = trial;
    const dropped = await create(
      keyed({
        ...notTrial,
        total_amount: 1,
        order_items: [{ name: 'Trial', quantity: 1, price: 1, amount_details: noCharges }],
      }),
    );
    expect(dropped.body.error).toBe('IdempotencyViolation');
    expect(dropped.body.message).toContain('is_free_trial');
  });
});

describe('rule 4: fields that are not compared', () => {
  it('does not compare tokenize: a free-trial retry without it, or with false, returns the original, while the same body without a key is refused', async () => {
    const trial = {
      total_amount: 0,
      amount_details: noCharges,
      tokenize: true,
      display_next_bill_info: { total_amount: 2500, date: '2026-12-21' },
      order_items: [{ name: 'Trial', quantity: 1, price: 0, amount_details: noCharges }],
    };
    const { tokenize: _left, ...withoutTokenize } = trial;
    const first = await create(keyed(trial));
    expect(first.status).toBe(200);
    expect((await create(keyed(withoutTokenize))).body.id).toBe(first.body.id);
    expect((await create(keyed({ ...trial, tokenize: false }))).body.id).toBe(first.body.id);
    const unkeyed = await create(sessionRequest(withoutTokenize));
    expect({ status: unkeyed.status, error: unkeyed.body.error }).toEqual({
      status: 400,
      error: 'MissingRequiredParameter',
    });
    expect(await countSessions()).toBe(1);
  });

  it('returns the original session and applies none of the new values', async () => {
    const first = await create(keyed());
    const again = await create(
      keyed({
        customer_name: 'J. Doe',
        metadata: '{"order_id":"CHANGED"}',
        customer_state: 'NY',
        survey_config: { x: 1 },
        billing_address: { city: 'Albany' },
        request_multicapture: true,
        test_config: { y: 2 },
      }),
    );
    expect(again.body.id).toBe(first.body.id);
    expect((await s.detail(first.body.id)).body.metadata).toBe('{"order_id":"A-1001"}');
  });

  it('rule 4: a retry whose ignored fields break the schema still returns the original session', async () => {
    const first = await s.post('/payments/v1/create_payment_session', sessionRequest({ idempotency_key: 'k-rule4' }));
    const retry = await s.post(
      '/payments/v1/create_payment_session',
      sessionRequest({ idempotency_key: 'k-rule4', customer_state: 'California', metadata: { a: 1 } }),
    );
    expect({ status: retry.status, id: retry.body.id }).toEqual({ status: 200, id: first.body.id });
    expect((await s.detail(first.body.id)).body.metadata).toBe('{"order_id":"A-1001"}');
    expect(rowsIn('dev')).toBe(1);
  });

  it('rule 4 does not excuse a bad ignored field without an original, nor a bad compared field', async () => {
    const fresh = await s.post(
      '/payments/v1/create_payment_session',
      sessionRequest({ idempotency_key: 'k-new', metadata: { a: 1 } }),
    );
    expect({ status: fresh.status, error: fresh.body.error }).toEqual({
      status: 400,
      error: 'InvalidRequestParameter',
    });
    await s.post('/payments/v1/create_payment_session', sessionRequest({ idempotency_key: 'k-cmp' }));
    const compared = await s.post(
      '/payments/v1/create_payment_session',
      sessionRequest({ idempotency_key: 'k-cmp', customer_email: 'not an email' }),
    );
    expect({ status: compared.status, error: compared.body.error }).toEqual({
      status: 400,
      error: 'InvalidRequestParameter',
    });
  });
});

describe('the bounds of an idempotency key', () => {
  const LONGEST = 'k'.repeat(255);
  /** Each operation that takes a key, called with `key`, on a fresh subject; and the code it refuses a bad key with. */
  const operations: Array<[string, string, (key: string) => Promise<{ status: number; body: any }>]> = [
    ['create payment session', 'InvalidRequestParameter', (key) => create(sessionRequest({ idempotency_key: key }))],
    [
      'capture',
      'MissingField',
      async (key) => s.post(`${s.session(await s.authorized())}/capture`, { total_amount: 1000, idempotency_key: key }),
    ],
    [
      'void',
      'MissingField',
      async (key) => s.post(`${s.session(await s.authorized())}/void`, { idempotency_key: key }),
    ],
    [
      'refund',
      'MissingField',
      async (key) =>
        s.post('/payments/v1/refund', {
          payment_id: await s.capturedOneTime(),
          amount: 100,
          idempotency_key: key,
          reason: 'customer_request',
        }),
    ],
    [
      'create payment token',
      'ValidationError',
      (key) =>
        s.post('/api/v1/payment_tokens/create', {
          success_url: 'https://a.example/ok',
          failure_url: 'https://a.example/ko',
          idempotency_key: key,
        }),
    ],
  ];

  it('an empty key is refused, and stores nothing', async () => {
    const refused = await create(sessionRequest({ idempotency_key: '' }));
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      error: 'InvalidRequestParameter',
      message: expect.stringContaining('idempotency_key must NOT have fewer than 1 characters'),
    });
    expect(await countSessions()).toBe(0);
  });

  it('a 200 KB key is refused', async () => {
    const refused = await create(sessionRequest({ idempotency_key: 'k'.repeat(200 * 1024) }));
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      error: 'InvalidRequestParameter',
      message: expect.stringContaining('idempotency_key must NOT have more than 255 characters'),
    });
    expect(await countSessions()).toBe(0);
  });

  it.each(operations)(
    '%s refuses an empty key and a key of 256 characters with %s, and takes one of 255',
    async (_name, code, call) => {
      for (const key of ['', `${LONGEST}k`]) {
        const refused = await call(key);
        expect({ status: refused.status, error: refused.body.error }).toEqual({ status: 400, error: code });
      }
      const taken = await call(LONGEST);
      expect(taken.status).toBe(200);
    },
  );
});

describe('keys that are not valid Unicode', () => {
  it('a lone surrogate is refused, so that two different keys are never stored as the same one', async () => {
    // "lone-X\ud800" (1000) then "lone-X\udc00" (2000) answered IdempotencyViolation on total_amount:
    // stored as UTF-8, both lone surrogates became U+FFFD.
    for (const key of ['lone-X\\ud800', 'lone-X\\udc00', 'pair-\\ud83d']) {
      const raw = JSON.stringify(sessionRequest({ total_amount: 1000 })).replace('{', `{"idempotency_key":"${key}",`);
      const refused = await s.call('POST', '/payments/v1/create_payment_session', { raw });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        error: 'InvalidRequestParameter',
        message: expect.stringContaining('holds a string that is not valid Unicode at idempotency_key'),
      });
    }
    expect(await countSessions()).toBe(0);
    // A surrogate pair, escaped, is a character like any other, and U+FFFD a key of its own.
    const smile = JSON.stringify(sessionRequest()).replace('{', '{"idempotency_key":"key-\\ud83d\\ude00",');
    const first = await s.call('POST', '/payments/v1/create_payment_session', { raw: smile });
    expect(first.status).toBe(200);
    expect((await create(sessionRequest({ idempotency_key: 'key-\u{1F600}' }))).body.id).toBe(first.body.id);
    expect((await create(sessionRequest({ idempotency_key: 'key-\uFFFD' }))).body.id).not.toBe(first.body.id);
  });

  it("anywhere in a body, key or value, with the operation's own code", async () => {
    const capture = await s.call('POST', `${s.session(await s.authorized())}/capture`, {
      raw: '{"total_amount": 1000, "idempotency_key": "ok", "note": {"\\udfff": 1}}',
    });
    expect({ status: capture.status, error: capture.body.error }).toEqual({ status: 400, error: 'MissingField' });
    // The path names the key as valid text: the answer never carries the lone surrogate back.
    expect(capture.body.message).toContain('not valid Unicode at note.\uFFFD');
  });
});

describe("a retry that changes the body under the same key (the sandbox's stated choice: the first result)", () => {
  it('a capture retried with another amount answers 200 with the first capture, and captures nothing more', async () => {
    const id = await s.authorized();
    const first = await s.post(`${s.session(id)}/capture`, { total_amount: 3000, idempotency_key: 'cap-1' });
    const retry = await s.post(`${s.session(id)}/capture`, { total_amount: 5000, idempotency_key: 'cap-1' });
    expect({ status: retry.status, body: retry.body }).toEqual({ status: 200, body: first.body });
    expect((await s.detail(id)).body.capture_amount).toBe(3000);
  });

  it('a refund retried with another amount and reason answers 200 with the first refund, and refunds nothing more', async () => {
    const id = await s.capturedOneTime();
    const first = await s.post('/payments/v1/refund', {
      payment_id: id,
      amount: 1000,
      idempotency_key: 'rf-1',
      reason: 'customer_request',
    });
    const retry = await s.post('/payments/v1/refund', {
      payment_id: id,
      amount: 2500,
      idempotency_key: 'rf-1',
      reason: 'duplicate_payment',
    });
    expect({ status: retry.status, body: retry.body }).toEqual({ status: 200, body: first.body });
    const listed = await s.get(`/payments/v1/payment_sessions?search=${id}&summarize_refunds=true`);
    expect(listed.body.payment_sessions[0].refund_amount).toBe(1000);
  });

  it('the contract marks both as inferred', async () => {
    const { contract } = await import('../../testkit/contract.js');
    const schemas = contract.components.schemas as Record<
      string,
      { properties: Record<string, Record<string, string>> }
    >;
    expect(schemas.CapturePaymentSessionRequest!.properties.idempotency_key!['x-undocumented']).toMatch(
      /another total_amount/,
    );
    expect(schemas.CreateRefundRequest!.properties.idempotency_key!['x-undocumented']).toMatch(
      /another amount or reason/,
    );
  });
});
