// What the dashboard reads of a channel's activity (openapi/sandbox.yaml, the Dashboard tag): the
// webhook events of one payment session, the outbox newest first with each event's latest
// delivery attempts, and a revision that tells when to read again. Each read is a page on indexed
// columns; only the page's payloads are parsed.
import { createHash, randomBytes } from 'node:crypto';
import { UNKNOWN_EVENT_TYPE } from '../domain/evolution-drill.js';
import type { Db } from './database.js';
import { storedExcerpt, type EventAttempt } from './deliveries.js';

/** Attempts shown with each event of the outbox's page; the log of deliveries has the rest. */
export const ATTEMPTS_PER_EVENT = 5;

export interface ActivityEvent {
  id: number;
  webhook_delivery_id: string;
  event_type: string;
  payload: { webhook_delivery_id: string; event_type: string; data: Record<string, unknown> };
  created_at: string;
  delivered_at: string | null;
}

interface EventRow extends Omit<ActivityEvent, 'payload' | 'webhook_delivery_id'> {
  delivery_id: string;
  payload: string;
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

export function activityQueries(db: Db) {
  const columns = 'id, delivery_id, event_type, payload, created_at, delivered_at';
  // On outbox_payment_session (migration 20): the session's own events, never the channel's others.
  const sessionEvents = db.prepare(`SELECT ${columns} FROM outbox
    WHERE channel = @channel AND payment_session_id = @session AND id > @after ORDER BY id LIMIT @limit + 1`);
  const sessionEventTime = db
    .prepare('SELECT created_at FROM outbox WHERE channel = ? AND payment_session_id = ? AND id = ?')
    .pluck();
  // On outbox_channel (channel, id), read backwards.
  const newestEvents = db.prepare(
    `SELECT ${columns} FROM outbox WHERE channel = @channel AND id < @before ORDER BY id DESC LIMIT @limit + 1`,
  );
  // On deliveries_outbox and delivery_attempts_delivery: an event's deliveries (one per endpoint
  // and redelivery) and their attempts. The event's own fields come from the event.
  const latestAttempts = db.prepare(
    `SELECT a.id, a.attempted_at, a.status, a.latency_ms, a.response, a.error, d.endpoint_id, ` +
      `d.attempts AS delivery_attempts,
      d.status AS delivery_status, e.url, d.drill_follow_up
    FROM deliveries d JOIN delivery_attempts a ON a.delivery_id = d.id LEFT JOIN webhook_endpoints e ON e.id =
      d.endpoint_id
    WHERE d.outbox_id = ? ORDER BY a.id DESC LIMIT ${ATTEMPTS_PER_EVENT + 1}`,
  );
  // Neither reads a table: the rows this connection has written, and SQLite's mark of other
  // connections' commits. A value of this process's own tells a restart apart.
  const writes = db.prepare('SELECT total_changes()').pluck();
  const otherCommits = db.prepare('PRAGMA data_version').pluck();
  const thisProcess = randomBytes(16).toString('hex');

  return {
    /** A page of a payment session's webhook events, oldest first, after the event `after` (0: from the first). */
    sessionEvents(channel: string, session: string, page: { after: number; limit: number }) {
      return pageOf(
        sessionEvents.all({ channel, session, after: page.after, limit: page.limit }) as EventRow[],
        page.limit,
        toEvent,
      );
    },
    /** When the event was queued, if it is one of the session's; undefined otherwise. */
    sessionEventTime: (channel: string, session: string, eventId: number) =>
      sessionEventTime.get(channel, session, eventId) as string | undefined,
    /** A page of the channel's events, newest first, before the event `before`. */
    newestEvents(channel: string, page: { before: number; limit: number }) {
      return pageOf(
        newestEvents.all({ channel, before: page.before, limit: page.limit }) as EventRow[],
        page.limit,
        toEvent,
      );
    },
    /**
     * The event's latest attempts, newest first, and whether it has older ones: those of the
     * evolution drill's event after it too, which carry that event's own type and delivery id.
     */
    latestAttempts(event: ActivityEvent) {
      type Own = 'response_excerpt' | 'event_id' | 'webhook_delivery_id' | 'event_type';
      type Row = Omit<EventAttempt, Own> & { response: string | null; drill_follow_up: string | null };
      const rows = latestAttempts.all(event.id) as Row[];
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
     * Changes with every write of the database (this process's or another's) and every restart; the channel's own
     * value, so that it names no count.
     */
    revision(channel: string): string {
      return createHash('sha256')
        .update(`${thisProcess}\n${channel}\n${String(otherCommits.get())}\n${String(writes.get())}`)
        .digest('hex')
        .slice(0, 20);
    },
  };
}
