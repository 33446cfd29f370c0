// What the dashboard reads of a channel's activity, on PostgreSQL: the twin of store/activity.ts.
// The webhook events of one payment session, the outbox newest first with each event's latest
// delivery attempts, and a revision that tells when to read again. Each read is a page on indexed
// columns; only the page's payloads are parsed.
import { createHash, randomBytes } from 'node:crypto';
import { UNKNOWN_EVENT_TYPE } from '../../domain/evolution-drill.js';
import { ATTEMPTS_PER_EVENT, type ActivityEvent } from '../activity.js';
import { type EventAttempt, storedExcerpt } from '../deliveries.js';
import type { ActivityQueries } from '../store.js';
import type { Async } from './async.js';
import type { PgQueries } from './queries.js';

interface EventRow extends Omit<ActivityEvent, 'payload' | 'webhook_delivery_id'> {
  delivery_id: string;
  payload: string;
  [column: string]: unknown;
}

const toEvent = ({ delivery_id: deliveryId, payload, ...row }: EventRow): ActivityEvent => ({
  ...row,
  webhook_delivery_id: deliveryId,
  payload: JSON.parse(payload) as ActivityEvent['payload'],
});

/** A page and whether another follows: the queries read one row more than the page. */
const pageOf = <Row, T>(rows: Row[], limit: number, read: (row: Row) => T) => ({
  rows: rows.slice(0, limit).map(read),
  hasMore: rows.length > limit,
});

const COLUMNS = 'id, delivery_id, event_type, payload, created_at, delivered_at';

export function activityQueries(q: PgQueries): Async<ActivityQueries> {
  // A value of this process's own tells a restart apart.
  const thisProcess = randomBytes(16).toString('hex');
  return {
    /** A page of a payment session's webhook events, oldest first, after the event `after` (0: from the first). */
    async sessionEvents(channel: string, session: string, page: { after: number; limit: number }) {
      // On outbox_payment_session: the session's own events, never the channel's others.
      const rows = await q.all<EventRow>(
        `SELECT ${COLUMNS} FROM outbox WHERE channel = $1 AND payment_session_id = $2 AND id > $3
          ORDER BY id LIMIT $4::integer + 1`,
        [channel, session, page.after, page.limit],
      );
      return pageOf(rows, page.limit, toEvent);
    },
    /** When the event was queued, if it is one of the session's; undefined otherwise. */
    sessionEventTime: (channel: string, session: string, eventId: number) =>
      q.value<string>('SELECT created_at FROM outbox WHERE channel = $1 AND payment_session_id = $2 AND id = $3', [
        channel,
        session,
        eventId,
      ]),
    /** A page of the channel's events, newest first, before the event `before`. On outbox_channel, read backwards. */
    async newestEvents(channel: string, page: { before: number; limit: number }) {
      const rows = await q.all<EventRow>(
        `SELECT ${COLUMNS} FROM outbox WHERE channel = $1 AND id < $2 ORDER BY id DESC LIMIT $3::integer + 1`,
        [channel, page.before, page.limit],
      );
      return pageOf(rows, page.limit, toEvent);
    },
    /**
     * The event's latest attempts, newest first, and whether it has older ones: those of the
     * evolution drill's event after it too, which carry that event's own type and delivery id. On
     * deliveries_outbox and delivery_attempts_delivery.
     */
    async latestAttempts(event: ActivityEvent) {
      type Own = 'response_excerpt' | 'event_id' | 'webhook_delivery_id' | 'event_type';
      type Row = Omit<EventAttempt, Own> & {
        response: string | null;
        drill_follow_up: string | null;
        [column: string]: unknown;
      };
      const rows = await q.all<Row>(
        `SELECT a.id, a.attempted_at, a.status, a.latency_ms, a.response, a.error, d.endpoint_id,
            d.attempts AS delivery_attempts, d.status AS delivery_status, e.url, d.drill_follow_up
          FROM deliveries d JOIN delivery_attempts a ON a.delivery_id = d.id
            LEFT JOIN webhook_endpoints e ON e.id = d.endpoint_id
          WHERE d.outbox_id = $1 ORDER BY a.id DESC LIMIT ${ATTEMPTS_PER_EVENT + 1}`,
        [event.id],
      );
      const { id: eventId, webhook_delivery_id: webhookDeliveryId, event_type: eventType } = event;
      return pageOf(
        rows,
        ATTEMPTS_PER_EVENT,
        ({ response, drill_follow_up: followUp, ...row }): EventAttempt => ({
          ...row,
          event_id: eventId,
          webhook_delivery_id: followUp ?? webhookDeliveryId,
          event_type: followUp === null ? eventType : UNKNOWN_EVENT_TYPE,
          response_excerpt: storedExcerpt(response),
        }),
      );
    },
    /**
     * Changes with every write of the database (this process's or another's) and every restart; the
     * channel's own value, so that it names no count. The snapshot (xmin:xmax:the transactions in
     * progress) names which writes a read sees: it moves when any transaction that wrote ends, and
     * committed or not (xmax alone would miss a write that ends after a later one). The transaction's own
     * id, once it has written, stands for its own writes not yet committed. Reads no table.
     */
    async revision(channel: string) {
      const seen = await q.value<string>(
        "SELECT pg_current_snapshot()::text || ':' || coalesce(pg_current_xact_id_if_assigned()::text, '')",
      );
      return createHash('sha256')
        .update(`${thisProcess}\n${channel}\n${String(seen)}`)
        .digest('hex')
        .slice(0, 20);
    },
  };
}
