// The OpenAPI links lead from each create to the operations that take its id, and each one is
// right: stateful testers (Schemathesis) follow them, so a link whose expression names no declared
// field, or whose parameter the target does not take, sends requests that test nothing.
import { describe, expect, it } from 'vitest';
import { contract, type OpenApiDocument } from '../../testkit/contract.js';
import { documentLinks, linkProblems, type LinkObject } from '../support/links.js';

const links = documentLinks(contract);

/** Where a response's links lead: target operationId → how the link feeds it. */
function linksOf(operationId: string, status = '200') {
  return Object.fromEntries(
    links
      .filter((l) => l.source.operation.operationId === operationId && l.status === status)
      .map((l) => [
        l.link.operationId!,
        { parameters: l.link.parameters ?? {}, requestBody: l.link['x-request-body'] },
      ]),
  );
}

describe('links', () => {
  it('every link names an operation, parameters it takes, and fields the source response declares', () => {
    expect(links.length).toBeGreaterThan(0);
    expect(linkProblems(contract)).toEqual([]);
  });

  it('every link is a named component (components/links), with a description', () => {
    const named = contract.components.links as Record<string, LinkObject>;
    for (const { link } of links) expect(Object.values(named)).toContain(link);
    for (const link of Object.values(named)) expect(link.description?.trim()).toBeTruthy();
  });

  it('a created payment session leads to retrieve, capture, void, cancel and refund, by its id', () => {
    const byId = { parameters: { business_id: '$response.body#/id' }, requestBody: undefined };
    expect(linksOf('createPaymentSession')).toEqual({
      retrievePaymentSession: byId,
      capturePaymentSession: byId,
      voidPaymentSession: byId,
      cancelPaymentSession: byId,
      createRefund: { parameters: {}, requestBody: { payment_id: '$response.body#/id' } },
    });
  });

  it.each(['createPaymentToken', 'updatePaymentToken'])(
    '%s: its provision token request leads to the request and its eligibility',
    (operationId) => {
      const byRequest = {
        parameters: { provision_token_request_id: '$response.body#/provision_token_request_id' },
        requestBody: undefined,
      };
      expect(linksOf(operationId)).toEqual({
        retrieveProvisionTokenRequest: byRequest,
        retrieveProvisionRequestEligibility: byRequest,
      });
    },
  );

  it.each([
    [
      'retrieveProvisionTokenRequest',
      ['retrievePaymentToken', 'updatePaymentToken', 'deletePaymentToken', 'createPaymentSession'],
    ],
    ['retrievePaymentToken', ['updatePaymentToken', 'deletePaymentToken', 'createPaymentSession']],
  ])('%s: its payment token leads to the token operations and a charge', (operationId, targets) => {
    const found = linksOf(operationId);
    expect(Object.keys(found).sort()).toEqual([...targets].sort());
    for (const target of targets) {
      expect(found[target]).toEqual(
        target === 'createPaymentSession'
          ? { parameters: {}, requestBody: { payment_token: '$response.body#/payment_token' } }
          : { parameters: { payment_token: '$response.body#/payment_token' }, requestBody: undefined },
      );
    }
  });
});

describe('the link check can fail', () => {
  /** The contract with one link of create payment session's 200 replaced. */
  function withLink(name: string, link: LinkObject): OpenApiDocument {
    const doc = structuredClone(contract);
    (doc.paths['/payments/v1/create_payment_session']!.post as any).responses['200'].links[name] = link;
    return doc;
  }

  it.each<[string, LinkObject, RegExp]>([
    [
      'an unknown operation',
      { operationId: 'retrievePaymentSessions', description: 'x', parameters: { business_id: '$response.body#/id' } },
      /no operation of the document/,
    ],
    [
      'a parameter the target does not take',
      {
        operationId: 'retrievePaymentSession',
        description: 'x',
        parameters: { business_id: '$response.body#/id', session_id: '$response.body#/id' },
      },
      /parameter session_id is no parameter/,
    ],
    [
      'a parameter in the wrong place',
      {
        operationId: 'retrievePaymentSession',
        description: 'x',
        parameters: { 'query.business_id': '$response.body#/id' },
      },
      /parameter query\.business_id is no parameter/,
    ],
    [
      'a field the response does not declare',
      {
        operationId: 'retrievePaymentSession',
        description: 'x',
        parameters: { business_id: '$response.body#/session_id' },
      },
      /names no field the 200 response declares/,
    ],
    [
      'an expression that is not a response body pointer',
      { operationId: 'retrievePaymentSession', description: 'x', parameters: { business_id: '$request.body#/id' } },
      /not a \$response\.body/,
    ],
    [
      'a path parameter left unset',
      { operationId: 'retrievePaymentSession', description: 'x', parameters: {} },
      /sets no value for retrievePaymentSession's path parameter business_id/,
    ],
    [
      'a body field the target does not take',
      { operationId: 'createRefund', description: 'x', 'x-request-body': { session_id: '$response.body#/id' } },
      /x-request-body field session_id is no field/,
    ],
    [
      'a body field of another type',
      { operationId: 'createRefund', description: 'x', 'x-request-body': { amount: '$response.body#/id' } },
      /no type in common/,
    ],
    [
      'a whole-body expression',
      { operationId: 'createRefund', description: 'x', 'x-request-body': '$response.body#/id' },
      /x-request-body must be an object/,
    ],
    [
      'a requestBody, which openapi-generator refuses',
      { operationId: 'createRefund', description: 'x', requestBody: { payment_id: '$response.body#/id' } },
      /openapi-generator refuses a non-string one/,
    ],
    [
      'no description',
      { operationId: 'retrievePaymentSession', parameters: { business_id: '$response.body#/id' } },
      /has no description/,
    ],
  ])('reports %s', (_case, link, problem) => {
    const problems = linkProblems(withLink('Broken', link));
    expect(problems).toContainEqual(expect.stringMatching(problem));
    expect(problems.filter((p) => !p.includes('link Broken'))).toEqual([]);
  });
});
