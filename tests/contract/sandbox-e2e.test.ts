// The scenario a new user runs against the real sandbox process: create an authorization, let the
// customer check out (helper), capture part, refund part, list, then meet each error once. Run
// twice, as the two kinds of users do it: with curl, and with the typed client. Every contract
// response is checked against the document.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient, hasErrorCode, type ServiceClient } from '../../src/client/index.js';
import { responseViolations } from '../../testkit/contract.js';
import { SANDBOX_API_KEY, startSandboxProcess, type SandboxProcess } from '../../testkit/sandbox-process.js';

const run = randomUUID().slice(0, 8);
const noCharges = { total_additional_charges: 0, total_discounts: 0 };

/** An authorization of 50.00: two items, 30.00 and 20.00. */
function authorization(idempotencyKey: string) {
  return {
    kind: 'authorization' as const,
    total_amount: 5000,
    amount_details: noCharges,
    success_url: 'https://shop.example/orders/{{payment_session_id}}/thanks',
    failure_url: 'https://shop.example/orders/{{payment_session_id}}/failed',
    idempotency_key: idempotencyKey,
    customer_email: 'jane@example.com',
    order_items: [
      { name: 'Blood pressure monitor', sku: 'BPM-200', quantity: 1, price: 3000, amount_details: noCharges },
      { name: 'Thermometer', sku: 'TH-10', quantity: 2, price: 1000, amount_details: noCharges },
    ],
  };
}

interface Listed {
  id?: string;
  created_at?: string;
  status?: string;
  status_summary?: string;
}

/** The list is newest first, and the session just created and refunded is its first entry. */
function expectNewestFirst(sessions: Listed[], id: string) {
  expect(sessions[0]).toMatchObject({ id, status: 'captured', status_summary: 'Partially Refunded' });
  const times = sessions.map((s) => Date.parse(s.created_at ?? ''));
  expect(times.every(Number.isFinite)).toBe(true);
  expect(times).toEqual([...times].sort((a, b) => b - a));
}

let sandbox: SandboxProcess;

beforeAll(async () => {
  sandbox = await startSandboxProcess();
}, 40_000);

afterAll(async () => {
  await sandbox?.stop();
});

describe('with curl', () => {
  interface CurlResult {
    status: number;
    body: any;
    headers: Record<string, string>;
  }

  /** curl -s -w '%{http_code}': the body, then the status as the last three characters. */
  async function curl(
    method: string,
    path: string,
    options: { body?: unknown; apiKey?: string | null } = {},
  ): Promise<CurlResult> {
    const apiKey = options.apiKey === undefined ? SANDBOX_API_KEY : options.apiKey;
    const args = [
      '-s',
      '-S',
      '--max-time',
      '10',
      '-X',
      method,
      '-D',
      '-',
      '-w',
      '%{http_code}',
      `${sandbox.baseUrl}${path}`,
    ];
    if (apiKey !== null) args.push('-H', `x-service-api-key: ${apiKey}`);
    if (options.body !== undefined)
      args.push('-H', 'content-type: application/json', '--data-binary', JSON.stringify(options.body));
    const { stdout } = await promisify(execFile)('curl', args, { encoding: 'utf8' });
    const status = Number(stdout.slice(-3));
    // -D - puts the response headers first, up to the blank line.
    const output = stdout.slice(0, -3);
    const end = output.indexOf('\r\n\r\n');
    const head = end < 0 ? output : output.slice(0, end);
    const text = end < 0 ? '' : output.slice(end + 4);
    const headers = Object.fromEntries(
      head
        .split('\r\n')
        .slice(1)
        .map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
    );
    return { status, headers, body: text === '' ? undefined : JSON.parse(text) };
  }

  /** Calls an operation of the contract and checks its answer against the document. */
  async function call(
    operationId: string,
    method: string,
    path: string,
    options: { body?: unknown; apiKey?: string | null } = {},
  ) {
    const result = await curl(method, path, options);
    expect(
      responseViolations(operationId, result.status, result.body),
      `${method} ${path} → ${result.status} ${JSON.stringify(result.body)}`,
    ).toEqual([]);
    return result;
  }

  const key = `e2e-curl-${run}`;
  let id = '';

  it('creates an authorization session, pending until the customer checks out', async () => {
    const created = await call('createPaymentSession', 'POST', '/payments/v1/create_payment_session', {
      body: authorization(key),
    });
    expect(created.status).toBe(200);
    id = created.body.id;
    expect(created.body.redirect_url).toContain(id);

    const retrieved = await call('retrievePaymentSession', 'GET', `/payments/v1/payment_session/${id}`);
    expect(retrieved.status).toBe(200);
    expect(retrieved.body).toMatchObject({ id, kind: 'authorization', status: 'pending', total_amount: 5000 });
  });

  it('answers the same session to a retry of the create', async () => {
    const again = await call('createPaymentSession', 'POST', '/payments/v1/create_payment_session', {
      body: authorization(key),
    });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(id);
  });

  it('authorizes when the customer completes checkout (helper)', async () => {
    const completed = await curl('POST', `/sandbox/v1/payment_sessions/${id}/complete_checkout`, { body: {} });
    expect(completed.status).toBe(200);
    expect(completed.body.status).toBe('authorized');
  });

  it('captures part of the hold, then refunds part of the capture', async () => {
    const captured = await call('capturePaymentSession', 'POST', `/payments/v1/payment_session/${id}/capture`, {
      body: { total_amount: 4000, idempotency_key: `${key}-capture` },
    });
    expect(captured.status).toBe(200);
    expect(captured.body.id).toEqual(expect.any(String));

    const refunded = await call('createRefund', 'POST', '/payments/v1/refund', {
      body: { payment_id: id, amount: 1500, idempotency_key: `${key}-refund`, reason: 'customer_request' },
    });
    expect(refunded.status).toBe(200);
    expect(refunded.body.refund_id).toEqual(expect.any(String));

    const retrieved = await call('retrievePaymentSession', 'GET', `/payments/v1/payment_session/${id}`);
    expect(retrieved.body).toMatchObject({
      id,
      status: 'captured',
      status_summary: 'Partially Refunded',
      capture_amount: 4000,
    });
  });

  it('lists the session first, newest first, partially refunded', async () => {
    const listed = await call('listPaymentSessions', 'GET', '/payments/v1/payment_sessions?page=1&page_size=30');
    expect(listed.status).toBe(200);
    expectNewestFirst(listed.body.payment_sessions, id);
  });

  it('answers each error with the contract’s status and code', async () => {
    const captureAgain = await call('capturePaymentSession', 'POST', `/payments/v1/payment_session/${id}/capture`, {
      body: { total_amount: 1000, idempotency_key: `${key}-capture-2` },
    });
    expect([captureAgain.status, captureAgain.body.error]).toEqual([400, 'SessionCaptured']);

    // 4000 captured, 1500 refunded: 2500 remain.
    const tooMuch = await call('createRefund', 'POST', '/payments/v1/refund', {
      body: { payment_id: id, amount: 2501, idempotency_key: `${key}-refund-2`, reason: 'customer_request' },
    });
    expect([tooMuch.status, tooMuch.body.error]).toEqual([400, 'AmountInvalid']);

    const diverging = await call('createPaymentSession', 'POST', '/payments/v1/create_payment_session', {
      body: { ...authorization(key), total_amount: 5001 },
    });
    expect([diverging.status, diverging.body.error]).toEqual([400, 'IdempotencyViolation']);

    const unknownKey = await call('listPaymentSessions', 'GET', '/payments/v1/payment_sessions', {
      apiKey: 'not-a-sandbox-key',
    });
    expect(unknownKey.status).toBe(401);
    const noKey = await call('listPaymentSessions', 'GET', '/payments/v1/payment_sessions', { apiKey: null });
    expect(noKey.status).toBe(401);

    const wrongMethod = await call('retrievePaymentSession', 'DELETE', `/payments/v1/payment_session/${id}`);
    expect([wrongMethod.status, wrongMethod.body.error]).toEqual([405, 'MethodNotAllowed']);
    expect(wrongMethod.headers.allow).toBe('GET');

    const unknownSession = await call('retrievePaymentSession', 'GET', `/payments/v1/payment_session/${randomUUID()}`);
    expect([unknownSession.status, unknownSession.body.error]).toEqual([404, 'NotFound']);

    // No operation owns an unknown route; its 404 is the shared NotFound response every operation declares.
    const unknownRoute = await call('retrievePaymentSession', 'GET', '/payments/v1/payment_sessionz');
    expect([unknownRoute.status, unknownRoute.body.error]).toEqual([404, 'NotFound']);
  });
});

describe('with the typed client', () => {
  let client: ServiceClient;
  const key = `e2e-client-${run}`;
  let id = '';

  beforeAll(() => {
    client = createServiceClient({ environment: sandbox.baseUrl, apiKey: SANDBOX_API_KEY });
  });

  /** The answer's body (data or error) must be what the document declares for its status. */
  function expectConforms(operationId: string, result: { data?: unknown; error?: unknown; response: Response }) {
    const body = result.data ?? result.error;
    expect(
      responseViolations(operationId, result.response.status, body),
      `${operationId} → ${result.response.status} ${JSON.stringify(body)}`,
    ).toEqual([]);
  }

  it('creates an authorization session, pending until the customer checks out', async () => {
    const created = await client.POST('/payments/v1/create_payment_session', { body: authorization(key) });
    expectConforms('createPaymentSession', created);
    if (!created.data) throw new Error(`create failed: ${JSON.stringify(created.error)}`);
    id = created.data.id;
    expect(created.data.redirect_url).toContain(id);

    const retrieved = await client.GET('/payments/v1/payment_session/{business_id}', {
      params: { path: { business_id: id } },
    });
    expectConforms('retrievePaymentSession', retrieved);
    expect(retrieved.data).toMatchObject({ id, kind: 'authorization', status: 'pending', total_amount: 5000 });
  });

  it('answers the same session to a retry of the create', async () => {
    const again = await client.POST('/payments/v1/create_payment_session', { body: authorization(key) });
    expectConforms('createPaymentSession', again);
    expect(again.data?.id).toBe(id);
  });

  it('authorizes when the customer completes checkout (helper)', async () => {
    // The helpers are not part of the contract, so the typed client does not carry them.
    const response = await fetch(`${sandbox.baseUrl}/sandbox/v1/payment_sessions/${id}/complete_checkout`, {
      method: 'POST',
      headers: { 'x-service-api-key': SANDBOX_API_KEY, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { status: string }).status).toBe('authorized');
  });

  it('captures part of the hold, then refunds part of the capture', async () => {
    const captured = await client.POST('/payments/v1/payment_session/{business_id}/capture', {
      params: { path: { business_id: id } },
      body: { total_amount: 4000, idempotency_key: `${key}-capture` },
    });
    expectConforms('capturePaymentSession', captured);
    expect(captured.data?.id).toEqual(expect.any(String));

    const refunded = await client.POST('/payments/v1/refund', {
      body: { payment_id: id, amount: 1500, idempotency_key: `${key}-refund`, reason: 'customer_request' },
    });
    expectConforms('createRefund', refunded);
    expect(refunded.data?.refund_id).toEqual(expect.any(String));

    const retrieved = await client.GET('/payments/v1/payment_session/{business_id}', {
      params: { path: { business_id: id } },
    });
    expectConforms('retrievePaymentSession', retrieved);
    expect(retrieved.data).toMatchObject({
      id,
      status: 'captured',
      status_summary: 'Partially Refunded',
      capture_amount: 4000,
    });
  });

  it('lists the session first, newest first, partially refunded', async () => {
    const listed = await client.GET('/payments/v1/payment_sessions', { params: { query: { page: 1, page_size: 30 } } });
    expectConforms('listPaymentSessions', listed);
    if (!listed.data) throw new Error(`list failed: ${JSON.stringify(listed.error)}`);
    expect(listed.data.payment_sessions.length).toBeGreaterThanOrEqual(2); // the curl run's session too
    expectNewestFirst(listed.data.payment_sessions, id);
  });

  it('answers each error with the contract’s status and code', async () => {
    const captureAgain = await client.POST('/payments/v1/payment_session/{business_id}/capture', {
      params: { path: { business_id: id } },
      body: { total_amount: 1000, idempotency_key: `${key}-capture-2` },
    });
    expectConforms('capturePaymentSession', captureAgain);
    expect(captureAgain.response.status).toBe(400);
    expect(hasErrorCode(captureAgain.error, 'SessionCaptured')).toBe(true);

    const tooMuch = await client.POST('/payments/v1/refund', {
      body: { payment_id: id, amount: 2501, idempotency_key: `${key}-refund-2`, reason: 'customer_request' },
    });
    expectConforms('createRefund', tooMuch);
    expect(tooMuch.response.status).toBe(400);
    expect(hasErrorCode(tooMuch.error, 'AmountInvalid')).toBe(true);

    const diverging = await client.POST('/payments/v1/create_payment_session', {
      body: { ...authorization(key), total_amount: 5001 },
    });
    expectConforms('createPaymentSession', diverging);
    expect(diverging.response.status).toBe(400);
    expect(hasErrorCode(diverging.error, 'IdempotencyViolation')).toBe(true);

    const stranger = createServiceClient({ environment: sandbox.baseUrl, apiKey: 'not-a-sandbox-key' });
    const unknownKey = await stranger.GET('/payments/v1/payment_sessions');
    expectConforms('listPaymentSessions', unknownKey);
    expect(unknownKey.response.status).toBe(401);

    // @ts-expect-error: the contract has no DELETE on a payment session, so the types refuse it too.
    const wrongMethod = await client.DELETE('/payments/v1/payment_session/{business_id}', {
      params: { path: { business_id: id } },
    });
    expectConforms('retrievePaymentSession', wrongMethod);
    expect(wrongMethod.response.status).toBe(405);
    expect(wrongMethod.response.headers.get('allow')).toBe('GET');

    const unknownSession = await client.GET('/payments/v1/payment_session/{business_id}', {
      params: { path: { business_id: randomUUID() } },
    });
    expectConforms('retrievePaymentSession', unknownSession);
    expect(unknownSession.response.status).toBe(404);
    expect(hasErrorCode(unknownSession.error, 'NotFound')).toBe(true);

    // @ts-expect-error: no such path in the contract.
    const unknownRoute = await client.GET('/payments/v1/payment_sessionz');
    expectConforms('retrievePaymentSession', unknownRoute);
    expect(unknownRoute.response.status).toBe(404);
  });
});
