// Stored records numbered in the order a test makes them, for the tests that fill a store directly
// (the lists' work, on SQLite and on PostgreSQL): each maker numbers its own, so ids never repeat
// within a test file.
import { newSession } from '../../src/sandbox/domain/create-session.js';
import type { CreateSessionRequest, PaymentTokenRecord, Session } from '../../src/sandbox/domain/types.js';
import { sessionRequest } from '../../testkit/sandbox.js';

/** Sessions of `channel`, created at 2026-01-01, each with the next number in its id. */
export function sessionMaker(channel: string) {
  let n = 0;
  return (email: string, fields: Partial<Session> = {}): Session => {
    n++;
    const created = newSession({
      id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
      channel,
      request: sessionRequest({ customer_email: email }) as CreateSessionRequest,
      now: '2026-01-01T00:00:00.000Z',
      newId: () => `item${n}`,
    });
    return { ...created, ...fields };
  };
}

/**
 * Active payment tokens of `channel` for the customer `email` (its key, the email in lower case),
 * each `ptok_<n>` with a Visa card expiring 2030-01; the overrides win.
 */
export function tokenMaker() {
  let n = 0;
  return (channel: string, email: string, overrides: Partial<PaymentTokenRecord> = {}): PaymentTokenRecord => {
    n++;
    return {
      channel,
      customer_email: email,
      token: `ptok_${n}`,
      session_id: null,
      status: 'active',
      next_action: null,
      created_at: '2026-01-01T00:00:00.000Z',
      customer_name: `Customer ${n}`,
      customer_key: email.toLowerCase(),
      card_brand: 'visa',
      card_last4: '4242',
      card_expires: '2030-01',
      lmn_expires_at: null,
      provision_request_id: null,
      metadata: null,
      success_url: null,
      failure_url: null,
      ...overrides,
    };
  };
}
