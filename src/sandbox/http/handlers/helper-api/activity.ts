// The helper API's handlers (its /sandbox/v1/ routes) the dashboard reads besides the contract's
// lists (openapi/sandbox.yaml, the Dashboard tag): a payment session's timeline, the outbox newest
// first with each event's latest attempts, and the revision it polls to know when to read again.
import { helperRefusal } from '../../../domain/errors.js';
import { timelinePage } from '../../../domain/timeline.js';
import type { Handlers, HelperOperations } from '../../operation-types.js';
import { sessionOf } from '../../../app/lookups.js';
import { attemptView } from './attempt-view.js';

const TIMELINE_LIMIT = 50;
const EVENTS_LIMIT = 20;

export function activityHelperHandlers(): Handlers<HelperOperations> {
  return {
    async listSessionTimeline(context, store) {
      const session = await sessionOf(store, context.channel, context.path.payment_session_id);
      const { after, limit = TIMELINE_LIMIT } = context.query;
      // The previous page ended at that event: this one holds the record's steps after its time.
      const afterTime =
        after === undefined
          ? undefined
          : await store.activity.sessionEventTime(context.channel, session.id, Number(after));
      if (after !== undefined && afterTime === undefined) {
        throw helperRefusal(
          'InvalidRequest',
          `after ${after} is not an event of this payment session's timeline; pass the next_after of the previous ` +
            `page.`,
        );
      }
      const { rows, hasMore } = await store.activity.sessionEvents(context.channel, session.id, {
        after: after === undefined ? 0 : Number(after),
        limit,
      });
      const events = rows.map((event) => ({ ...event, id: String(event.id), data: event.payload.data ?? {} }));
      const last = rows.at(-1);
      const entries = timelinePage(session, events, {
        ...(afterTime !== undefined ? { after: afterTime } : {}),
        ...(hasMore ? { through: last!.created_at } : {}),
      });
      return {
        payment_session_id: session.id,
        entries,
        has_more: hasMore,
        next_after: hasMore ? String(last!.id) : null,
      };
    },

    async listWebhookEvents(context, store) {
      const { before, limit = EVENTS_LIMIT } = context.query;
      const { rows, hasMore } = await store.activity.newestEvents(context.channel, {
        before: before === undefined ? Number.MAX_SAFE_INTEGER : Number(before),
        limit,
      });
      // One after the other: the reads of one transaction, on its one connection.
      const events = [];
      for (const event of rows) {
        const attempts = await store.activity.latestAttempts(event);
        events.push({
          id: String(event.id),
          event_type: event.event_type,
          created_at: event.created_at,
          delivered_at: event.delivered_at,
          payload: event.payload,
          attempts: attempts.rows.map(attemptView),
          more_attempts: attempts.hasMore,
        });
      }
      return { events, has_more: hasMore, next_before: hasMore ? events.at(-1)!.id : null };
    },

    async retrieveRevision(context, store) {
      return { revision: await store.activity.revision(context.channel) };
    },
  };
}
