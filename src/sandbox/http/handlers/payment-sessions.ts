// The contract's payment-session operations. Each handler is typed by its operationId: its context
// carries that operation's path, query and body, and it returns that operation's 200 body. The
// writes are the operations of app/payment-sessions.ts; the reads answer stored renderings.
import { answerTooLarge, boundedAnswer } from '../../domain/answer-bounds.js';
import { notFound, refusalsOf } from '../../domain/errors.js';
import { pageRequest, pageWindow, pagination, sessionListFilter, type ListQuery } from '../../domain/listing.js';
import { toDetail, type ListFlags } from '../../domain/views.js';
import { PreRenderedJson, RefusedAfterCommit, type ContractOperations, type Handlers } from '../operation-types.js';
import type { CreateReplay } from '../../app/create-replay.js';
import {
  cancelPaymentSession,
  capturePaymentSession,
  createPaymentSession,
  refundPaymentSession,
  voidPaymentSession,
} from '../../app/payment-sessions.js';

const refuseList = refusalsOf('listPaymentSessions');

/** What a list of sessions too large to answer can ask instead. */
export const smallerSessionPage = (flags: ListFlags) => {
  const optional = (['include_metadata', 'include_order_items'] as const).filter((flag) => flags[flag] === true);
  return (
    `ask for fewer sessions per page (a smaller ` +
    `page_size)${optional.length > 0 ? `, or leave out ${optional.join(' and ')}` : ''}`
  );
};

/** `replay`: create payment session's idempotent replay, which the create handler asks first. */
export function paymentSessionHandlers(replay: CreateReplay): Handlers<ContractOperations> {
  return {
    async createPaymentSession(context, store) {
      // Rules 1, 2 and 4: a retry of an earlier create answers its original session, or refuses.
      const replayed = await replay.answerRetry(store, context, context.body);
      if (replayed) return replayed;
      const created = await createPaymentSession(store, context, context.body);
      return 'refusedAfterCommit' in created ? new RefusedAfterCommit(created.refusedAfterCommit) : created;
    },

    // The detail is stored rendered with each session: a retrieve reads one text (a single-read operation, app.ts).
    async retrievePaymentSession(context, store) {
      const detail = await store.sessions.detailView(context.channel, context.path.business_id);
      if (detail === undefined) throw notFound(`No payment session ${context.path.business_id}.`);
      return new PreRenderedJson(detail);
    },

    // The same query again answers the same text until one of the channel's sessions changes. A
    // page larger than the sandbox sends at once is refused, its items read no further than the bound.
    // A kept page is answered with no transaction (a single-read operation, app.ts); a new one is
    // read in one, so that its count and its items are of one snapshot.
    async listPaymentSessions(context, store) {
      const query = context.query;
      return new PreRenderedJson(
        await store.sessions.answer(context.channel, `list ${JSON.stringify(query)}`, () =>
          store.read(async () => {
            const page = pageRequest(query);
            const filter = sessionListFilter(query as ListQuery);
            const { items, count } = await store.sessions.listItems(context.channel, filter, pageWindow(page), query);
            return boundedAnswer({
              prefix: '{"payment_sessions":',
              items,
              suffix: `,"pagination":${JSON.stringify(pagination(page, count))}}`,
              tooLarge: () => refuseList('InvalidRequestParameter', answerTooLarge(smallerSessionPage(query))),
            });
          }),
        ),
      );
    },

    async capturePaymentSession(context, store) {
      const result = await capturePaymentSession(store, context, context.path.business_id, context.body);
      // An expired hold is stored as authorization_expired; only then is the capture refused.
      if (result.failure) return new RefusedAfterCommit(result.failure);
      return { id: result.captureId };
    },

    async voidPaymentSession(context, store) {
      return {
        id: (await voidPaymentSession(store, context, context.path.business_id, context.body?.idempotency_key)).voidId,
      };
    },

    async cancelPaymentSession(context, store) {
      return toDetail(await cancelPaymentSession(store, context, context.path.business_id));
    },

    async createRefund(context, store) {
      return { refund_id: (await refundPaymentSession(store, context, context.body)).refundId };
    },
  } satisfies Handlers<ContractOperations>;
}
