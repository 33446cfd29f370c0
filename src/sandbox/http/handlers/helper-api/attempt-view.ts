// An attempt of the delivery log as the helper API shows it: the log of deliveries
// (listWebhookDeliveries), the dashboard's outbox and a listener's report all answer this one shape.
import type { EventAttempt } from '../../../store/deliveries.js';

/** An attempt of the delivery log, as the helpers show it (listWebhookDeliveries, a listener's report). */
export const attemptView = (row: EventAttempt) => ({
  id: String(row.id),
  event_id: String(row.event_id),
  webhook_delivery_id: row.webhook_delivery_id,
  event_type: row.event_type,
  endpoint_id: row.endpoint_id,
  url: row.url,
  attempted_at: row.attempted_at,
  status: row.status,
  latency_ms: row.latency_ms,
  response_excerpt: row.response_excerpt,
  error: row.error,
  delivery_status: row.delivery_status,
});
