// One session built by the domain's own steps, every id and time fixed, whose stored renderings
// are pinned by golden files (tests/unit/fixtures/*-view-golden.json).
import { newSession } from '../../src/sandbox/domain/create-session.js';
import { openDispute, resolveDispute } from '../../src/sandbox/domain/disputes.js';
import { refund } from '../../src/sandbox/domain/refunds.js';
import { completeCheckout, review } from '../../src/sandbox/domain/sessions.js';
import type { CreateSessionRequest, Session } from '../../src/sandbox/domain/types.js';
import { sessionRequest } from './sandbox.js';

/** A session built by the domain's own steps, every id and time fixed: captured, partly refunded, one dispute won, one open. */
export function goldenSession(): Session {
  let n = 0;
  const newId = () => `golden${String(++n).padStart(4, '0')}`;
  const at = (minute: number) => new Date(Date.UTC(2026, 0, 15, 9, minute)).toISOString();
  const session = newSession({
    id: '5b0c7d1e-2f3a-4b4c-8d5e-6f7a8b9c0d1e', channel: 'dev', request: sessionRequest({ idempotency_key: 'golden-order' }) as CreateSessionRequest,
    now: at(0), newId, userBusinessId: '9e8d7c6b-5a4f-4e3d-9c2b-1a0f9e8d7c6b',
  });
  completeCheckout(session, at(1));
  review(session, 'accept', at(2));
  refund(session, { amount: 1250, idempotency_key: 'golden-refund', reason: 'customer_request' }, at(3), newId);
  openDispute(session, { id: 'dp_golden_won', amount: 1000, now: at(4) });
  resolveDispute(session, 'dp_golden_won', 'won', at(5));
  openDispute(session, { id: 'dp_golden_open', amount: 500, now: at(6) });
  return session;
}
