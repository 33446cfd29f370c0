// The Prism mock serves the contract: every operation answers its example, and every named error
// example can be selected with `Prefer: code=…, example=…`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient, hasErrorCode } from '../../src/client/index.js';
import { operations, resolve, responseViolations, type MediaType } from '../support/contract.js';
import { startPrism, type RunningServer } from '../support/prism.js';
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
    expect(Object.keys(everyOperation).sort()).toEqual(operations().map((o) => o.op.operationId).sort());
  });

  it.each(Object.entries(everyOperation))('%s answers 200 with a body that matches the contract', async (operationId, call) => {
    const { response, data, error } = (await call(client)) as { response: Response; data?: unknown; error?: unknown };
    expect({ status: response.status, error }).toEqual({ status: 200, error: undefined });
    expect(responseViolations(operationId, 200, data)).toEqual([]);
  });

  it.each(errorExamples())('%s %s: Prefer selects example %s', async (operationId, status, name, value) => {
    const call = everyOperation[operationId as keyof typeof everyOperation];
    const { response, error } = (await call(mockClient(`code=${status}, example=${name}`))) as { response: Response; error?: unknown };
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
