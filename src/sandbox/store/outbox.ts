// The webhook outbox: every event is written in the same transaction as the change that caused it.
import { eventObjectId } from '../domain/event-subject.js';
import { UNKNOWN_EVENT_TYPE } from '../domain/evolution-drill.js';
import type { DomainEvent } from '../domain/types.js';
import type { Db } from './database.js';

/** The resource an event is about, whose events an endpoint receives in order. */
export function resourceOf(event: DomainEvent): string {
  const id = eventObjectId(event.data);
  return id !== undefined ? `${event.event_type.split(/[._]/)[0]}:${id}` : event.event_type;
}

export interface OutboxEvent {
  id: string;
  event_type: string;
  created_at: string;
  payload: { webhook_delivery_id: string; event_type: string; data: Record<string, unknown> };
  delivered_at: string | null;
}

interface OutboxRow {
  id: number;
  delivery_id: string;
  event_type: string;
  payload: string;
  created_at: string;
  delivered_at: string | null;
}

/**
 * `onQueued` is told when a delivery was queued, so that the dispatcher wakes; it runs inside the
 * writing transaction, so it must only schedule work, never do it.
 */
export function outboxRepository(db: Db, onQueued: () => void = () => {}) {
  const byId = db.prepare('SELECT event_type, payload FROM outbox WHERE channel = ? AND id = ?');
  const insert = db.prepare(
    'INSERT INTO outbox (delivery_id, channel, event_type, payload, created_at) VALUES (?, ?, ?, ?, ?)',
  );
  // Each endpoint of the channel subscribed to the event gets a delivery, due at once, in the same
  // transaction: by its name, by `*`, or, for a dispute event, by `dispute.*`. Numbered in the
  // endpoints' order of creation, a tie of created_at broken by id, as on PostgreSQL, which has no
  // order of insertion to fall back on.
  const fanOut =
    db.prepare(`INSERT INTO deliveries (channel, outbox_id, endpoint_id, resource, status, first_due_at, due_at)
    SELECT @channel, @outbox_id, id, @resource, 'pending', @now, @now FROM webhook_endpoints
    WHERE channel = @channel AND EXISTS (SELECT 1 FROM json_each(event_types)
      WHERE value IN ('*', @event_type) OR (value = 'dispute.*' AND substr(@event_type, 1, 8) = 'dispute.'))
    ORDER BY created_at, id`);
  // Under the evolution drill, every endpoint of the channel also gets the drill's event of an
  // unknown type after the event (none could have subscribed to it): a delivery of the same outbox
  // event, which sends that event instead (http/evolution-drill.ts), one at a time in order.
  const followUps = db.prepare(`INSERT INTO deliveries
      (channel, outbox_id, endpoint_id, resource, status, first_due_at, due_at, drill_follow_up)
    SELECT @channel, @outbox_id, id, '${UNKNOWN_EVENT_TYPE}', 'pending', @now, @now, @follow_up
    FROM webhook_endpoints WHERE channel = @channel ORDER BY created_at, id`);
  // One row more than the page, to tell whether another page follows.
  const all = db.prepare('SELECT * FROM outbox WHERE channel = @channel AND id > @after ORDER BY id LIMIT @limit + 1');
  const byType = db.prepare(
    'SELECT * FROM outbox WHERE channel = @channel AND event_type = @event_type AND id > @after ORDER BY id LIMIT ' +
      '@limit + 1',
  );
  const toEvent = (row: OutboxRow): OutboxEvent => ({
    id: String(row.id),
    event_type: row.event_type,
    created_at: row.created_at,
    payload: JSON.parse(row.payload) as OutboxEvent['payload'],
    delivered_at: row.delivered_at,
  });
  return {
    /**
     * Stores the event as fired, and queues its deliveries; `drillFollowUp`, the webhook_delivery_id
     * of the evolution drill's event of an unknown type, queues that after it too.
     */
    enqueue(channel: string, event: DomainEvent, now: string, deliveryId: string, drillFollowUp?: string): void {
      const timestamp = event.timestamp !== undefined ? { timestamp: event.timestamp } : {};
      const payload = { webhook_delivery_id: deliveryId, event_type: event.event_type, ...timestamp, data: event.data };
      const outboxId = insert.run(deliveryId, channel, event.event_type, JSON.stringify(payload), now).lastInsertRowid;
      const row = { channel, outbox_id: outboxId, now };
      let queued = fanOut.run({ ...row, event_type: event.event_type, resource: resourceOf(event) }).changes;
      if (drillFollowUp !== undefined) queued += followUps.run({ ...row, follow_up: drillFollowUp }).changes;
      if (queued > 0) onQueued();
    },
    /** Delivers an event again, under the same webhook_delivery_id, to the endpoints subscribed to it now. */
    redeliver(channel: string, outboxId: number, now: string): number | undefined {
      const row = byId.get(channel, outboxId) as { event_type: string; payload: string } | undefined;
      if (!row) return undefined;
      const { data } = JSON.parse(row.payload) as { data: Record<string, unknown> };
      const queued = fanOut.run({
        channel,
        outbox_id: outboxId,
        now,
        event_type: row.event_type,
        resource: resourceOf({ event_type: row.event_type, data }),
      }).changes;
      if (queued > 0) onQueued();
      return queued;
    },
    /** One page of the channel's events after the cursor, oldest first. */
    list(
      channel: string,
      page: { eventType?: string; after?: number; limit: number },
    ): { events: OutboxEvent[]; hasMore: boolean } {
      const params = { channel, after: page.after ?? 0, limit: page.limit };
      const rows = (
        page.eventType === undefined ? all.all(params) : byType.all({ ...params, event_type: page.eventType })
      ) as OutboxRow[];
      return { events: rows.slice(0, page.limit).map(toEvent), hasMore: rows.length > page.limit };
    },
  };
}
