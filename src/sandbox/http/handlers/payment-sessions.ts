// The contract's payment-session operations, with the reference's rules.
import { randomUUID } from 'node:crypto';
import { checkCreateRules, newSession, type TokenFacts } from '../../domain/create-session.js';
import { badRequest, notFound } from '../../domain/errors.js';
import { divergingFields, type IdempotencyRules } from '../../domain/idempotency.js';
import { pageRequest, pageWindow, pagination, sessionListFilter, type ListQuery } from '../../domain/listing.js';
import { refund } from '../../domain/refunds.js';
import { cancel, capture, completeCheckout, voidHold } from '../../domain/sessions.js';
import type { CreateSessionRequest, Session } from '../../domain/types.js';
import { toDetail, toListItem } from '../../domain/views.js';
import type { Store } from '../../store/index.js';
import type { OperationContext, OperationHandler } from '../operations.js';
import { checkoutUrl, newId, ok, save } from './shared.js';

function tokenFacts(store: Store, channel: string, token: string, origin: string): TokenFacts {
  const record = store.tokens.get(channel, token);
  return {
    exists: record !== undefined,
    ...(record?.customer_email ? { customer_email: record.customer_email } : {}),
    ...(record?.customer_name ? { customer_name: record.customer_name } : {}),
    deleted: record?.status === 'deleted',
    pendingCheckout: record?.status === 'pending_checkout',
    nextAction: record?.next_action ?? null,
    actionUrl: `${origin}/checkout/token/${encodeURIComponent(token)}`,
  };
}

/** The session a capture, void, cancel or refund names, or that operation's "does not exist" code. */
function existing(store: Store, context: OperationContext, id: string, missingCode: string): Session {
  const session = store.sessions.get(context.channel, id);
  if (!session) throw badRequest(missingCode, `Payment session ${id} does not exist.`);
  return session;
}

export function paymentSessionHandlers(rules: IdempotencyRules): Record<string, OperationHandler> {
  return {
    createPaymentSession(context, store) {
      const request = context.body as CreateSessionRequest;
      if (request.idempotency_key !== undefined) {
        const original = store.sessions.findByIdempotencyKey(context.channel, request.idempotency_key);
        if (original) {
          const diverging = divergingFields(original.request, request, rules);
          if (diverging.length > 0) {
            throw badRequest('IdempotencyViolation', `idempotency_key ${request.idempotency_key} was already used with different values of: ${diverging.join(', ')}.`);
          }
          // Rule 1 and 4: the original session, and no new values applied.
          return ok({ id: original.id, redirect_url: checkoutUrl(context.origin, original) });
        }
      }
      if (context.deferredViolation) throw context.deferredViolation;
      const token = request.payment_token !== undefined ? tokenFacts(store, context.channel, request.payment_token, context.origin) : undefined;
      checkCreateRules(request, store.features.get(context.channel), token);
      const issuedToken = request.tokenize === true ? `ptok_${newId()}` : undefined;
      const tokenUser = token ? { customer_email: token.customer_email, customer_name: token.customer_name } : undefined;
      const session = newSession({ id: randomUUID(), channel: context.channel, request, now: context.now, newId, ...(issuedToken ? { issuedToken } : {}), ...(tokenUser ? { tokenUser } : {}) });
      store.sessions.insert(session);
      if (issuedToken) {
        store.tokens.insert({
          token: issuedToken, channel: context.channel, session_id: session.id, status: 'pending_checkout', next_action: null,
          created_at: context.now, customer_email: session.customer_email ?? null, customer_name: session.customer_name ?? null,
        });
      }
      // A usable stored payment method is charged without the hosted flow.
      const events = request.payment_token !== undefined ? completeCheckout(session, context.now) : [];
      save(store, session, events, context.now);
      return ok({ id: session.id, redirect_url: checkoutUrl(context.origin, session) });
    },

    retrievePaymentSession(context, store) {
      const session = store.sessions.get(context.channel, context.path.business_id);
      if (!session) throw notFound(`No payment session ${context.path.business_id}.`);
      return ok(toDetail(session));
    },

    listPaymentSessions(context, store) {
      const query = context.query as ListQuery & Record<string, any>;
      const page = pageRequest(query);
      const { sessions, count } = store.sessions.list(context.channel, sessionListFilter(query), pageWindow(page));
      const includeRefunds = query.include_refunds !== false && query.summarize_refunds !== true;
      const includeDisputes = query.include_disputes !== false;
      return ok({
        payment_sessions: sessions.map((session) => ({
          ...toListItem(session, query as Parameters<typeof toListItem>[1]),
          ...(includeRefunds ? { refunds: session.refunds.map(({ idempotency_key: _key, ...r }) => r) } : {}),
          ...(includeDisputes ? { disputes: session.disputes.map((d) => d.dispute) } : {}),
        })),
        pagination: pagination(page, count),
      });
    },

    capturePaymentSession(context, store) {
      const session = existing(store, context, context.path.business_id, 'PaymentSessionDoesNotExist');
      const result = capture(session, context.body.total_amount, context.body.idempotency_key, context.now, newId);
      save(store, session, result.events, context.now);
      // An expired hold is stored as authorization_expired, then answered SessionExpired.
      if (result.failure) return { status: 400, body: { error: result.failure.code, message: result.failure.message } };
      return ok({ id: result.captureId });
    },

    voidPaymentSession(context, store) {
      const session = existing(store, context, context.path.business_id, 'PaymentSessionDoesNotExist');
      const result = voidHold(session, context.body?.idempotency_key, context.now, newId);
      save(store, session, result.events, context.now);
      return ok({ id: result.voidId });
    },

    cancelPaymentSession(context, store) {
      const session = existing(store, context, context.path.business_id, 'InvalidPaymentId');
      save(store, session, cancel(session, context.now), context.now);
      return ok(toDetail(session));
    },

    createRefund(context, store) {
      const session = existing(store, context, context.body.payment_id, 'InvalidPaymentId');
      const created = refund(session, context.body, context.now, newId);
      save(store, session, [], context.now);
      return ok({ refund_id: created.refund_id });
    },
  };
}
