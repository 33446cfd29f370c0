// The webhook outbox: every event is written in the same transaction as the change that caused it.
import { randomUUID } from 'node:crypto';
import type { DomainEvent } from '../domain/types.js';
import type { Db } from './database.js';

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

export function outboxRepository(db: Db) {
  const insert = db.prepare('INSERT INTO outbox (delivery_id, channel, event_type, payload, created_at) VALUES (?, ?, ?, ?, ?)');
  const all = db.prepare('SELECT * FROM outbox WHERE channel = ? ORDER BY id');
  const byType = db.prepare('SELECT * FROM outbox WHERE channel = ? AND event_type = ? ORDER BY id');
  const toEvent = (row: OutboxRow): OutboxEvent => ({
    id: String(row.id),
    event_type: row.event_type,
    created_at: row.created_at,
    payload: JSON.parse(row.payload) as OutboxEvent['payload'],
    delivered_at: row.delivered_at,
  });
  return {
    enqueue(channel: string, event: DomainEvent, now: string): void {
      // The delivery id is fixed now, so that every retry of this event carries the same one.
      const deliveryId = `dlv_${randomUUID().replace(/-/g, '')}`;
      const payload = { webhook_delivery_id: deliveryId, event_type: event.event_type, data: event.data };
      insert.run(deliveryId, channel, event.event_type, JSON.stringify(payload), now);
    },
    list(channel: string, eventType?: string): OutboxEvent[] {
      const rows = (eventType === undefined ? all.all(channel) : byType.all(channel, eventType)) as OutboxRow[];
      return rows.map(toEvent);
    },
  };
}
