// The webhook outbox on PostgreSQL, the twin of store/outbox.ts: every event is written in the same
// transaction as the change that caused it, with a delivery to each endpoint subscribed to it.
import { UNKNOWN_EVENT_TYPE } from '../../domain/evolution-drill.js';
import type { DomainEvent } from '../../domain/types.js';
import { type OutboxEvent, resourceOf } from '../outbox.js';
import type { Outbox } from '../store.js';
import type { Async } from './async.js';
import { holdsNul } from './nul.js';
import { takeIds } from './autoincrement-migration.js';
import type { PgQueries } from './queries.js';

interface OutboxRow {
  id: number;
  delivery_id: string;
  event_type: string;
  payload: string;
  created_at: string;
  delivered_at: string | null;
  [column: string]: unknown;
}

// Ids are taken from the table's counter (autoincrement-migration.ts): given back if the write rolls back.
const INSERT = `WITH ${takeIds('outbox', '1')}
  INSERT INTO outbox (id, delivery_id, channel, event_type, payload, created_at)
  SELECT base + 1, $1::text, $2::text, $3::text, $4::text, $5::text FROM ids RETURNING id`;

// Each endpoint of the channel subscribed to the event gets a delivery, due at once, in the same
// transaction: by its name, by `*`, or, for a dispute event, by `dispute.*`. In the endpoints' order
// of creation ($1 channel, $2 outbox id, $3 resource, $4 now, $5 event type): SQLite takes them by
// its index on (channel, created_at), then by rowid, which PostgreSQL has not; ties of created_at
// go by id here.
const FAN_OUT = `WITH endpoints AS (
    SELECT id, row_number() OVER (ORDER BY created_at COLLATE "C", id COLLATE "C") AS n FROM webhook_endpoints
    WHERE channel = $1::text AND EXISTS (SELECT 1 FROM jsonb_array_elements_text(event_types::jsonb) AS t (value)
      WHERE value IN ('*', $5::text) OR (value = 'dispute.*' AND left($5::text, 8) = 'dispute.'))
  ), ${takeIds('deliveries', '(SELECT count(*) FROM endpoints)')}
  INSERT INTO deliveries (id, channel, outbox_id, endpoint_id, resource, status, first_due_at, due_at)
  SELECT base + n, $1::text, $2::bigint, e.id, $3::text, 'pending', $4::text, $4::text FROM endpoints e, ids
  ORDER BY n`;

// Under the evolution drill, every endpoint of the channel also gets the drill's event of an unknown
// type after the event: a delivery of the same outbox event, which sends that event instead
// ($1 channel, $2 outbox id, $3 now, $4 the follow-up's webhook_delivery_id).
const FOLLOW_UPS = `WITH endpoints AS (
    SELECT id, row_number() OVER (ORDER BY created_at COLLATE "C", id COLLATE "C") AS n FROM webhook_endpoints
    WHERE channel = $1::text
  ), ${takeIds('deliveries', '(SELECT count(*) FROM endpoints)')}
  INSERT INTO deliveries (id, channel, outbox_id, endpoint_id, resource, status, first_due_at, due_at, drill_follow_up)
  SELECT base + n, $1::text, $2::bigint, e.id, '${UNKNOWN_EVENT_TYPE}', 'pending', $3::text, $3::text, $4::text
  FROM endpoints e, ids ORDER BY n`;

// One row more than the page, to tell whether another page follows.
const ALL = 'SELECT * FROM outbox WHERE channel = $1 AND id > $2 ORDER BY id LIMIT $3::integer + 1';
const BY_TYPE =
  'SELECT * FROM outbox WHERE channel = $1 AND id > $2 AND event_type = $4 ORDER BY id LIMIT $3::integer + 1';

const toEvent = (row: OutboxRow): OutboxEvent => ({
  id: String(row.id),
  event_type: row.event_type,
  created_at: row.created_at,
  payload: JSON.parse(row.payload) as OutboxEvent['payload'],
  delivered_at: row.delivered_at,
});

/**
 * `onQueued` is told when a delivery was queued, so that the dispatcher wakes; it runs inside the
 * writing transaction, so it must only schedule work, never do it. (Another process's dispatcher
 * learns of the delivery from its own look at the queue.)
 */
export function outboxRepository(q: PgQueries, onQueued: () => void = () => {}): Async<Outbox> {
  return {
    async enqueue(channel: string, event: DomainEvent, now: string, deliveryId: string, drillFollowUp?: string) {
      const timestamp = event.timestamp !== undefined ? { timestamp: event.timestamp } : {};
      const payload = { webhook_delivery_id: deliveryId, event_type: event.event_type, ...timestamp, data: event.data };
      const outboxId = await q.value<number>(INSERT, [
        deliveryId,
        channel,
        event.event_type,
        JSON.stringify(payload),
        now,
      ]);
      let queued = await q.run(FAN_OUT, [channel, outboxId, resourceOf(event), now, event.event_type]);
      if (drillFollowUp !== undefined) queued += await q.run(FOLLOW_UPS, [channel, outboxId, now, drillFollowUp]);
      if (queued > 0) onQueued();
    },
    /** Delivers an event again, under the same webhook_delivery_id, to the endpoints subscribed to it now. */
    async redeliver(channel: string, outboxId: number, now: string) {
      const row = await q.one<{ event_type: string; payload: string }>(
        'SELECT event_type, payload FROM outbox WHERE channel = $1 AND id = $2',
        [channel, outboxId],
      );
      if (!row) return undefined;
      const { data } = JSON.parse(row.payload) as { data: Record<string, unknown> };
      const resource = resourceOf({ event_type: row.event_type, data });
      const queued = await q.run(FAN_OUT, [channel, outboxId, resource, now, row.event_type]);
      if (queued > 0) onQueued();
      return queued;
    },
    /** One page of the channel's events after the cursor, oldest first. */
    async list(channel: string, page: { eventType?: string; after?: number; limit: number }) {
      // A type with a NUL names no event (nul.ts).
      if (holdsNul(page.eventType)) return { events: [], hasMore: false };
      const params = [channel, page.after ?? 0, page.limit];
      const rows =
        page.eventType === undefined
          ? await q.all<OutboxRow>(ALL, params)
          : await q.all<OutboxRow>(BY_TYPE, [...params, page.eventType]);
      return { events: rows.slice(0, page.limit).map(toEvent), hasMore: rows.length > page.limit };
    },
  };
}
