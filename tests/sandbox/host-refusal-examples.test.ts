// The helpers' document declares the sandbox's Host refusal (components/responses/Forbidden) on every
// helper, with an example of each kind: a host it does not answer to, and a Host that is no host.
// Each example is the sandbox's own answer, word for word, on a helper and on a contract operation.
import { afterAll, describe, expect, it } from 'vitest';
import { buildSandbox } from '../../src/sandbox/http/app.js';
import { SANDBOX_FILE } from '../../src/sandbox/http/document.js';
import { createStore, openDatabase } from '../../src/sandbox/store/index.js';
import { loadDocument, operations, resolve } from '../../testkit/contract.js';
import { sqliteBackend } from '../../src/sandbox/store/sqlite-backend.js';

const helpers = loadDocument(SANDBOX_FILE);
const app = buildSandbox({ store: sqliteBackend(createStore(openDatabase(':memory:'))) });
afterAll(() => app.close());

interface Forbidden {
  content: { 'application/json': { examples: Record<string, { $ref?: string }> } };
}
const forbidden = resolve<Forbidden>({ $ref: '#/components/responses/Forbidden' }, helpers);
const examples = forbidden.content['application/json'].examples;
const exampleValue = (name: string) => resolve<{ value: unknown }>(examples[name]!, helpers).value;

describe("the Host refusal of the helpers' document", () => {
  it('is declared by every helper', () => {
    const declares = (responses: Record<string, unknown>) =>
      (responses['403'] as { $ref?: string } | undefined)?.$ref === '#/components/responses/Forbidden';
    const without = operations(helpers).filter(({ op }) => !declares(op.responses));
    expect(without.map(({ op }) => op.operationId)).toEqual([]);
  });

  it.each([
    ['CommonForbiddenHostNotAllowedResponse', 'rebind.example:4010'],
    ['CommonForbiddenNoHostResponse', 'evil.com/.localhost'],
  ])('%s is what the sandbox answers to Host: %s', async (name, host) => {
    for (const url of ['/sandbox/v1/revision', '/payments/v1/payment_sessions']) {
      const reply = await app.inject({ method: 'GET', url, headers: { host, 'x-service-api-key': 'sandbox-dev-key' } });
      expect([url, reply.statusCode, reply.json()]).toEqual([url, 403, exampleValue(name)]);
    }
  });
});
