// The Prism mock serves the contract: every operation answers its example, and every named error
// example can be selected with `Prefer: code=…, example=…`.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient, hasErrorCode } from '../../src/client/index.js';
import { operations, repoRoot, resolve, responseViolations, type MediaType } from '../../testkit/contract.js';
import { freePort, waitForHttp } from '../../testkit/processes.js';
import { startPrism, type RunningServer } from '../../testkit/prism.js';
import { everyOperation, type ContractClient } from './every-operation.js';

let prism: RunningServer;
let client: ContractClient;

beforeAll(async () => {
  prism = await startPrism();
  client = mockClient();
});

/** The package's client, pointed at Prism; `prefer` selects a named example. */
function mockClient(prefer?: string, apiKey = 'sandbox-test-key') {
  return createServiceClient({
    environment: prism.baseUrl,
    apiKey,
    retry: false,
    fetch: (request) => {
      if (prefer) request.headers.set('Prefer', prefer);
      if (apiKey === '-') request.headers.delete('x-service-api-key');
      return fetch(request);
    },
  });
}
afterAll(() => prism?.stop());

/** Every non-200 example of every operation: [operationId, status, example name, example value]. */
function errorExamples(): Array<[string, string, string, unknown]> {
  const cases: Array<[string, string, string, unknown]> = [];
  for (const { op } of operations()) {
    for (const [status, declared] of Object.entries(op.responses)) {
      if (status === '200') continue;
      const media = resolve<{ content?: Record<string, MediaType> }>(declared).content?.['application/json'];
      for (const [name, example] of Object.entries(media?.examples ?? {})) {
        cases.push([op.operationId, status, name, resolve<{ value: unknown }>(example).value]);
      }
    }
  }
  return cases;
}

describe('Prism mock', () => {
  it('the typed client covers every operation of the contract', () => {
    expect(Object.keys(everyOperation).sort()).toEqual(
      operations()
        .map((o) => o.op.operationId)
        .sort(),
    );
  });

  it.each(Object.entries(everyOperation))(
    '%s answers 200 with a body that matches the contract',
    async (operationId, call) => {
      const { response, data, error } = (await call(client)) as { response: Response; data?: unknown; error?: unknown };
      expect({ status: response.status, error }).toEqual({ status: 200, error: undefined });
      expect(responseViolations(operationId, 200, data)).toEqual([]);
    },
  );

  it.each(errorExamples())('%s %s: Prefer selects example %s', async (operationId, status, name, value) => {
    const call = everyOperation[operationId as keyof typeof everyOperation];
    const { response, error } = (await call(mockClient(`code=${status}, example=${name}`))) as {
      response: Response;
      error?: unknown;
    };
    expect(response.status).toBe(Number(status));
    expect(error).toEqual(value);
    expect(responseViolations(operationId, Number(status), error)).toEqual([]);
    const code = (value as { error?: string }).error;
    if (code) {
      // The codes here come from the document at run time, so the compile-time constraint is relaxed.
      const hasCode = hasErrorCode as (body: unknown, code: string) => boolean;
      expect(hasCode(error, code)).toBe(true);
      expect(hasCode(error, `Not${code}`)).toBe(false);
    }
  });

  it('answers 401 when the API key is missing', async () => {
    const { response } = await everyOperation.retrievePaymentSession(mockClient(undefined, '-'));
    expect(response.status).toBe(401);
  });
});

// `npm run mock` (src/mock/): Prism behind a front that answers what Prism answers outside
// the contract in the contract's shape.
describe('npm run mock, for a frontend team', () => {
  let mock: ChildProcess;
  let base: string;
  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    mock = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(repoRoot, 'src', 'cli.ts'), 'mock', '--port', String(port), '-v', 'error'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    mock.stdout?.on('data', (chunk) => (output += chunk));
    mock.stderr?.on('data', (chunk) => (output += chunk));
    await waitForHttp(`${base}/health-of-the-mock`, mock, {
      name: 'the mock',
      timeoutMs: 60_000,
      output: () => output,
    });
  }, 70_000);
  afterAll(() => {
    mock?.kill('SIGTERM');
  });

  const KEY = { 'x-service-api-key': 'sandbox-test-key', 'content-type': 'application/json' };
  const valid = {
    kind: 'one_time_payment',
    total_amount: 4999,
    amount_details: { total_additional_charges: 0, total_discounts: 0 },
    success_url: 'https://shop.example/ok',
    failure_url: 'https://shop.example/ko',
    order_items: [
      {
        name: 'Monitor',
        quantity: 1,
        price: 4999,
        amount_details: { total_additional_charges: 0, total_discounts: 0 },
      },
    ],
  };
  const create = async (body: string) => {
    const response = await fetch(`${base}/payments/v1/create_payment_session`, { method: 'POST', headers: KEY, body });
    return {
      status: response.status,
      type: response.headers.get('content-type'),
      body: (await response.json()) as { error: string; message: string },
    };
  };

  it('answers an invalid create with its 400, naming the missing fields, not the 422 token-action example', async () => {
    const answer = await create('{}');
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('MissingRequiredParameter');
    expect(answer.body.message).toContain("must have required property 'total_amount'");
    expect(responseViolations('createPaymentSession', 400, answer.body)).toEqual([]);
  });

  it('answers a wrong type with its 400, naming the field and the type, not "MissingField … is required"', async () => {
    const answer = await create(JSON.stringify({ ...valid, total_amount: 'ten' }));
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      error: 'InvalidRequestParameter',
      message: 'Request body property total_amount must be integer (body.total_amount)',
    });
  });

  it("answers a body that is not JSON, an invalid query, an unknown route and a wrong method in the contract's shape", async () => {
    const notJson = await create('{bad');
    expect([notJson.status, notJson.body.error]).toEqual([400, 'InvalidRequestParameter']);
    const query = await fetch(`${base}/payments/v1/payment_sessions?page_size=abc`, { headers: KEY });
    expect([query.status, await query.json()]).toEqual([
      400,
      {
        error: 'InvalidRequestParameter',
        message: 'Request query parameter page_size must be integer (query.page_size)',
      },
    ]);
    const unknown = await fetch(`${base}/payments/v1/nowhere`, { headers: KEY });
    expect([
      unknown.status,
      unknown.headers.get('content-type'),
      ((await unknown.json()) as { error: string }).error,
    ]).toEqual([404, 'application/json', 'NotFound']);
    const method = await fetch(`${base}/payments/v1/payment_sessions`, { method: 'DELETE', headers: KEY });
    expect([method.status, method.headers.get('allow'), ((await method.json()) as { error: string }).error]).toEqual([
      405,
      'GET',
      'MethodNotAllowed',
    ]);
  });

  it('measured: what it cannot do, as the testing guide lists it', async () => {
    // 7 of the 23 operations declare no 400: an invalid body there keeps Prism's problem+json 422.
    const without400 = operations()
      .filter(({ op }) => !op.responses['400'])
      .map(({ op }) => op.operationId);
    expect([operations().length, without400.length]).toEqual([23, 7]);
    const accept = await fetch(`${base}/v1/disputes/dp_1/accept`, { method: 'POST', headers: KEY, body: '[1]' });
    expect([accept.status, accept.headers.get('content-type')]).toEqual([422, 'application/problem+json']);
    // A rule no schema says (amounts that add up) is not checked: the 200 example.
    expect((await create(JSON.stringify({ ...valid, total_amount: 10 }))).status).toBe(200);
  });

  it('passes every other answer on: a valid create its example, a missing key its 401, Prefer its example', async () => {
    expect((await create(JSON.stringify(valid))).status).toBe(200);
    const keyless = await fetch(`${base}/payments/v1/payment_sessions`);
    expect(keyless.status).toBe(401);
    const chosen = await fetch(`${base}/payments/v1/create_payment_session`, {
      method: 'POST',
      headers: { ...KEY, prefer: 'code=422' },
      body: JSON.stringify(valid),
    });
    expect(chosen.status).toBe(422);
  });
});
