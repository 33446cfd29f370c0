// npm run conformance lets a refusal of schema-valid data pass only when it carries one of the
// operation's documented 400 codes (documented-codes.ts, applied by the
// Schemathesis hook documented_refusals.py). These are the codes it reads from both documents.
import { describe, expect, it } from 'vitest';
import { documentedCodes } from './documented-codes.js';
import { SANDBOX_FILE } from '../src/sandbox/http/document.js';
import { contract, loadDocument } from '../testkit/contract.js';

const helpers = loadDocument(SANDBOX_FILE);

describe('the documented codes of the contract', () => {
  const codes = documentedCodes(contract);

  it("are the reference's codes of each operation's 400, ServerError aside", () => {
    expect(codes.capturePaymentSession).toContain('PaymentSessionDoesNotExist');
    expect(codes.createPaymentSession).toContain('TotalAmountInvalid');
    expect(codes.cancelPaymentSession).toEqual(['InvalidPaymentId', 'SessionCaptured', 'SessionAuthorized']);
    expect(codes.retrieveProvisionRequestEligibility).toEqual(['TotalAmountInvalid', 'ValidationError']);
    expect(Object.values(codes).flat()).not.toContain('ServerError');
  });

  it('leave out every 400 the document marks inferred (x-undocumented)', () => {
    const inferred = Object.values<any>(contract.paths!)
      .flatMap((item) => Object.values<any>(item))
      .filter((operation) => operation.responses?.['400']?.['x-undocumented'] !== undefined)
      .map((operation) => operation.operationId as string);
    expect(inferred).toEqual(
      expect.arrayContaining([
        'listPaymentSessions',
        'listPaymentTokens',
        'listCatalogItems',
        'retrieveCheckoutMethod',
      ]),
    );
    expect(Object.keys(codes).filter((operationId) => inferred.includes(operationId))).toEqual([]);
    expect(Object.keys(codes).sort()).toEqual([
      'cancelPaymentSession',
      'capturePaymentSession',
      'createPaymentSession',
      'createPaymentToken',
      'createRefund',
      'retrieveProvisionRequestEligibility',
      'voidPaymentSession',
    ]);
  });
});

describe("the documented codes of the helpers' document", () => {
  const codes = documentedCodes(helpers);

  it("are the codes each operation's 400 names, not every code of the shared SandboxError", () => {
    expect(codes.createWebhookListener).toEqual(['InvalidRequest']);
    expect(codes.escalateDispute).toEqual(['InvalidState']);
    expect(codes.completeCheckout).toEqual(['InvalidRequest', 'InvalidState']);
    expect(
      Object.values(codes)
        .flat()
        .filter((code) => code !== 'InvalidRequest' && code !== 'InvalidState'),
    ).toEqual([]);
    expect(codes.retrieveClock).toBeUndefined();
  });
});

describe('the rule on a document of its own', () => {
  const error = (codes: string[]) => ({
    type: 'object',
    properties: { error: { anyOf: [{ type: 'string', enum: codes }, { type: 'string' }] } },
  });
  const document = (response: object) => ({
    paths: { '/x': { post: { operationId: 'x', responses: { 400: response, 500: { description: 'fails' } } } } },
    components: { schemas: { XError: error(['A', 'B', 'ServerError']) } },
  });
  const json = { content: { 'application/json': { schema: { $ref: '#/components/schemas/XError' } } } };

  it("reads the 400's error enum through its $ref", () => {
    expect(documentedCodes(document({ description: 'Invalid.', ...json }))).toEqual({ x: ['A', 'B'] });
  });

  it('keeps only the codes the description names, when it names some', () => {
    expect(documentedCodes(document({ description: '`B`: a rule. `C`: not a code of the schema.', ...json }))).toEqual({
      x: ['B'],
    });
  });

  it('documents nothing with a 400 marked x-undocumented, or without one', () => {
    expect(documentedCodes(document({ description: 'Inferred.', 'x-undocumented': 'inferred', ...json }))).toEqual({});
    expect(
      documentedCodes({ paths: { '/x': { get: { operationId: 'x', responses: { 200: { description: 'ok' } } } } } }),
    ).toEqual({});
  });
});
