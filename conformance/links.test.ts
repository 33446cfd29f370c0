// The copy of the document that Schemathesis tests: each link's x-request-body becomes its
// requestBody, and nothing else changes.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { withLinkRequestBodies } from './links.js';
import { repoRoot } from '../testkit/contract.js';

const bundled = JSON.parse(readFileSync(path.join(repoRoot, 'generated', 'openapi.json'), 'utf8'));

describe('withLinkRequestBodies', () => {
  it("moves x-request-body to requestBody in operations' links and in components.links", () => {
    const document = {
      paths: {
        '/a': {
          post: {
            responses: {
              '200': {
                links: {
                  L: { operationId: 'b', 'x-request-body': { id: '$response.body#/id' } },
                  M: { operationId: 'c', parameters: { id: '$response.body#/id' } },
                },
              },
            },
          },
        },
      },
      components: { links: { N: { operationId: 'd', 'x-request-body': { token: '$response.body#/token' } } } },
    };
    const copy = withLinkRequestBodies(document);
    expect(copy.paths['/a'].post.responses['200'].links.L).toEqual({
      operationId: 'b',
      requestBody: { id: '$response.body#/id' },
    });
    expect(copy.paths['/a'].post.responses['200'].links.M).toEqual({
      operationId: 'c',
      parameters: { id: '$response.body#/id' },
    });
    expect(copy.components.links.N).toEqual({ operationId: 'd', requestBody: { token: '$response.body#/token' } });
    // The original is untouched.
    expect(document.components.links.N).toHaveProperty('x-request-body');
  });

  it('refuses a link that has both', () => {
    const document = {
      paths: {
        '/a': {
          get: {
            responses: {
              '200': { links: { L: { operationId: 'b', requestBody: '$response.body', 'x-request-body': {} } } },
            },
          },
        },
      },
    };
    expect(() => withLinkRequestBodies(document)).toThrow(/both requestBody and x-request-body/);
  });

  it('leaves no x-request-body in the bundled contract, and gives the refund and charge links their bodies', () => {
    const before = JSON.stringify(bundled).match(/"x-request-body"/g)?.length ?? 0;
    expect(before).toBeGreaterThan(0);
    const copy = withLinkRequestBodies(bundled);
    const text = JSON.stringify(copy);
    expect(text).not.toContain('"x-request-body"');
    const bodies = [...text.matchAll(/"requestBody":\{"(\w+)":"(\$response[^"]+)"\}/g)].map((m) => `${m[1]}=${m[2]}`);
    expect(bodies).toEqual(
      expect.arrayContaining(['payment_id=$response.body#/id', 'payment_token=$response.body#/payment_token']),
    );
    expect(bodies).toHaveLength(before);
  });
});
