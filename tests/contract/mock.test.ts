// The Prism mock serves the contract: every operation answers its example, and every named error
// example can be selected with `Prefer: code=…, example=…`.
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { paths } from '../../generated/schema.js';
import { operations, resolve, responseViolations, type MediaType } from '../support/contract.js';
import { startPrism, type RunningServer } from '../support/prism.js';
import { everyOperation, type ContractClient } from './every-operation.js';

let prism: RunningServer;
let client: ContractClient;

beforeAll(async () => {
  prism = await startPrism();
  client = createClient<paths>({ baseUrl: prism.baseUrl, headers: { 'x-service-api-key': 'sandbox-test-key' } });
});
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
    const { response, error } = (await call(
      createClient<paths>({
        baseUrl: prism.baseUrl,
        headers: { 'x-service-api-key': 'sandbox-test-key', Prefer: `code=${status}, example=${name}` },
      }),
    )) as { response: Response; error?: unknown };
    expect(response.status).toBe(Number(status));
    expect(error).toEqual(value);
    expect(responseViolations(operationId, Number(status), error)).toEqual([]);
  });

  it('answers 401 when the API key is missing', async () => {
    const anonymous = createClient<paths>({ baseUrl: prism.baseUrl });
    const { response } = await everyOperation.retrievePaymentSession(anonymous);
    expect(response.status).toBe(401);
  });
});
