// The payment-session writes of the contract, as operations: each loads the session (or refuses
// with the operation's own "does not exist" code), lets domain/ decide the move, and saves it
// with the events the move fired, in the caller's transaction. The handlers
// (http/handlers/payment-sessions.ts) read the request and answer what these return.
import { checkoutUrl, provisionUrl } from '../checkout/urls.js';
import {
  checkCreateRules,
  newSession,
  resolveRedirect,
  sessionCustomerKey,
  type TokenFacts,
} from '../domain/create-session.js';
import { customerActionNeeded, refusalsOf, type Refusal } from '../domain/errors.js';
import { actionOf, chargeNeeds } from '../domain/payment-tokens.js';
import { refund, type RefundRequest } from '../domain/refunds.js';
import { cancel, capture, completeCheckout, voidHold } from '../domain/sessions.js';
import type { CreateSessionRequest, Session } from '../domain/types.js';
import type { SandboxStore } from '../store/store.js';
import type { WriteContext } from './event-queue.js';
import { sessionOf } from './lookups.js';
import { insertSessionAndQueueEvents, saveSessionAndQueueEvents } from './session-writes.js';
import { lettersOf, lmnSkusOf, pendingSessionToken, requestForToken } from './token-writes.js';

/** What a write of the contract needs: its channel, clock and ids, and the sandbox's public address. */
export type ContractWriteContext = WriteContext & { origin: string };

const doesNotExist = (id: string) => `Payment session ${id} does not exist.`;

async function tokenFacts(
  store: SandboxStore,
  context: WriteContext,
  token: string,
  lmnSkus: string[],
): Promise<TokenFacts> {
  const record = await store.tokens.get(context.channel, token);
  const letters = () => lettersOf(store, context.channel, record!.customer_key);
  return {
    exists: record !== undefined,
    ...(record?.customer_email ? { customer_email: record.customer_email } : {}),
    ...(record?.customer_name ? { customer_name: record.customer_name } : {}),
    ...(record ? { customer_key: record.customer_key } : {}),
    deleted: record?.status === 'deleted',
    pendingCheckout: record?.status === 'pending_checkout',
    needs: record?.status === 'active' ? chargeNeeds(record, lmnSkus, await letters(), context.now) : [],
  };
}

/**
 * Creates a payment session (after its replay, which the caller asks first): its id and redirect
 * URL, or the refusal to answer once the provision request that fixes the token is stored.
 */
export async function createPaymentSession(
  store: SandboxStore,
  context: ContractWriteContext,
  request: CreateSessionRequest,
): Promise<{ id: string; redirect_url: string } | { refusedAfterCommit: Refusal }> {
  const newId = () => context.ids.short();
  const lmnSkus =
    request.payment_token !== undefined ? await lmnSkusOf(store, context.channel, request.order_items) : [];
  const token =
    request.payment_token !== undefined ? await tokenFacts(store, context, request.payment_token, lmnSkus) : undefined;
  const needs = checkCreateRules(request, await store.features.get(context.channel), token);
  if (needs.length > 0) {
    // The customer fixes the token on the page of a provision request, kept even though the charge is refused.
    // Its exits are the refused charge's; the 422 creates no session, so {{payment_session_id}} has none to name.
    const exits = {
      success_url: resolveRedirect(request.success_url, ''),
      failure_url: resolveRedirect(request.failure_url, ''),
    };
    const record = (await store.tokens.get(context.channel, request.payment_token!))!;
    const fix = await requestForToken(store, context, record, 'fix', needs, lmnSkus, exits);
    return { refusedAfterCommit: customerActionNeeded(actionOf(needs[0]!), provisionUrl(context.origin, fix)) };
  }
  const issuedToken = request.tokenize === true ? `ptok_${newId()}` : undefined;
  const tokenUser = token ? { customer_email: token.customer_email, customer_name: token.customer_name } : undefined;
  const id = context.ids.uuid();
  const customerKey = sessionCustomerKey(request, id, token?.customer_key);
  const userBusinessId = await store.customers.businessIdOf(context.channel, customerKey, () => context.ids.uuid());
  const session = newSession({
    id,
    channel: context.channel,
    request,
    now: context.now,
    newId,
    userBusinessId,
    ...(issuedToken ? { issuedToken } : {}),
    ...(tokenUser ? { tokenUser } : {}),
  });
  // A usable stored payment method is charged without the hosted flow.
  const events = request.payment_token !== undefined ? completeCheckout(session, context.now) : [];
  await insertSessionAndQueueEvents(store, context, session, events);
  if (issuedToken) await store.tokens.insert(pendingSessionToken(session, issuedToken));
  return { id: session.id, redirect_url: checkoutUrl(context.origin, session) };
}

/** Captures a hold: the capture's id, and the refusal to answer once an expired hold is stored as such. */
export async function capturePaymentSession(
  store: SandboxStore,
  context: WriteContext,
  id: string,
  body: { total_amount: number; idempotency_key?: string },
): Promise<{ captureId: string; failure?: Refusal }> {
  const missing = () => refusalsOf('capturePaymentSession')('PaymentSessionDoesNotExist', doesNotExist(id));
  const session = await sessionOf(store, context.channel, id, missing);
  const result = capture(session, body.total_amount, body.idempotency_key, context.now, () => context.ids.short());
  await saveSessionAndQueueEvents(store, context, session, result.events);
  return { captureId: result.captureId, ...(result.failure ? { failure: result.failure } : {}) };
}

/** Voids a hold: the void's id. */
export async function voidPaymentSession(
  store: SandboxStore,
  context: WriteContext,
  id: string,
  idempotencyKey: string | undefined,
): Promise<{ voidId: string }> {
  const missing = () => refusalsOf('voidPaymentSession')('PaymentSessionDoesNotExist', doesNotExist(id));
  const session = await sessionOf(store, context.channel, id, missing);
  const result = voidHold(session, idempotencyKey, context.now, () => context.ids.short());
  await saveSessionAndQueueEvents(store, context, session, result.events);
  return { voidId: result.voidId };
}

/** Cancels a session: the session after it. */
export async function cancelPaymentSession(store: SandboxStore, context: WriteContext, id: string): Promise<Session> {
  const missing = () => refusalsOf('cancelPaymentSession')('InvalidPaymentId', doesNotExist(id));
  const session = await sessionOf(store, context.channel, id, missing);
  await saveSessionAndQueueEvents(store, context, session, cancel(session, context.now));
  // A canceled checkout never issues its token: a charge with it answers NotFound.
  const issued = session.issued_payment_token;
  if (
    issued &&
    session.status === 'canceled' &&
    (await store.tokens.get(context.channel, issued))?.status === 'pending_checkout'
  ) {
    await store.tokens.setStatus(context.channel, issued, 'deleted');
  }
  return session;
}

/** Refunds a captured session: the refund's id. */
export async function refundPaymentSession(
  store: SandboxStore,
  context: WriteContext,
  request: RefundRequest & { payment_id: string },
): Promise<{ refundId: string }> {
  const id = request.payment_id;
  const missing = () => refusalsOf('createRefund')('InvalidPaymentId', doesNotExist(id));
  const session = await sessionOf(store, context.channel, id, missing);
  const created = refund(session, request, context.now, () => context.ids.short());
  // The contract has no refund webhook: the session is stored, and nothing is queued.
  await store.sessions.update(session);
  return { refundId: created.refund_id };
}
