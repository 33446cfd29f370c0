// The contract's payment-session operations, with the reference's rules. Each handler is typed by
// its operationId: its context carries that operation's path, query and body, and it returns that
// operation's 200 body.
import { checkoutUrl, provisionUrl } from '../../checkout/urls.js';
import { answerTooLarge, boundedAnswer } from '../../domain/answer-bounds.js';
import { checkCreateRules, newSession, resolveRedirect, sessionCustomerKey, type TokenFacts } from '../../domain/create-session.js';
import { customerActionNeeded, notFound, refusalsOf } from '../../domain/errors.js';
import { pageRequest, pageWindow, pagination, sessionListFilter, type ListQuery } from '../../domain/listing.js';
import { actionOf, chargeNeeds } from '../../domain/payment-tokens.js';
import { refund } from '../../domain/refunds.js';
import { cancel, capture, completeCheckout, voidHold } from '../../domain/sessions.js';
import { toDetail, type ListFlags } from '../../domain/views.js';
import type { SandboxStore } from '../../store/store.js';
import { PreRenderedJson, RefusedAfterCommit, type ContractOperations, type Handlers, type OperationContext } from '../operation-types.js';
import type { CreateReplay } from '../../app/create-replay.js';
import { sessionOf } from '../../app/lookups.js';
import { insertSessionAndQueueEvents, saveSessionAndQueueEvents } from '../../app/session-writes.js';
import { lettersOf, lmnSkusOf, pendingSessionToken, requestForToken } from '../../app/token-writes.js';

function tokenFacts(
  store: SandboxStore, context: OperationContext<unknown>, token: string, lmnSkus: string[],
): TokenFacts {
  const record = store.tokens.get(context.channel, token);
  return {
    exists: record !== undefined,
    ...(record?.customer_email ? { customer_email: record.customer_email } : {}),
    ...(record?.customer_name ? { customer_name: record.customer_name } : {}),
    ...(record ? { customer_key: record.customer_key } : {}),
    deleted: record?.status === 'deleted',
    pendingCheckout: record?.status === 'pending_checkout',
    needs: record?.status === 'active' ? chargeNeeds(record, lmnSkus, lettersOf(store, context.channel, record.customer_key), context.now) : [],
  };
}

const doesNotExist = (id: string) => `Payment session ${id} does not exist.`;
const refuseList = refusalsOf('listPaymentSessions');

/** What a list of sessions too large to answer can ask instead. */
export const smallerSessionPage = (flags: ListFlags) => {
  const optional = (['include_metadata', 'include_order_items'] as const).filter((flag) => flags[flag] === true);
  return `ask for fewer sessions per page (a smaller page_size)${optional.length > 0 ? `, or leave out ${optional.join(' and ')}` : ''}`;
};

/** `replay`: create payment session's idempotent replay, which the create handler asks first. */
export function paymentSessionHandlers(replay: CreateReplay): Handlers<ContractOperations> {
  return {
    createPaymentSession(context, store) {
      // Rules 1, 2 and 4: a retry of an earlier create answers its original session, or refuses.
      const replayed = replay.answerRetry(store, context, context.body);
      if (replayed) return replayed;
      const request = context.body;
      const newId = () => context.ids.short();
      const lmnSkus = request.payment_token !== undefined ? lmnSkusOf(store, context.channel, request.order_items) : [];
      const token = request.payment_token !== undefined ? tokenFacts(store, context, request.payment_token, lmnSkus) : undefined;
      const needs = checkCreateRules(request, store.features.get(context.channel), token);
      if (needs.length > 0) {
        // The customer fixes the token on the page of a provision request, kept even though the charge is refused.
        // Its exits are the refused charge's; the 422 creates no session, so {{payment_session_id}} has none to name.
        const exits = { success_url: resolveRedirect(request.success_url, ''), failure_url: resolveRedirect(request.failure_url, '') };
        const fix = requestForToken(store, context, store.tokens.get(context.channel, request.payment_token!)!, 'fix', needs, lmnSkus, exits);
        return new RefusedAfterCommit(customerActionNeeded(actionOf(needs[0]!), provisionUrl(context.origin, fix)));
      }
      const issuedToken = request.tokenize === true ? `ptok_${newId()}` : undefined;
      const tokenUser = token ? { customer_email: token.customer_email, customer_name: token.customer_name } : undefined;
      const id = context.ids.uuid();
      const userBusinessId = store.customers.businessIdOf(context.channel, sessionCustomerKey(request, id, token?.customer_key), () => context.ids.uuid());
      const session = newSession({ id, channel: context.channel, request, now: context.now, newId, userBusinessId, ...(issuedToken ? { issuedToken } : {}), ...(tokenUser ? { tokenUser } : {}) });
      // A usable stored payment method is charged without the hosted flow.
      const events = request.payment_token !== undefined ? completeCheckout(session, context.now) : [];
      insertSessionAndQueueEvents(store, context, session, events);
      if (issuedToken) store.tokens.insert(pendingSessionToken(session, issuedToken));
      return { id: session.id, redirect_url: checkoutUrl(context.origin, session) };
    },

    // The detail is stored rendered with each session: a retrieve reads one text (a single-read operation, app.ts).
    retrievePaymentSession(context, store) {
      const detail = store.sessions.detailView(context.channel, context.path.business_id);
      if (detail === undefined) throw notFound(`No payment session ${context.path.business_id}.`);
      return new PreRenderedJson(detail);
    },

    // The same query again answers the same text until one of the channel's sessions changes. A
    // page larger than the sandbox sends at once is refused, its items read no further than the bound.
    listPaymentSessions(context, store) {
      const query = context.query;
      return new PreRenderedJson(store.sessions.answer(context.channel, `list ${JSON.stringify(query)}`, () => {
        const page = pageRequest(query);
        const filter = sessionListFilter(query as ListQuery);
        const { items, count } = store.sessions.listItems(context.channel, filter, pageWindow(page), query);
        return boundedAnswer({
          prefix: '{"payment_sessions":', items, suffix: `,"pagination":${JSON.stringify(pagination(page, count))}}`,
          tooLarge: () => refuseList('InvalidRequestParameter', answerTooLarge(smallerSessionPage(query))),
        });
      }));
    },

    capturePaymentSession(context, store) {
      const id = context.path.business_id;
      const session = sessionOf(store, context.channel, id, () => refusalsOf('capturePaymentSession')('PaymentSessionDoesNotExist', doesNotExist(id)));
      const result = capture(session, context.body.total_amount, context.body.idempotency_key, context.now, () => context.ids.short());
      saveSessionAndQueueEvents(store, context, session, result.events);
      // An expired hold is stored as authorization_expired; only then is the capture refused.
      if (result.failure) return new RefusedAfterCommit(result.failure);
      return { id: result.captureId };
    },

    voidPaymentSession(context, store) {
      const id = context.path.business_id;
      const session = sessionOf(store, context.channel, id, () => refusalsOf('voidPaymentSession')('PaymentSessionDoesNotExist', doesNotExist(id)));
      const result = voidHold(session, context.body?.idempotency_key, context.now, () => context.ids.short());
      saveSessionAndQueueEvents(store, context, session, result.events);
      return { id: result.voidId };
    },

    cancelPaymentSession(context, store) {
      const id = context.path.business_id;
      const session = sessionOf(store, context.channel, id, () => refusalsOf('cancelPaymentSession')('InvalidPaymentId', doesNotExist(id)));
      saveSessionAndQueueEvents(store, context, session, cancel(session, context.now));
      // A canceled checkout never issues its token: a charge with it answers NotFound.
      const issued = session.issued_payment_token;
      if (issued && session.status === 'canceled' && store.tokens.get(context.channel, issued)?.status === 'pending_checkout') store.tokens.setStatus(context.channel, issued, 'deleted');
      return toDetail(session);
    },

    createRefund(context, store) {
      const id = context.body.payment_id;
      const session = sessionOf(store, context.channel, id, () => refusalsOf('createRefund')('InvalidPaymentId', doesNotExist(id)));
      const created = refund(session, context.body, context.now, () => context.ids.short());
      // The contract has no refund webhook: the session is stored, and nothing is queued.
      store.sessions.update(session);
      return { refund_id: created.refund_id };
    },
  } satisfies Handlers<ContractOperations>;
}
