// The payload of payment_session_complete: the optional fields appear exactly when they apply.
import { describe, expect, it } from 'vitest';
import { completionEvent } from '../../src/sandbox/domain/events.js';
import type { Session } from '../../src/sandbox/domain/types.js';

const now = '2026-03-01T00:00:00.000Z';
const session = (fields: Partial<Session>): Session =>
  ({
    id: 'pay_1',
    kind: 'authorization',
    status: 'authorized',
    total_amount: 500,
    items: [],
    request: {},
    authorized_at: now,
    ...fields,
  }) as unknown as Session;
const data = (fields: Partial<Session>) => completionEvent(session(fields), now).data as Record<string, unknown>;

describe('completionEvent', () => {
  it('reports the token a session charged', () => {
    expect(data({ payment_token: 'tok_charged', issued_payment_token: 'tok_issued' }).payment_token).toBe(
      'tok_charged',
    );
  });

  it('reports the token a completed checkout issued', () => {
    expect(data({ status: 'authorized', issued_payment_token: 'tok_issued' }).payment_token).toBe('tok_issued');
    expect(data({ status: 'captured', capture_amount: 500, issued_payment_token: 'tok_issued' }).payment_token).toBe(
      'tok_issued',
    );
  });

  it('reports no token for a pending or canceled checkout, nor for a session without one', () => {
    expect(
      Object.keys(data({ status: 'pending', authorized_at: undefined, issued_payment_token: 'tok_issued' })),
    ).not.toContain('payment_token');
    expect(
      Object.keys(data({ status: 'canceled', authorized_at: undefined, issued_payment_token: 'tok_issued' })),
    ).not.toContain('payment_token');
    expect(Object.keys(data({}))).not.toContain('payment_token');
  });

  it('carries capture_amount only once there is one', () => {
    expect(Object.keys(data({}))).not.toContain('capture_amount');
    expect(data({ status: 'captured', capture_amount: 300 }).capture_amount).toBe(300);
  });

  it('echoes metadata only when the request had some', () => {
    expect(Object.keys(data({}))).not.toContain('metadata');
    expect(data({ request: { metadata: { order: '42' } } as never }).metadata).toEqual({ order: '42' });
  });
});
