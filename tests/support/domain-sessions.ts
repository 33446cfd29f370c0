// Sessions built by the domain's own moves, for tests that call the rules directly.
import { newSession } from '../../src/sandbox/domain/create-session.js';
import { completeCheckout, review } from '../../src/sandbox/domain/sessions.js';
import type { CreateSessionRequest, Session } from '../../src/sandbox/domain/types.js';
import { sessionRequest } from '../../testkit/sandbox.js';

/** 2026-03-01 12:mm UTC, as the domain stores times. */
export const at = (minute: number) => new Date(Date.UTC(2026, 2, 1, 12, minute)).toISOString();

/** A one-time payment of 7799, created at minute 0 and awaiting the customer. */
export function pendingSession(): Session {
  let n = 0;
  return newSession({
    id: 'c0ffee00-1111-4222-8333-444455556666',
    channel: 'dev',
    request: sessionRequest() as CreateSessionRequest,
    now: at(0),
    newId: () => `item${++n}`,
  });
}

/** A one-time payment of 7799, captured at minute 2. */
export function capturedSession(): Session {
  const session = pendingSession();
  completeCheckout(session, at(1));
  review(session, 'accept', at(2));
  return session;
}
