// Upgrading a shape-1 document takes the customer from the request only when the document has none
// and the charge had no payment token; a shape no step upgrades from is refused.
import { describe, expect, it } from 'vitest';
import { upgradeSession } from '../../src/sandbox/domain/session-shape.js';

const customer = (document: Record<string, unknown>) => {
  const session = upgradeSession(document) as unknown as Record<string, unknown>;
  return {
    email: 'customer_email' in session ? session.customer_email : 'absent',
    name: 'customer_name' in session ? session.customer_name : 'absent',
  };
};

const request = { customer_email: 'req@example.com', customer_name: 'Req Name' };

describe('the customer of an upgraded shape-1 document', () => {
  it('takes the customer from the request when the document has none', () => {
    expect(customer({ request })).toEqual({ email: 'req@example.com', name: 'Req Name' });
  });

  it('keeps the customer the document has over the request', () => {
    expect(customer({ request, customer_email: 'doc@example.com', customer_name: 'Doc Name' })).toEqual({
      email: 'doc@example.com',
      name: 'Doc Name',
    });
  });

  it('takes none from the request of a charge with a payment token', () => {
    expect(customer({ request, payment_token: 'pt_1' })).toEqual({ email: 'absent', name: 'absent' });
  });

  it('adds no customer field when the request has none', () => {
    expect(customer({ request: {} })).toEqual({ email: 'absent', name: 'absent' });
    expect(customer({})).toEqual({ email: 'absent', name: 'absent' });
  });
});

describe('shapes no step upgrades from', () => {
  it('refuses one, naming the shape', () => {
    expect(() => upgradeSession({ shape_version: 0 })).toThrow('No upgrade of a session document from shape 0');
  });
});
