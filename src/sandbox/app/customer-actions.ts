// What the customer does, shared by the /sandbox/v1/ helpers and the hosted pages, so that both
// cause the same transitions and the same webhook events. Each runs inside the caller's transaction.
import { defaultCard, type Card } from '../domain/cards.js';
import { resolveRedirect } from '../domain/create-session.js';
import { completeByCustomer, type CustomerAnswers, type ProvisionRequest } from '../domain/provisioning.js';
import { completeCheckout, endIneligible, review } from '../domain/sessions.js';
import type { Session } from '../domain/types.js';
import type { SandboxStore } from '../store/store.js';
import type { WriteContext } from './event-queue.js';
import { saveSessionAndQueueEvents } from './session-writes.js';
import { activateIssuedToken, applyOutcome } from './token-writes.js';

/** The customer finishes a session's hosted flow: eligible (then pays with `card`) or not. */
export async function finishCheckout(
  store: SandboxStore,
  context: WriteContext,
  session: Session,
  outcome: { eligible: boolean; card?: Card; accepted?: boolean },
) {
  if (!outcome.eligible) {
    // Ineligible: the flow ends at failure_url, the session stays pending, the outcome is reported.
    await saveSessionAndQueueEvents(store, context, session, endIneligible(session, context.now));
    return { status: session.status, redirect_url: resolveRedirect(session.request.failure_url, session.id) };
  }
  const events = completeCheckout(session, context.now);
  // A card the service accepts at once: the review of a one-time payment passes straight away.
  if (outcome.accepted && session.status === 'processing') events.push(...review(session, 'accept', context.now));
  await saveSessionAndQueueEvents(store, context, session, events);
  if (session.issued_payment_token) {
    await activateIssuedToken(store, context, session, outcome.card ?? defaultCard(context.now));
  }
  return { status: session.status, redirect_url: resolveRedirect(session.request.success_url, session.id) };
}

/** The customer finishes a provision request's page: the survey, the letter it may request, the card. */
export async function finishProvisionRequest(
  store: SandboxStore,
  context: WriteContext,
  request: ProvisionRequest,
  answers: CustomerAnswers,
): Promise<void> {
  await applyOutcome(store, context, request, completeByCustomer(request, answers, context.now));
}
